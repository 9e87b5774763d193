import { createSmtpTransport } from '@travelops/mail';
import { createJobs, type JobDeps } from './jobs.js';
import { outboxWakeUps } from './outbox-wake-ups.js';
import type { JobSettings } from './settings.js';
import type { DeliveryAttemptOutcome } from './webhooks/delivery-job.js';
import { createWorker } from './worker.js';

export interface JobRunnerOptions {
  settings: JobSettings;
  /** Base of the guests' links in e-mails (`PUBLIC_BASE_URL`, as the API builds them). */
  publicBaseUrl: string;
  /** Told the outcome of every webhook delivery attempt (`countDeliveryAttempts`). */
  onDeliveryAttempt?: (outcome: DeliveryAttemptOutcome) => void;
  /** The database's outbox listener (`database.listenForOutbox` of packages/db). */
  listenForOutbox(handlers: ReturnType<typeof outboxWakeUps>): { close(): Promise<void> };
}

/**
 * The jobs both apps run, assembled and started once: the SMTP transport (none without
 * SMTP_URL: e-mails are kept), the job list, the runner, and the outbox listener that wakes
 * the webhook delivery at each commit (its poll is the safety net). `stop` lets runs in flight
 * finish, then closes the listener and the transport.
 */
export function startJobRunner(deps: JobDeps, options: JobRunnerOptions): { stop(): Promise<void> } {
  const { settings } = options;
  const mailer = settings.mail.smtpUrl ? createSmtpTransport({ url: settings.mail.smtpUrl }) : null;
  const jobs = createJobs(deps, {
    allowPrivateWebhookUrls: settings.allowPrivateWebhookUrls,
    ...(options.onDeliveryAttempt && { onDeliveryAttempt: options.onDeliveryAttempt }),
    mail: {
      transport: mailer,
      fromAddress: settings.mail.from,
      publicBaseUrl: options.publicBaseUrl,
      perWorkspacePerMinute: settings.mail.perWorkspacePerMinute,
      holdWarningMinutes: settings.mail.holdWarningMinutes,
    },
  });
  const worker = createWorker({ jobs, logger: deps.logger });
  worker.start();
  const listener = options.listenForOutbox(outboxWakeUps(worker, deps.logger));
  return {
    async stop() {
      await worker.stop();
      await listener.close();
      mailer?.close();
    },
  };
}
