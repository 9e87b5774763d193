import type { BookingContext, BookingRecord, BookingStores } from '../bookings/index.js';
import { derivePaymentStatus, emitBookingEvent } from '../bookings/index.js';
import { notFound, unprocessable } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import type { Clock, UnitOfWork } from '../shared/ports.js';
import { fail, ok, type Result } from '../shared/result.js';
import { type PaymentProvider, refundAtProvider } from './checkout.js';

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
  const refunded = await refundAtProvider(stores, deps.payments, booking, amount);
  if (!refunded.ok) return refunded;
  return ok(
    await recordRefundLocked(stores, deps.clock, booking, {
      amount,
      reason,
      providerReference: refunded.value.reference,
    }),
  );
}

/** Refunds (additive): part or all of what was paid; paymentStatus follows. */
export function refundBooking(
  deps: RefundDeps,
  ctx: BookingContext,
  bookingId: string,
  input: { amount?: number; reason?: string },
): Promise<Result<BookingRecord>> {
  return deps.uow.transaction(async ({ stores }) => {
    // The booking alone: no seats move, and a provider's network call must not hold a departure.
    const booking = await stores.bookings.lock(ctx.workspaceId, bookingId);
    if (!booking) return fail(notFound('booking'));
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

/**
 * Records money returned on a booking the caller has locked: the REFUND record, the booking's
 * refunded amount and paymentStatus, the customer's figures, `payment.refunded`.
 */
export async function recordRefundLocked(
  stores: RefundStores,
  clock: Clock,
  booking: BookingRecord,
  refund: { amount: number; reason: string | null; providerReference: string | null },
): Promise<BookingRecord> {
  const payment = await stores.payments.insertPayment({
    id: newId('payment'),
    workspaceId: booking.workspaceId,
    bookingId: booking.id,
    sessionId: null,
    kind: 'REFUND',
    amount: refund.amount,
    currency: booking.currency,
    reason: refund.reason,
    providerReference: refund.providerReference,
  });
  const total = booking.amountRefunded + refund.amount;
  const updated = await stores.bookings.update(booking.workspaceId, booking.id, {
    amountRefunded: total,
    paymentStatus: derivePaymentStatus(booking.totalAmount, booking.amountPaid, total),
  });
  await stores.customers.refreshStats(booking.workspaceId, booking.customerId);
  await emitBookingEvent(stores, clock, 'payment.refunded', updated, {
    paymentId: payment.id,
    bookingId: booking.id,
    amount: refund.amount,
    currency: booking.currency,
    reason: payment.reason,
  });
  return updated;
}
