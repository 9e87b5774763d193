import type { Clock, UnitOfWork } from '../shared/ports.js';
import { ok } from '../shared/result.js';
import { type CancelStores, cancelLocked, SYSTEM } from './booking-writes.js';

export interface ExpireHoldsDeps {
  uow: UnitOfWork<CancelStores>;
  clock: Clock;
}

/** The worker's job: cancels PENDING bookings whose hold has passed (reason EXPIRED). */
export async function expireHolds(deps: ExpireHoldsDeps, limit = 100): Promise<number> {
  const holds = await deps.uow.stores.bookings.findExpiredHolds(deps.clock.now(), { limit });
  let expired = 0;
  for (const hold of holds) {
    const result = await deps.uow.transaction(async ({ stores }) => {
      const locked = await stores.bookings.lockWithDepartures(hold.workspaceId, hold.id);
      if (!locked.ok) return locked;
      const { booking } = locked.value;
      const now = deps.clock.now().getTime();
      // Paid, cancelled or extended meanwhile: nothing to do.
      if (booking.status !== 'PENDING' || !booking.expiresAt || Date.parse(booking.expiresAt) > now)
        return ok(false);
      const cancelled = await cancelLocked(stores, deps.clock, booking, {
        actor: SYSTEM,
        reason: 'EXPIRED',
        event: 'booking.expired',
      });
      return cancelled.ok ? ok(true) : cancelled;
    });
    if (result.ok && result.value) expired++;
  }
  return expired;
}
