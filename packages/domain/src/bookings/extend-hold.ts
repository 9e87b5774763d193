import { newId } from '../shared/ids.js';
import type { Clock, UnitOfWork } from '../shared/ports.js';
import { ok, type Result } from '../shared/result.js';
import { emitBookingEvent } from './booking-writes.js';
import { extendHoldExpiry } from './policy-rules.js';
import type { BookingContext, BookingRecord, BookingStores } from './ports.js';

export interface ExtendHoldDeps {
  uow: UnitOfWork<Pick<BookingStores, 'bookings' | 'bookingHistory' | 'payments' | 'outbox'>>;
  clock: Clock;
}

/**
 * Gives a PENDING hold more time (see `extendHoldExpiry`); its open payment pages expire with
 * it. The booking is locked as the hold-expiry job locks it (departure, then booking) and the
 * expiry is checked after the lock, so an extend and an expiry serialise and exactly one wins.
 */
export function extendHold(
  deps: ExtendHoldDeps,
  ctx: BookingContext,
  bookingId: string,
  minutes: number,
): Promise<Result<BookingRecord>> {
  return deps.uow.transaction(async ({ stores }) => {
    const locked = await stores.bookings.lockWithDepartures(ctx.workspaceId, bookingId);
    if (!locked.ok) return locked;
    const { booking } = locked.value;
    const extended = extendHoldExpiry(booking, minutes, deps.clock.now());
    if (!extended.ok) return extended;
    const expiresAt = extended.value.toISOString();
    // Already as long as allowed: nothing changes, nothing to tell.
    if (expiresAt === booking.expiresAt) return ok(booking);
    const updated = await stores.bookings.update(ctx.workspaceId, booking.id, { expiresAt });
    await stores.payments.extendOpenSessions(booking.id, extended.value);
    await stores.bookingHistory.append({
      id: newId('history'),
      workspaceId: booking.workspaceId,
      bookingId: booking.id,
      fromStatus: booking.status,
      toStatus: booking.status,
      reason: `HOLD_EXTENDED until ${expiresAt}`,
      actor: ctx.actor,
    });
    await emitBookingEvent(stores, deps.clock, 'booking.updated', updated);
    return ok(updated);
  });
}
