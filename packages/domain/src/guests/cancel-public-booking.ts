import type { BookingRecord, GuestCancellationInput } from '../bookings/index.js';
import { type CancelStores, cancelLocked, checkGuestCancel, policyRefund } from '../bookings/index.js';
import { requestGuestEmail } from '../notifications/index.js';
import type { PaymentProvider } from '../payments/index.js';
import { refundLocked } from '../payments/index.js';
import type { Clock, UnitOfWork } from '../shared/ports.js';
import { ok, type Result } from '../shared/result.js';
import { lockGuestBooking } from './public-booking.js';

export interface CancelPublicBookingDeps {
  uow: UnitOfWork<CancelStores>;
  clock: Clock;
  payments: PaymentProvider;
}

const GUEST = { type: 'guest', id: null } as const;

/**
 * A guest cancels with the booking's token, before the cutoff of the policy they agreed to:
 * seats back, `booking.cancelled`, and the refund the policy gives made through the provider
 * and recorded (`payment.refunded`), and the guest's e-mail asked for, all in one transaction.
 */
export function cancelPublicBooking(
  deps: CancelPublicBookingDeps,
  publicToken: string,
  input: GuestCancellationInput,
): Promise<Result<BookingRecord>> {
  return deps.uow.transaction(async ({ stores }) => {
    const locked = await lockGuestBooking(stores, publicToken);
    if (!locked.ok) return locked;
    const { booking } = locked.value;
    const allowed = checkGuestCancel(booking, deps.clock.now());
    if (!allowed.ok) return allowed;
    const reason = input.reason ?? null;
    const cancelled = await cancelLocked(stores, deps.clock, booking, {
      actor: GUEST,
      reason,
      event: 'booking.cancelled',
    });
    if (!cancelled.ok) return cancelled;
    const amount = policyRefund(booking.cancellationPolicy, booking);
    const settled =
      amount === 0
        ? cancelled
        : await refundLocked(stores, deps, cancelled.value, amount, reason ?? 'GUEST_CANCELLED');
    if (!settled.ok) return settled;
    // The guest's own action: they always get its confirmation, with the refund the policy gave.
    await requestGuestEmail(stores, deps.clock, settled.value, {
      template: 'booking_cancelled',
      refundAmount: amount,
      reason,
    });
    return ok(settled.value);
  });
}
