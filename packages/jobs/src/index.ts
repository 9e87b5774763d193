export { countDeliveryAttempts } from './delivery-metric.js';
export {
  /** @public startJobRunner's second argument: each app fills it from its env and database. */
  type JobRunnerOptions,
  startJobRunner,
} from './job-runner.js';
export {
  createJobs,
  /** @public createJobs's first argument: each app assembles it. */
  type JobDeps,
  /** @public createJobs's second argument: each app fills it from its env. */
  type JobsOptions,
} from './jobs.js';
export type {
  /** @public JobsOptions.mail: each app fills it from SMTP_URL, MAIL_FROM and the rest of its env. */
  GuestEmailConfig,
} from './mail/guest-email-jobs.js';
export { outboxWakeUps } from './outbox-wake-ups.js';
export {
  EnvFlagSchema,
  JOB_ENV,
  /** @public What jobSettingsOf returns and startJobRunner takes. */
  type JobSettings,
  jobSettingsOf,
  MAIL_FROM_REQUIRED,
  mailFromIsGiven,
} from './settings.js';
export { createEndpointUrlCheck } from './webhooks/address-guard.js';
export {
  createWebhookDeliveryJob,
  type DeliveryAttemptOutcome,
  /** @public createWebhookDeliveryJob's argument: tests tune the retry policy and the lease with it. */
  type WebhookDeliveryJobOptions,
} from './webhooks/delivery-job.js';
export {
  createWebhookSender,
  /** @public What a WebhookSender is given: a hand-written sender (a test double) reads it. */
  type WebhookRequest,
  /** @public What a WebhookSender answers: a hand-written sender (a test double) returns one. */
  type WebhookResponse,
  type WebhookSender,
} from './webhooks/sender.js';
export {
  createWorker,
  type Job,
  /** @public What createWorker returns: the apps start it and stop it on shutdown. */
  type Worker,
  /** @public createWorker's argument: the jobs, the logger and the shutdown grace. */
  type WorkerOptions,
} from './worker.js';
