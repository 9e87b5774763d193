import { purgeEndedSessions, type SessionStore } from '@travelops/domain/access';
import { type ExpireHoldsDeps, expireHolds } from '@travelops/domain/bookings';
import { type CrmStores, eraseCustomersPastRetention } from '@travelops/domain/crm';
import { type IdempotencyStore, purgeIdempotencyKeys } from '@travelops/domain/idempotency';
import type { NotificationStores } from '@travelops/domain/notifications';
import type { Clock, Logger, UnitOfWork } from '@travelops/domain/shared';
import type { WebhookStores } from '@travelops/domain/webhooks';
import { createGuestEmailJobs, type GuestEmailConfig } from './mail/guest-email-jobs.js';
import { createWebhookDeliveryJob, type DeliveryAttemptOutcome } from './webhooks/delivery-job.js';
import { createWebhookSender } from './webhooks/sender.js';
import type { Job } from './worker.js';

/** The stores the jobs touch, through a unit of work on the pool. */
type JobStores = ExpireHoldsDeps['uow']['stores'] &
  WebhookStores &
  NotificationStores &
  Pick<CrmStores, 'customers' | 'personalData'> & { idempotency: IdempotencyStore; sessions: SessionStore };

/** What every job needs, handed over by the app that assembles them. */
export interface JobDeps {
  uow: UnitOfWork<JobStores>;
  clock: Clock;
  logger: Logger;
}

export interface JobsOptions {
  /** Webhook receivers may be private or loopback addresses (development); false in production. */
  allowPrivateWebhookUrls: boolean;
  /** Told the outcome of every webhook delivery attempt (the app's metrics). */
  onDeliveryAttempt?: (outcome: DeliveryAttemptOutcome) => void;
  /** Guest e-mails: SMTP (or kept for `/dev/mail`), sender, links, rate. Absent: no e-mail jobs. */
  mail?: GuestEmailConfig;
}

/**
 * The one job list both apps run (the worker process, or the API on embedded PGlite):
 * hold expiry, idempotency and session clean-up, customer retention, webhook delivery, guest e-mails.
 */
export function createJobs(deps: JobDeps, options: JobsOptions): Job[] {
  const { uow, clock, logger } = deps;
  return [
    ...createBookingJobs({ uow, clock }, logger),
    ...createSessionJobs({ uow, clock }, logger),
    createRetentionJob({ uow, clock }, logger),
    createWebhookDeliveryJob({
      stores: uow.stores,
      clock,
      logger,
      send: createWebhookSender({ allowPrivateAddresses: options.allowPrivateWebhookUrls }),
      ...(options.onDeliveryAttempt && { onAttempt: options.onDeliveryAttempt }),
    }),
    ...(options.mail ? createGuestEmailJobs({ uow, clock, logger, ...options.mail }) : []),
  ];
}

/** The jobs of the bookings issue: hold expiry (decisions §2) and idempotency clean-up (§7). */
function createBookingJobs(deps: Pick<JobDeps, 'uow' | 'clock'>, logger: Logger): Job[] {
  return [
    {
      name: 'expire-holds',
      intervalMs: 5_000,
      async run() {
        const expired = await expireHolds(deps);
        if (expired) logger.info({ job: 'expire-holds', expired }, 'expired holds cancelled, seats released');
      },
    },
    {
      name: 'purge-idempotency-keys',
      intervalMs: 10 * 60_000,
      async run() {
        const purged = await purgeIdempotencyKeys(deps);
        if (purged)
          logger.info({ job: 'purge-idempotency-keys', purged }, 'idempotency records past 24 h deleted');
      },
    },
  ];
}

/** Sessions (decisions §6) that ended over a day ago are deleted. */
function createSessionJobs(deps: Pick<JobDeps, 'uow' | 'clock'>, logger: Logger): Job[] {
  return [
    {
      name: 'purge-ended-sessions',
      intervalMs: 60 * 60_000,
      async run() {
        const purged = await purgeEndedSessions(deps);
        if (purged)
          logger.info({ job: 'purge-ended-sessions', purged }, 'sessions ended over a day ago deleted');
      },
    },
  ];
}

/**
 * Decisions §13: customers of a workspace with `customerRetentionMonths` whose last departure
 * is older are erased, 100 a run, each in its own transaction; each one logged.
 */
function createRetentionJob(deps: Pick<JobDeps, 'uow' | 'clock'>, logger: Logger): Job {
  return {
    name: 'erase-customers-past-retention',
    intervalMs: 60 * 60_000,
    async run() {
      for (const erased of await eraseCustomersPastRetention(deps)) {
        logger.info(
          {
            job: 'erase-customers-past-retention',
            workspaceId: erased.workspaceId,
            customerId: erased.customerId,
            rewritten: erased.rewritten,
          },
          'customer erased: last departure older than the workspace keeps customers',
        );
      }
    },
  };
}
