import { emitBookingEvent } from '../bookings/booking-writes.js';
import type { BookingContext } from '../bookings/create-booking.js';
import type { BookingRecord, BookingStores } from '../bookings/ports.js';
import { derivePaymentStatus } from '../bookings/rules.js';
import { unprocessable } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import type { Clock, UnitOfWork } from '../shared/ports.js';
import { fail, ok, type Result } from '../shared/result.js';
import type { PaymentProvider } from './checkout.js';

type RefundStores = Pick<BookingStores, 'bookings' | 'payments' | 'customers' | 'outbox'>;

export interface RefundDeps {
  uow: UnitOfWork<RefundStores>;
  clock: Clock;
  payments: PaymentProvider;
}

/**
 * Returns `amount` (> 0, at most paid minus refunded: the caller checked) of a booking the
 * caller has locked: through the provider, recorded as a REFUND payment, paymentStatus
 * following, `payment.refunded` emitted.
 */
export async function refundLocked(
  stores: RefundStores,
  deps: Pick<RefundDeps, 'clock' | 'payments'>,
  booking: BookingRecord,
  amount: number,
  reason: string | null,
): Promise<Result<BookingRecord>> {
  const refunded = await deps.payments.refund({
    bookingId: booking.id,
    amount,
    currency: booking.currency,
  });
  if (!refunded.ok) return refunded;
  const payment = await stores.payments.insertPayment({
    id: newId('payment'),
    workspaceId: booking.workspaceId,
    bookingId: booking.id,
    sessionId: null,
    kind: 'REFUND',
    amount,
    currency: booking.currency,
    reason,
  });
  const total = booking.amountRefunded + amount;
  const updated = await stores.bookings.update(booking.workspaceId, booking.id, {
    amountRefunded: total,
    paymentStatus: derivePaymentStatus(booking.totalAmount, booking.amountPaid, total),
  });
  await stores.customers.refreshStats(booking.workspaceId, booking.customerId);
  await emitBookingEvent(stores, deps.clock, 'payment.refunded', updated, {
    paymentId: payment.id,
    bookingId: booking.id,
    amount,
    currency: booking.currency,
    reason: payment.reason,
  });
  return ok(updated);
}

/** Refunds (additive): part or all of what was paid; paymentStatus follows. */
export function refundBooking(
  deps: RefundDeps,
  ctx: BookingContext,
  bookingId: string,
  input: { amount?: number; reason?: string },
): Promise<Result<BookingRecord>> {
  return deps.uow.transaction(async ({ stores }) => {
    const locked = await stores.bookings.lockWithDepartures(ctx.workspaceId, bookingId);
    if (!locked.ok) return locked;
    const { booking } = locked.value;
    const refundable = booking.amountPaid - booking.amountRefunded;
    if (refundable <= 0)
      return fail(unprocessable('Nothing paid is left to refund.', 'amount', 'nothing_to_refund'));
    const amount = input.amount ?? refundable;
    if (amount > refundable) {
      return fail(unprocessable(`At most ${refundable} can be refunded.`, 'amount', 'exceeds_refundable'));
    }
    return refundLocked(stores, deps, booking, amount, input.reason ?? null);
  });
}
