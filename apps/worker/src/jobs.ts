import {
  type BookingDeps,
  type Clock,
  expireHolds,
  purgeEndedSessions,
  purgeIdempotencyKeys,
  type SessionStore,
} from '@travelops/domain';
import type { Logger } from './logger.js';
import type { Job } from './worker.js';

/** The jobs of the bookings issue: hold expiry (decisions §2) and idempotency clean-up (§7). */
export function createBookingJobs(deps: Pick<BookingDeps, 'stores' | 'clock'>, logger: Logger): Job[] {
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
        const purged = await purgeIdempotencyKeys(deps.stores, deps.clock);
        if (purged)
          logger.info({ job: 'purge-idempotency-keys', purged }, 'idempotency records past 24 h deleted');
      },
    },
  ];
}

/** Sessions (decisions §6) that ended over a day ago are deleted. */
export function createSessionJobs(deps: { sessions: SessionStore; clock: Clock }, logger: Logger): Job[] {
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
