import type { PaymentProvider } from '../payments/index.js';
import { refundLocked } from '../payments/index.js';
import type { Clock, UnitOfWork } from '../shared/ports.js';
import { ok, type Result } from '../shared/result.js';
import { type CancelStores, cancelLocked } from './booking-writes.js';
import { checkGuestCancel, policyRefund } from './policy-rules.js';
import type { BookingContext, BookingRecord, BookingStores } from './ports.js';

export interface CancelUnderPolicyDeps {
  uow: UnitOfWork<CancelStores & Pick<BookingStores, 'bookings'>>;
  clock: Clock;
  payments: PaymentProvider;
}

/**
 * A sales channel's cancel (an OCTO reseller's): the guest's rules, with the caller as actor.
 * A PENDING hold is released at any time (nothing was sold yet); a CONFIRMED booking only
 * before its cancellation cutoff (422 `cancellation_cutoff_passed` after it, `invalid_state`
 * for anything else), with the policy's refund of what was paid, all in one transaction.
 */
export function cancelUnderPolicy(
  deps: CancelUnderPolicyDeps,
  ctx: BookingContext,
  bookingId: string,
  input: { reason?: string | null | undefined },
): Promise<Result<BookingRecord>> {
  return deps.uow.transaction(async ({ stores }) => {
    const locked = await stores.bookings.lockWithDepartures(ctx.workspaceId, bookingId);
    if (!locked.ok) return locked;
    const { booking } = locked.value;
    if (booking.status !== 'PENDING') {
      const allowed = checkGuestCancel(booking, deps.clock.now());
      if (!allowed.ok) return allowed;
    }
    const reason = input.reason ?? null;
    const cancelled = await cancelLocked(stores, deps.clock, booking, {
      actor: ctx.actor,
      reason,
      event: 'booking.cancelled',
    });
    if (!cancelled.ok) return cancelled;
    const amount = policyRefund(booking.cancellationPolicy, booking);
    if (amount === 0) return ok(cancelled.value);
    return refundLocked(stores, deps, cancelled.value, amount, reason ?? 'CANCELLED_UNDER_POLICY');
  });
}
