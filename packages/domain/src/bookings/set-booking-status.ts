import { requestForStatusChange, requestGuestEmail } from '../notifications/index.js';
import type { PaymentProvider } from '../payments/index.js';
import { refundLocked } from '../payments/index.js';
import { validationError } from '../shared/errors.js';
import type { Clock, UnitOfWork } from '../shared/ports.js';
import { fail, ok, type Result } from '../shared/result.js';
import { type CancelStores, cancelLocked, emitBookingEvent, recordStatus } from './booking-writes.js';
import { checkChosenRefund } from './policy-rules.js';
import type { BookingContext, BookingPatch, BookingRecord, BookingStores } from './ports.js';
import { decideStatusChange } from './rules.js';
import type { SetBookingStatusInput } from './schemas.js';

export interface SetBookingStatusDeps {
  uow: UnitOfWork<CancelStores & Pick<BookingStores, 'bookings'>>;
  clock: Clock;
  payments: PaymentProvider;
}

/**
 * Decisions §2: moves the booking along its state machine; cancelling releases seats. An
 * operator's cancel ignores the guest policy and refunds `refundAmount` (default nothing, as
 * before), in the same transaction.
 */
export function setBookingStatus(
  deps: SetBookingStatusDeps,
  ctx: BookingContext,
  bookingId: string,
  input: SetBookingStatusInput,
): Promise<Result<BookingRecord>> {
  if (input.refundAmount !== undefined && input.status !== 'CANCELLED') {
    return Promise.resolve(
      fail(
        validationError('refundAmount goes with status CANCELLED only.', [
          { field: 'refundAmount', issue: 'requires_cancelled' },
        ]),
      ),
    );
  }
  return deps.uow.transaction(async ({ stores }) => {
    const locked = await stores.bookings.lockWithDepartures(ctx.workspaceId, bookingId);
    if (!locked.ok) return locked;
    const { booking } = locked.value;
    const change = decideStatusChange(booking.status, input.status, booking.startsAt, deps.clock.now());
    if (!change.ok) return change;
    const reason = input.reason ?? null;
    let updated: BookingRecord;
    let refundedNow = 0;
    if (change.value.releasesSeats) {
      const refund = checkChosenRefund(input.refundAmount ?? 0, booking);
      if (!refund.ok) return refund;
      const cancelled = await cancelLocked(stores, deps.clock, booking, {
        actor: ctx.actor,
        reason,
        event: 'booking.cancelled',
      });
      if (!cancelled.ok) return cancelled;
      updated = cancelled.value;
      if (refund.value > 0) {
        const refunded = await refundLocked(stores, deps, updated, refund.value, reason);
        if (!refunded.ok) return refunded;
        updated = refunded.value;
        refundedNow = refund.value;
      }
    } else {
      const patch: BookingPatch = { status: change.value.to };
      if (change.value.to === 'CONFIRMED') {
        patch.confirmedAt = deps.clock.now().toISOString();
        patch.expiresAt = null;
      }
      updated = await stores.bookings.update(ctx.workspaceId, booking.id, patch);
      await recordStatus(stores, updated, booking.status, ctx.actor, reason);
      await emitBookingEvent(stores, deps.clock, change.value.event, updated);
    }
    // The operator decides: `notifyCustomer: false` (the default) sends the guest nothing.
    if (input.notifyCustomer) {
      await requestGuestEmail(
        stores,
        deps.clock,
        updated,
        requestForStatusChange(updated.status, { refundAmount: refundedNow, reason }),
      );
    }
    return ok(updated);
  });
}
