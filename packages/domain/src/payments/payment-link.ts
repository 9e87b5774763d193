import type { BookingContext, BookingStores } from '../bookings/index.js';
import { outstandingAmount } from '../bookings/index.js';
import { unprocessable } from '../shared/errors.js';
import type { Clock, UnitOfWork } from '../shared/ports.js';
import { fail, ok, type Result } from '../shared/result.js';
import { openPaymentSession, type PaymentProvider } from './checkout.js';
import type { PaymentPurpose } from './ports.js';

export interface PaymentLinkDeps {
  uow: UnitOfWork<Pick<BookingStores, 'bookings' | 'payments'>>;
  clock: Clock;
  payments: PaymentProvider;
}

const PAYMENT_LINK_HOURS = 24;

/** Decisions §3: a link for the outstanding balance (total minus paid). */
export function createPaymentLink(
  deps: PaymentLinkDeps,
  ctx: BookingContext,
  bookingId: string,
): Promise<Result<{ url: string; amount: number; expiresAt: string }>> {
  return deps.uow.transaction(async ({ stores }) => {
    const locked = await stores.bookings.lockWithDepartures(ctx.workspaceId, bookingId);
    if (!locked.ok) return locked;
    const { booking } = locked.value;
    if (booking.status !== 'PENDING' && booking.status !== 'CONFIRMED') {
      return fail(unprocessable(`A ${booking.status} booking takes no payment.`, 'status', 'invalid_state'));
    }
    const now = deps.clock.now();
    // A link would be dead on arrival; the worker is about to release the seats.
    if (booking.status === 'PENDING' && booking.expiresAt && Date.parse(booking.expiresAt) <= now.getTime()) {
      return fail(unprocessable('The hold on this booking has expired.', 'expiresAt', 'hold_expired'));
    }
    const amount = outstandingAmount(booking);
    if (amount <= 0)
      return fail(unprocessable('Nothing is outstanding on this booking.', 'amount', 'nothing_outstanding'));
    const linkExpiry = now.getTime() + PAYMENT_LINK_HOURS * 60 * 60 * 1000;
    // A link never outlives the hold it would pay for.
    const holdEnds =
      booking.status === 'PENDING' && booking.expiresAt ? Date.parse(booking.expiresAt) : Infinity;
    const expiresAt = new Date(Math.min(linkExpiry, holdEnds));
    const purpose: PaymentPurpose = booking.amountPaid > 0 ? 'BALANCE' : 'FULL';
    const { session, url } = await openPaymentSession(
      stores,
      deps.payments,
      booking,
      amount,
      purpose,
      expiresAt,
      // Payable by anyone it is sent to: its pages never lead to the guest page.
      'operator',
    );
    await stores.bookings.update(ctx.workspaceId, booking.id, { paymentIntentId: session.id });
    return ok({ url, amount, expiresAt: expiresAt.toISOString() });
  });
}
