import type {
  BookingLinks,
  BookingRecord,
  BookingStore,
  BookingStores,
  LockedBooking,
} from '../bookings/index.js';
import { firstPaymentAmount, outstandingAmount } from '../bookings/index.js';
import type { PaymentPurpose } from '../payments/index.js';
import { openPaymentSession, type PaymentProvider } from '../payments/index.js';
import { type DomainError, notFound, unprocessable } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import type { Clock, UnitOfWork } from '../shared/ports.js';
import { fail, ok, type Result } from '../shared/result.js';

export interface GuestDeps {
  uow: UnitOfWork<Pick<BookingStores, 'bookings' | 'bookingHistory' | 'tours' | 'payments'>>;
  clock: Clock;
  payments: PaymentProvider;
}

const DAY = 24 * 60 * 60 * 1000;

/** Guests: one booking by its unguessable token; unknown tokens are 404 like any other. */
export async function getPublicBooking(deps: Pick<GuestDeps, 'uow'>, publicToken: string) {
  const booking = await deps.uow.stores.bookings.findByPublicToken(publicToken);
  return booking ? ok(booking) : fail<DomainError>(notFound('booking'));
}

/**
 * The booking a guest's token opens, locked for a change (its departures, then it), inside the
 * caller's transaction. The token is checked again under the lock: rotated while the lock was
 * awaited, the old token opens nothing. Unknown or rotated, the one answer: NOT_FOUND (404).
 */
export async function lockGuestBooking(
  stores: { bookings: BookingStore },
  publicToken: string,
): Promise<Result<LockedBooking>> {
  const found = await stores.bookings.findByPublicToken(publicToken);
  if (!found) return fail(notFound('booking'));
  const locked = await stores.bookings.lockWithDepartures(found.workspaceId, found.id);
  if (!locked.ok) return locked;
  return locked.value.booking.publicToken === publicToken ? locked : fail(notFound('booking'));
}

export function signWaiver(
  deps: Pick<GuestDeps, 'uow'>,
  publicToken: string,
  input: { participantId: string; signedName: string },
): Promise<Result<BookingRecord>> {
  return deps.uow.transaction(async ({ stores }) => {
    const locked = await lockGuestBooking(stores, publicToken);
    if (!locked.ok) return locked;
    const { booking } = locked.value;
    if (booking.status === 'CANCELLED') {
      return fail(unprocessable('The booking is cancelled.', 'status', 'invalid_state'));
    }
    if (!booking.participants.some((p) => p.id === input.participantId)) {
      return fail(
        unprocessable('No such participant on this booking.', 'participantId', 'unknown_participant'),
      );
    }
    const participants = booking.participants.map((p) =>
      p.id === input.participantId ? { ...p, waiverSigned: true } : p,
    );
    const updated = await stores.bookings.update(booking.workspaceId, booking.id, { participants });
    await stores.bookingHistory.append({
      id: newId('history'),
      workspaceId: booking.workspaceId,
      bookingId: booking.id,
      fromStatus: booking.status,
      toStatus: booking.status,
      reason: `WAIVER_SIGNED ${input.participantId} by ${input.signedName}`,
      actor: { type: 'guest', id: null },
    });
    return ok(updated);
  });
}

/** Decisions §4: a fresh checkout for a PENDING, unexpired booking. */
export function retryPublicPayment(
  deps: GuestDeps,
  publicToken: string,
): Promise<Result<{ booking: BookingRecord; links: BookingLinks }>> {
  return deps.uow.transaction(async ({ stores }) => {
    const locked = await lockGuestBooking(stores, publicToken);
    if (!locked.ok) return locked;
    const { booking } = locked.value;
    const now = deps.clock.now();
    const expired = booking.expiresAt !== null && Date.parse(booking.expiresAt) <= now.getTime();
    if (booking.status !== 'PENDING' || expired) {
      return fail(
        unprocessable('Only a pending, unexpired booking can retry its payment.', 'status', 'invalid_state'),
      );
    }
    const tour = await stores.tours.findById(booking.workspaceId, booking.tourId);
    const amount =
      booking.amountPaid === 0 && booking.paymentMode === 'DEPOSIT'
        ? firstPaymentAmount('DEPOSIT', booking.totalAmount, tour?.depositPercent ?? 20)
        : outstandingAmount(booking);
    if (amount <= 0) return fail(unprocessable('Nothing is outstanding.', 'amount', 'nothing_outstanding'));
    const expiresAt = booking.expiresAt ? new Date(booking.expiresAt) : new Date(now.getTime() + DAY);
    const purpose: PaymentPurpose =
      booking.paymentMode === 'DEPOSIT' && booking.amountPaid === 0 ? 'DEPOSIT' : 'FULL';
    const { session, url } = await openPaymentSession(
      stores,
      deps.payments,
      booking,
      amount,
      purpose,
      expiresAt,
      'guest',
    );
    const updated = await stores.bookings.update(booking.workspaceId, booking.id, {
      paymentIntentId: session.id,
    });
    return ok({ booking: updated, links: { checkoutUrl: url } });
  });
}

/** How long a guest's balance checkout stays open (a CHECKOUT's page lasts as long, decisions §3). */
const BALANCE_CHECKOUT_MINUTES = 30;

/**
 * The guest pays what is left of a CONFIRMED booking (a deposit was paid): a fresh checkout for
 * the outstanding balance; earlier open pages close. A PENDING booking retries instead
 * (`retryPublicPayment`); anything else is 422 `invalid_state`, nothing left `nothing_outstanding`.
 */
export function payPublicBalance(
  deps: GuestDeps,
  publicToken: string,
): Promise<Result<{ booking: BookingRecord; links: BookingLinks }>> {
  return deps.uow.transaction(async ({ stores }) => {
    const locked = await lockGuestBooking(stores, publicToken);
    if (!locked.ok) return locked;
    const { booking } = locked.value;
    if (booking.status !== 'CONFIRMED') {
      return fail(unprocessable('Only a confirmed booking has a balance to pay.', 'status', 'invalid_state'));
    }
    const amount = outstandingAmount(booking);
    if (amount <= 0) return fail(unprocessable('Nothing is outstanding.', 'amount', 'nothing_outstanding'));
    const expiresAt = new Date(deps.clock.now().getTime() + BALANCE_CHECKOUT_MINUTES * 60_000);
    const { session, url } = await openPaymentSession(
      stores,
      deps.payments,
      booking,
      amount,
      'BALANCE',
      expiresAt,
      'guest',
    );
    const updated = await stores.bookings.update(booking.workspaceId, booking.id, {
      paymentIntentId: session.id,
    });
    return ok({ booking: updated, links: { checkoutUrl: url } });
  });
}
