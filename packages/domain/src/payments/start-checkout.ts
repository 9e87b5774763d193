import type { BookingStores } from '../bookings/index.js';
import { localDateOf } from '../catalog/index.js';
import { notFound, unprocessable } from '../shared/errors.js';
import type { Clock, UnitOfWork } from '../shared/ports.js';
import { fail, ok, type Result } from '../shared/result.js';
import type { PaymentProvider } from './checkout.js';
import type { PaymentPurpose } from './ports.js';

export interface StartCheckoutDeps {
  /** On the pool: the provider may be called over the network, so no transaction is open. */
  uow: UnitOfWork<Pick<BookingStores, 'payments' | 'bookings' | 'tours' | 'customers'>>;
  clock: Clock;
  payments: PaymentProvider;
}

const PURPOSE_LABELS: Record<PaymentPurpose, string> = {
  FULL: '',
  DEPOSIT: ' (deposit)',
  BALANCE: ' (balance)',
};

/** The line the payer sees on the provider's page: the tour, its local day, and what is paid. */
export function checkoutDescription(
  tour: { name: string; timeZone: string } | null,
  startsAt: string,
  purpose: PaymentPurpose,
): string {
  const day = tour ? localDateOf(new Date(startsAt), tour.timeZone) : startsAt.slice(0, 10);
  return `${tour?.name ?? 'Booking'}, ${day}${PURPOSE_LABELS[purpose]}`;
}

/**
 * `GET /pay/{token}`: sends the payer to the provider's checkout for an open payment session.
 * The provider's checkout is opened once and reused while it stays open (the session keeps
 * its reference), and only the one kept can pay the session. Two first visits at once may
 * each open one: the first recorded is kept, and the other visit is sent to it instead (the
 * one it opened is never shown and expires unpaid).
 */
export async function startCheckout(
  deps: StartCheckoutDeps,
  token: string,
  urls: { returnUrl: string; cancelUrl: string },
): Promise<Result<{ redirectUrl: string }>> {
  const { payments, bookings, tours, customers } = deps.uow.stores;
  const session = await payments.findSessionByToken(token);
  if (!session) return fail(notFound('payment page'));
  if (session.status !== 'OPEN') {
    return fail(unprocessable('This payment page is no longer open.', 'token', 'session_closed'));
  }
  if (session.expiresAt.getTime() <= deps.clock.now().getTime()) {
    return fail(unprocessable('This payment page has expired.', 'token', 'session_expired'));
  }
  const booking = await bookings.findById(session.workspaceId, session.bookingId);
  if (booking?.status !== 'PENDING' && booking?.status !== 'CONFIRMED') {
    return fail(unprocessable('The booking takes no payment.', 'status', 'invalid_state'));
  }
  const tour = await tours.findById(booking.workspaceId, booking.tourId);
  const customer = await customers.findById(booking.workspaceId, booking.customerId);
  let current = session;
  // Twice at most: a visit that lost the race resumes the winner's checkout, which then stays.
  for (let attempt = 0; attempt < 2; attempt++) {
    const started = await deps.payments.startCheckout({
      session: current,
      description: checkoutDescription(tour, booking.startsAt, session.purpose),
      customerEmail: customer?.email ?? null,
      ...urls,
    });
    if (!started.ok) return started;
    const { reference, redirectUrl } = started.value;
    if (reference === null || reference === current.providerReference) return ok({ redirectUrl });
    if (await payments.setSessionReference(current.id, reference, current.providerReference)) {
      return ok({ redirectUrl });
    }
    // Another visit recorded its checkout first: that one is the session's, so go there instead.
    const recorded = await payments.findSessionById(current.id);
    if (!recorded) return fail(notFound('payment page'));
    current = recorded;
  }
  return fail({ code: 'INTERNAL_ERROR', message: 'The checkout changed while it was opened; try again.' });
}

/** The state a payer returning from the provider sees: their session and its booking. */
export async function findCheckoutReturn(
  deps: { uow: UnitOfWork<Pick<BookingStores, 'payments' | 'bookings'>> },
  token: string,
) {
  const session = await deps.uow.stores.payments.findSessionByToken(token);
  if (!session) return null;
  const booking = await deps.uow.stores.bookings.findById(session.workspaceId, session.bookingId);
  return booking && { session, booking };
}
