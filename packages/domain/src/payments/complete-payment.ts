import type { BookingRecord, BookingStores } from '../bookings/index.js';
import { emitBookingEvent, outstandingAmount } from '../bookings/index.js';
import { notFound, unprocessable } from '../shared/errors.js';
import type { Clock, UnitOfWork } from '../shared/ports.js';
import { fail, ok, type Result } from '../shared/result.js';
import type { PaymentSession } from './ports.js';
import { recordPaymentLocked } from './record-payment.js';

export interface CompletePaymentDeps {
  uow: UnitOfWork<Pick<BookingStores, 'bookings' | 'payments' | 'customers' | 'bookingHistory' | 'outbox'>>;
  clock: Clock;
}

/** Completes (or fails) a sandbox payment session: money recorded, booking confirmed, events. */
export async function completePayment(
  deps: CompletePaymentDeps,
  token: string,
  outcome: 'succeeded' | 'failed',
): Promise<Result<{ session: PaymentSession; booking: BookingRecord }>> {
  const found = await deps.uow.stores.payments.findSessionByToken(token);
  if (!found) return fail(notFound('payment session'));
  return deps.uow.transaction(async ({ stores }) => {
    const locked = await stores.bookings.lockWithDepartures(found.workspaceId, found.bookingId);
    if (!locked.ok) return locked;
    const { booking } = locked.value;
    const session = await stores.payments.lockSession(found.id);
    const now = deps.clock.now();
    if (session?.status !== 'OPEN') {
      return fail(unprocessable('This payment page is no longer open.', 'token', 'session_closed'));
    }
    if (session.expiresAt.getTime() <= now.getTime()) {
      return fail(unprocessable('This payment page has expired.', 'token', 'session_expired'));
    }
    if (booking.status === 'CANCELLED' || booking.status === 'COMPLETED' || booking.status === 'NO_SHOW') {
      return fail(
        unprocessable(`The booking is ${booking.status}; no payment is taken.`, 'status', 'invalid_state'),
      );
    }
    if (outcome === 'failed') {
      const failed = await stores.payments.updateSession(session.id, { status: 'FAILED', completedAt: now });
      await emitBookingEvent(stores, deps.clock, 'payment.failed', booking, {
        bookingId: booking.id,
        sessionId: session.id,
        amount: session.amount,
      });
      return ok({ session: failed, booking });
    }
    const amount = Math.min(session.amount, outstandingAmount(booking));
    if (amount <= 0) {
      return fail(unprocessable('Nothing is outstanding on this booking.', 'amount', 'nothing_outstanding'));
    }
    return ok(
      await recordPaymentLocked(stores, deps.clock, booking, session, { amount, providerReference: null }),
    );
  });
}

/** A hosted payment page by its token: what the provider's page shows; null when unknown. */
export function findPaymentSession(
  deps: { uow: UnitOfWork<Pick<BookingStores, 'payments'>> },
  token: string,
): Promise<PaymentSession | null> {
  return deps.uow.stores.payments.findSessionByToken(token);
}
