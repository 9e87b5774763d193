import type { BookingRecord } from '../bookings/index.js';
import { type CancelStores, cancelLocked, emitBookingEvent, SYSTEM } from '../bookings/index.js';
import type { Clock, UnitOfWork } from '../shared/ports.js';
import { ok, type Result } from '../shared/result.js';
import type { PaymentProvider } from './checkout.js';
import type { PaymentSession, ProviderEventStore } from './ports.js';
import type { PaymentEvent, PaymentEventReport } from './provider-events.js';
import { recordPaymentLocked } from './record-payment.js';
import { recordRefundLocked, refundBooking } from './refund-booking.js';
import { holdWaitsOn, moneyToReturn, recordedRefundIds } from './rules.js';

type PaymentEventStores = CancelStores & { providerEvents: ProviderEventStore };

export interface HandlePaymentEventDeps {
  /** On the pool: the event is handled in a transaction of its own. */
  uow: UnitOfWork<PaymentEventStores>;
  clock: Clock;
  /** Returns money a booking cannot keep. */
  payments: PaymentProvider;
}

type Stores = PaymentEventStores;
type Of<K extends PaymentEvent['kind']> = Extract<PaymentEvent, { kind: K }>;

/** A decision taken in the transaction, and money to return once it has committed. */
interface Handled {
  report: PaymentEventReport;
  toReturn?: { workspaceId: string; bookingId: string; amount: number; reason: string };
}

const REFUNDED_AT_PROVIDER = 'REFUNDED_AT_PROVIDER';

/**
 * A provider's webhook event, handled once (its id is claimed in the same transaction as its
 * effects) and in any order: each kind checks what is already recorded before it writes.
 * Unknown sessions, mismatched amounts, replays and stale checkouts change nothing and come
 * back as outcomes for the adapter to log. Money a booking cannot keep (paid after its hold
 * was released, or twice) goes back through the provider after the commit.
 */
export async function handlePaymentEvent(
  deps: HandlePaymentEventDeps,
  event: PaymentEvent,
): Promise<Result<PaymentEventReport>> {
  const handled = await deps.uow.transaction(async ({ stores }): Promise<Result<Handled>> => {
    if (!(await stores.providerEvents.claim(event.provider, event.eventId, event.type))) {
      return ok({ report: { outcome: 'duplicate_event' } });
    }
    switch (event.kind) {
      case 'ignored':
        return ok({ report: { outcome: 'ignored', detail: event.reason } });
      case 'checkout_completed':
        return completeCheckout(stores, deps.clock, event);
      case 'checkout_expired':
        return expireCheckout(stores, deps.clock, event);
      case 'payment_refunded':
        return recordProviderRefunds(stores, deps.clock, event);
      case 'payment_failed':
        return reportFailedAttempt(stores, deps.clock, event);
    }
  });
  if (!handled.ok) return handled;
  const { report, toReturn } = handled.value;
  if (!toReturn) return ok(report);
  // After the commit: a refund is a network call, never made while the departure is locked.
  const back = await refundBooking(
    deps,
    { workspaceId: toReturn.workspaceId, actor: SYSTEM },
    toReturn.bookingId,
    { amount: toReturn.amount, reason: toReturn.reason },
  );
  return ok({
    ...report,
    returned: back.ok
      ? { amount: toReturn.amount, ok: true }
      : { amount: toReturn.amount, ok: false, detail: back.error.message },
  });
}

/** The session named by the event with its booking (departure first) and itself locked. */
async function lockSessionAndBooking(
  stores: Stores,
  sessionId: string,
): Promise<Result<{ session: PaymentSession; booking: BookingRecord } | null>> {
  const found = await stores.payments.findSessionById(sessionId);
  if (!found) return ok(null);
  const locked = await stores.bookings.lockWithDepartures(found.workspaceId, found.bookingId);
  if (!locked.ok) return locked;
  const session = await stores.payments.lockSession(found.id);
  return ok(session && { session, booking: locked.value.booking });
}

const unknownSession = (sessionId: string): Result<Handled> =>
  ok({ report: { outcome: 'unknown_session', sessionId } });

async function completeCheckout(
  stores: Stores,
  clock: Clock,
  event: Of<'checkout_completed'>,
): Promise<Result<Handled>> {
  const locked = await lockSessionAndBooking(stores, event.sessionId);
  if (!locked.ok) return locked;
  if (!locked.value) return unknownSession(event.sessionId);
  const { session, booking } = locked.value;
  // Only the checkout this service opened for the session (the one it keeps) pays it.
  if (session.providerReference !== event.checkoutReference) {
    const detail = `expected ${session.providerReference ?? 'no checkout'}, received ${event.checkoutReference}`;
    return ok({
      report: { outcome: 'checkout_mismatch', bookingId: booking.id, sessionId: session.id, detail },
    });
  }
  return ok(
    (
      await recordProviderPayment(stores, clock, booking, session, {
        reference: event.paymentReference,
        amount: event.amount,
        currency: event.currency,
      })
    ).handled,
  );
}

/**
 * Money the provider took through a session, recorded once per provider payment, and only
 * for the exact amount and currency the session asked for.
 */
async function recordProviderPayment(
  stores: Stores,
  clock: Clock,
  booking: BookingRecord,
  session: PaymentSession,
  paid: { reference: string | null; amount: number; currency: string },
): Promise<{ handled: Handled; booking: BookingRecord }> {
  const ids = { bookingId: booking.id, sessionId: session.id };
  const recorded = (await stores.payments.listPayments(booking.workspaceId, booking.id)).filter(
    (payment) => payment.kind === 'PAYMENT',
  );
  const sessionPaidBefore = recorded.some((payment) => payment.sessionId === session.id);
  const known =
    paid.reference === null
      ? sessionPaidBefore
      : recorded.some((payment) => payment.providerReference === paid.reference);
  if (known) return { handled: { report: { outcome: 'payment_known', ...ids } }, booking };
  if (paid.amount !== session.amount || paid.currency !== session.currency) {
    const detail = `expected ${session.amount} ${session.currency}, received ${paid.amount} ${paid.currency}`;
    return { handled: { report: { outcome: 'amount_mismatch', ...ids, detail } }, booking };
  }
  const { booking: updated } = await recordPaymentLocked(stores, clock, booking, session, {
    amount: paid.amount,
    providerReference: paid.reference,
    sessionPaidBefore,
  });
  const back = moneyToReturn(updated, paid.amount);
  const handled: Handled = { report: { outcome: 'payment_recorded', ...ids } };
  if (back > 0) {
    handled.toReturn = {
      workspaceId: booking.workspaceId,
      bookingId: booking.id,
      amount: back,
      reason: updated.status === 'CANCELLED' ? 'PAID_AFTER_CANCELLATION' : 'PAID_TWICE',
    };
  }
  return { handled, booking: updated };
}

/**
 * The checkout closed unpaid: once our page has expired too, the session is EXPIRED and a hold
 * that waited on it alone is released at once (not at the hold-expiry job's next run).
 */
async function expireCheckout(
  stores: Stores,
  clock: Clock,
  event: Of<'checkout_expired'>,
): Promise<Result<Handled>> {
  const locked = await lockSessionAndBooking(stores, event.sessionId);
  if (!locked.ok) return locked;
  if (!locked.value) return unknownSession(event.sessionId);
  const { session, booking } = locked.value;
  const ids = { bookingId: booking.id, sessionId: session.id };
  // A checkout replaced by a fresh one, or one whose payment arrived first, decides nothing.
  if (session.providerReference !== event.checkoutReference || session.status === 'SUCCEEDED') {
    return ok({ report: { outcome: 'checkout_stale', ...ids } });
  }
  // The provider's checkout ended before our page (its hold was extended since): the page stays
  // open, and its next visit opens a fresh checkout. Our expiry, not the provider's, ends a hold.
  if (session.status === 'OPEN' && session.expiresAt.getTime() > clock.now().getTime()) {
    const detail = `the payment page stays open until ${session.expiresAt.toISOString()}`;
    return ok({ report: { outcome: 'checkout_expired', ...ids, detail } });
  }
  if (session.status === 'OPEN') await stores.payments.updateSession(session.id, { status: 'EXPIRED' });
  if (!holdWaitsOn(booking, session)) return ok({ report: { outcome: 'checkout_expired', ...ids } });
  const released = await cancelLocked(stores, clock, booking, {
    actor: SYSTEM,
    reason: 'EXPIRED',
    event: 'booking.expired',
  });
  return released.ok ? ok({ report: { outcome: 'hold_released', ...ids } }) : released;
}

/**
 * Refunds of a provider payment, each recorded once by its refund id: those this service
 * made are known already; others (made in the provider's dashboard) are recorded now. A
 * refund that arrives before its payment's completion records the payment first.
 */
async function recordProviderRefunds(
  stores: Stores,
  clock: Clock,
  event: Of<'payment_refunded'>,
): Promise<Result<Handled>> {
  const locked = await lockSessionAndBooking(stores, event.sessionId);
  if (!locked.ok) return locked;
  if (!locked.value) return unknownSession(event.sessionId);
  const { session } = locked.value;
  const first = await recordProviderPayment(stores, clock, locked.value.booking, session, {
    reference: event.paymentReference,
    ...event.paid,
  });
  if (first.handled.report.outcome === 'amount_mismatch') return ok({ report: first.handled.report });
  let booking = first.booking;
  const ids = { bookingId: booking.id, sessionId: session.id };
  const known = recordedRefundIds(await stores.payments.listPayments(booking.workspaceId, booking.id));
  const fresh = event.refunds.filter((refund) => !known.has(refund.reference));
  for (const refund of fresh) {
    booking = await recordRefundLocked(stores, clock, booking, {
      amount: refund.amount,
      reason: REFUNDED_AT_PROVIDER,
      providerReference: refund.reference,
    });
  }
  const detail = fresh.map((refund) => refund.reference).join(' ') || undefined;
  return ok({
    report: {
      outcome: fresh.length ? 'refunds_recorded' : 'refunds_known',
      ...ids,
      ...(detail && { detail }),
    },
  });
}

/** An attempt failed at the provider: `payment.failed`; the checkout stays open for another try. */
async function reportFailedAttempt(
  stores: Stores,
  clock: Clock,
  event: Of<'payment_failed'>,
): Promise<Result<Handled>> {
  const found = await stores.payments.findSessionById(event.sessionId);
  // The booking's lock keeps its events in order; no seats move, so its departure is not taken.
  const booking = found && (await stores.bookings.lock(found.workspaceId, found.bookingId));
  if (!found || !booking) return unknownSession(event.sessionId);
  await emitBookingEvent(stores, clock, 'payment.failed', booking, {
    bookingId: booking.id,
    sessionId: found.id,
    amount: event.amount,
    reason: event.reason,
  });
  return ok({ report: { outcome: 'payment_failed', bookingId: booking.id, sessionId: found.id } });
}
