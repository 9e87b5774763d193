export { createBookingJobs, createSessionJobs } from './jobs.js';
export { createJsonLogger, type Logger, type LogLevel, type LogStream } from './logger.js';
export {
  allowPrivateWebhookUrls,
  checkHost,
  createEndpointUrlCheck,
  isPrivateAddress,
} from './webhooks/address-guard.js';
export { createWebhookDeliveryJob, type WebhookDeliveryJobOptions } from './webhooks/delivery-job.js';
export { createWebhookSender, type WebhookSender } from './webhooks/sender.js';
export { createWorker, type Job, type Worker, type WorkerOptions } from './worker.js';
