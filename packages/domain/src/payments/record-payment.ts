import type { BookingPatch, BookingRecord, BookingStores } from '../bookings/index.js';
import { derivePaymentStatus, emitBookingEvent, recordStatus } from '../bookings/index.js';
import { requestGuestEmail } from '../notifications/index.js';
import { newId } from '../shared/ids.js';
import type { Clock } from '../shared/ports.js';
import type { PaymentSession } from './ports.js';
import { moneyToReturn } from './rules.js';

export type RecordPaymentStores = Pick<
  BookingStores,
  'bookings' | 'payments' | 'customers' | 'bookingHistory' | 'outbox'
>;

/**
 * Records money received through a session whose booking (departure first) and session the
 * caller has locked: the payment, the booking's paid amount and paymentStatus, a PENDING
 * booking CONFIRMED, the session SUCCEEDED, `payment.succeeded` (and `booking.confirmed`).
 * A booking in any other state only records the money: it is never confirmed from CANCELLED.
 * `sessionPaidBefore`: a second provider payment through one session (two checkouts raced for
 * it) is recorded beside the session's own, not linked to it.
 */
export async function recordPaymentLocked(
  stores: RecordPaymentStores,
  clock: Clock,
  booking: BookingRecord,
  session: PaymentSession,
  money: { amount: number; providerReference: string | null; sessionPaidBefore?: boolean },
): Promise<{ session: PaymentSession; booking: BookingRecord }> {
  const now = clock.now();
  const payment = await stores.payments.insertPayment({
    id: newId('payment'),
    workspaceId: booking.workspaceId,
    bookingId: booking.id,
    sessionId: money.sessionPaidBefore ? null : session.id,
    kind: 'PAYMENT',
    amount: money.amount,
    currency: booking.currency,
    reason: null,
    providerReference: money.providerReference,
  });
  const paid = booking.amountPaid + payment.amount;
  const patch: BookingPatch = {
    amountPaid: paid,
    paymentStatus: derivePaymentStatus(booking.totalAmount, paid, booking.amountRefunded),
  };
  const confirms = booking.status === 'PENDING';
  if (confirms) {
    patch.status = 'CONFIRMED';
    patch.confirmedAt = now.toISOString();
    patch.expiresAt = null;
  }
  const updated = await stores.bookings.update(booking.workspaceId, booking.id, patch);
  const completed = money.sessionPaidBefore
    ? session
    : await stores.payments.updateSession(session.id, { status: 'SUCCEEDED', completedAt: now });
  await stores.customers.refreshStats(booking.workspaceId, booking.customerId);
  await emitBookingEvent(stores, clock, 'payment.succeeded', updated, {
    paymentId: payment.id,
    bookingId: booking.id,
    amount: payment.amount,
    currency: payment.currency,
    purpose: session.purpose,
  });
  if (confirms) {
    await recordStatus(stores, updated, booking.status, { type: 'system', id: null }, 'PAYMENT_SUCCEEDED');
    await emitBookingEvent(stores, clock, 'booking.confirmed', updated);
    await requestGuestEmail(stores, clock, updated, { template: 'booking_confirmed' });
  }
  // Money the booking cannot keep goes back at once: no receipt for it.
  if (moneyToReturn(updated, payment.amount) === 0) {
    await requestGuestEmail(stores, clock, updated, {
      template: 'payment_received',
      paymentId: payment.id,
      amount: payment.amount,
      currency: payment.currency,
    });
  }
  return { session: completed, booking: updated };
}
