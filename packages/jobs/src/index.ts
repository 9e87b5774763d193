export { createJobs } from './jobs.js';
export {
  createJsonLogger,
  defaultLogFormat,
  LOG_FORMATS,
  LOG_LEVELS,
  type LogLevel,
} from './logger.js';
export { createEndpointUrlCheck } from './webhooks/address-guard.js';
export type { DeliveryAttemptOutcome } from './webhooks/delivery-job.js';
export { createWebhookDeliveryJob } from './webhooks/delivery-job.js';
export {
  createWebhookSender,
  type WebhookSender,
} from './webhooks/sender.js';
export { createWorker, type Job } from './worker.js';
