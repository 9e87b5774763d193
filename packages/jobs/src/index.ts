export { createJobs, type JobDeps, type JobsOptions } from './jobs.js';
export { createJsonLogger, type Logger, type LogLevel, type LogStream } from './logger.js';
export { createEndpointUrlCheck } from './webhooks/address-guard.js';
export { createWebhookDeliveryJob, type WebhookDeliveryJobOptions } from './webhooks/delivery-job.js';
export {
  createWebhookSender,
  type WebhookRequest,
  type WebhookResponse,
  type WebhookSender,
} from './webhooks/sender.js';
export { createWorker, type Job, type Worker, type WorkerOptions } from './worker.js';
