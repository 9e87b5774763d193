import type { Availability } from '../catalog/availability-schemas.js';
import { conflict, type DomainError, notFound, unprocessable } from '../shared/errors.js';
import { newId, randomBase62 } from '../shared/ids.js';
import type {
  Actor,
  BookingFilter,
  BookingPatch,
  BookingRecord,
  Clock,
  PageRequest,
  PaymentPurpose,
  PaymentSession,
  Stores,
} from '../shared/ports.js';
import { fail, ok, type Result } from '../shared/result.js';
import {
  checkSeats,
  decideStatusChange,
  derivePaymentStatus,
  firstPaymentAmount,
  holdExpiry,
  outstandingAmount,
  priceBooking,
  soldOut,
} from './rules.js';
import type {
  BookingCreateInput,
  BookingSort,
  Participant,
  ParticipantInput,
  SetBookingStatusInput,
  UpdateBookingInput,
} from './schemas.js';
import { type BookingLinks, toBookingView } from './view.js';

/** Where a guest pays: the provider's hosted page for a session (the sandbox serves its own). */
export interface PaymentProvider {
  checkoutUrl(session: PaymentSession): string;
  /** Returns money to the payer; the sandbox always succeeds. */
  refund(request: {
    bookingId: string;
    amount: number;
    currency: string;
  }): Promise<Result<{ reference: string }>>;
}

export interface BookingDeps {
  stores: Stores;
  clock: Clock;
  payments: PaymentProvider;
}

export interface BookingContext {
  workspaceId: string;
  actor: Actor;
}

const DAY = 24 * 60 * 60 * 1000;
const PAYMENT_LINK_HOURS = 24;

const newPublicToken = () => randomBase62(32);

function toParticipants(inputs: readonly ParticipantInput[]): Participant[] {
  return inputs.map((input) => ({
    id: newId('participant'),
    name: input.name,
    ageBand: input.ageBand ?? null,
    dietaryNotes: input.dietaryNotes ?? null,
    accessibilityNotes: input.accessibilityNotes ?? null,
    emergencyContact: input.emergencyContact ?? null,
    waiverSigned: false,
    checkedInAt: null,
  }));
}

async function emit(stores: Stores, clock: Clock, type: string, booking: BookingRecord, data?: unknown) {
  await stores.outbox.append(
    {
      id: newId('event'),
      type,
      createdAt: clock.now().toISOString(),
      workspaceId: booking.workspaceId,
      data: data ?? toBookingView(booking),
    },
    booking.id,
  );
}

async function recordStatus(
  stores: Stores,
  booking: BookingRecord,
  from: BookingRecord['status'] | null,
  actor: Actor,
  reason: string | null,
) {
  await stores.bookingHistory.append({
    id: newId('history'),
    workspaceId: booking.workspaceId,
    bookingId: booking.id,
    fromStatus: from,
    toStatus: booking.status,
    reason,
    actor,
  });
}

/**
 * Locks what a seat-affecting change needs, always in the same order (departures by id,
 * then the booking), so concurrent writes serialise and never deadlock.
 */
async function lockBooking(
  stores: Stores,
  workspaceId: string,
  bookingId: string,
  alsoDeparture?: string,
): Promise<Result<{ booking: BookingRecord; departures: Map<string, Availability> }>> {
  const moved = conflict('The booking is changing concurrently; retry.');
  for (let attempt = 0; attempt < 3; attempt++) {
    const seen = await stores.bookings.findById(workspaceId, bookingId);
    if (!seen) return fail(notFound('booking'));
    const ids = [...new Set([seen.availabilityId, ...(alsoDeparture ? [alsoDeparture] : [])])].sort();
    // A savepoint: rolling it back releases these locks, so a retry takes its own in id order again
    // (locking the new departure while still holding the old one could deadlock).
    const locked = await stores.transaction(async (attemptStores) => {
      const departures = new Map<string, Availability>();
      for (const id of ids) {
        const departure = await attemptStores.availability.lock(workspaceId, id);
        if (departure) departures.set(id, departure);
      }
      const booking = await attemptStores.bookings.lock(workspaceId, bookingId);
      if (!booking) return fail(notFound('booking'));
      // A concurrent move changed the departure between the read and the lock: lock again.
      return booking.availabilityId === seen.availabilityId ? ok({ booking, departures }) : fail(moved);
    });
    if (locked.ok || locked.error !== moved) return locked;
  }
  return fail(moved);
}

/** Cancels a locked booking whose departure is locked: seats back, history, event. */
async function cancelLocked(
  deps: Pick<BookingDeps, 'clock'>,
  stores: Stores,
  booking: BookingRecord,
  options: { actor: Actor; reason: string | null; event: 'booking.cancelled' | 'booking.expired' },
): Promise<Result<BookingRecord>> {
  const released = await stores.availability.adjustBookedSeats(
    booking.workspaceId,
    booking.availabilityId,
    -booking.participantCount,
  );
  if (!released.ok) return released;
  const now = deps.clock.now();
  const cancelled = await stores.bookings.update(booking.workspaceId, booking.id, {
    status: 'CANCELLED',
    cancelledAt: now.toISOString(),
    cancellationReason: options.reason,
    expiresAt: null,
  });
  await stores.payments.expireOpenSessions(booking.id);
  await recordStatus(stores, cancelled, booking.status, options.actor, options.reason);
  await stores.customers.refreshStats(booking.workspaceId, booking.customerId);
  await emit(stores, deps.clock, options.event, cancelled);
  return ok(cancelled);
}

const SYSTEM: Actor = { type: 'system', id: null };

/** Releases the departure's expired holds (caller holds the departure lock); returns how many. */
async function releaseExpiredHolds(
  deps: Pick<BookingDeps, 'clock'>,
  stores: Stores,
  workspaceId: string,
  availabilityId: string,
) {
  const holds = await stores.bookings.findExpiredHolds(deps.clock.now(), {
    workspaceId,
    availabilityId,
    limit: 1000,
  });
  let released = 0;
  for (const hold of holds) {
    const locked = await stores.bookings.lock(workspaceId, hold.id);
    if (locked?.status !== 'PENDING') continue;
    const cancelled = await cancelLocked(deps, stores, locked, {
      actor: SYSTEM,
      reason: 'EXPIRED',
      event: 'booking.expired',
    });
    if (cancelled.ok) released++;
  }
  return released;
}

async function openPaymentSession(
  deps: BookingDeps,
  stores: Stores,
  booking: BookingRecord,
  amount: number,
  purpose: PaymentPurpose,
  expiresAt: Date,
) {
  await stores.payments.expireOpenSessions(booking.id);
  const session = await stores.payments.insertSession({
    id: newId('paymentSession'),
    token: randomBase62(32),
    workspaceId: booking.workspaceId,
    bookingId: booking.id,
    amount,
    currency: booking.currency,
    purpose,
    status: 'OPEN',
    expiresAt,
  });
  return { session, url: deps.payments.checkoutUrl(session) };
}

/** The blackouts that may close the departure's day (its UTC date), for the bookable rule. */
function blackoutsOfDay(stores: Stores, workspaceId: string, departure: Availability) {
  const day = departure.startsAt.slice(0, 10);
  return stores.blackoutDates.listApplying(workspaceId, departure.tourId, { from: day, to: day });
}

export interface CreateBookingOptions {
  /** Guests book only published tours and pay online (CHECKOUT or DEPOSIT). */
  channel: 'api' | 'public';
}

/** Decisions §2-§3: reserve seats atomically, price, hold, open the payment, emit `booking.created`. */
export function createBooking(
  deps: BookingDeps,
  ctx: BookingContext,
  input: BookingCreateInput,
  options: CreateBookingOptions = { channel: 'api' },
): Promise<Result<{ booking: BookingRecord; links: BookingLinks }>> {
  const mode = input.paymentMode ?? 'CHECKOUT';
  if (options.channel === 'public' && mode !== 'CHECKOUT' && mode !== 'DEPOSIT') {
    return Promise.resolve(
      fail(unprocessable('Guests pay online: use CHECKOUT or DEPOSIT.', 'paymentMode', 'not_allowed')),
    );
  }
  return deps.stores.transaction(async (stores) => {
    const now = deps.clock.now();
    let departure = await stores.availability.lock(ctx.workspaceId, input.availabilityId);
    const tour = departure ? await stores.tours.findById(ctx.workspaceId, departure.tourId) : null;
    if (!departure || !tour || (options.channel === 'public' && !tour.isPublic)) {
      return fail(unprocessable('No such departure.', 'availabilityId', 'not_found'));
    }
    const count = input.participants.length;
    const price = priceBooking(tour, count, input.addOns ?? []);
    if (!price.ok) return price;
    const blackouts = await blackoutsOfDay(stores, ctx.workspaceId, departure);
    let seats = checkSeats(departure, count, now, blackouts);
    // Stale holds never cause a 409: release this departure's expired ones first.
    if (
      !seats.ok &&
      seats.error.code === 'CONFLICT' &&
      (await releaseExpiredHolds(deps, stores, ctx.workspaceId, departure.id))
    ) {
      departure = (await stores.availability.lock(ctx.workspaceId, departure.id)) as Availability;
      seats = checkSeats(departure, count, now, blackouts);
    }
    if (!seats.ok) return seats;
    const reserved = await stores.availability.adjustBookedSeats(ctx.workspaceId, departure.id, count);
    if (!reserved.ok) return fail(soldOut(departure));

    const customer = await stores.customers.findOrCreateByEmail(ctx.workspaceId, {
      id: newId('customer'),
      name: input.customer.name,
      email: input.customer.email,
      phone: input.customer.phone ?? null,
      tags: [],
      marketingConsent: false,
    });
    const total = price.value.total;
    const settled = total === 0;
    let booking = await stores.bookings.insert({
      id: newId('booking'),
      workspaceId: ctx.workspaceId,
      status: settled && mode !== 'MANUAL' ? 'CONFIRMED' : 'PENDING',
      paymentStatus: derivePaymentStatus(total, 0, 0),
      paymentMode: mode,
      totalAmount: total,
      currency: tour.currency,
      availabilityId: departure.id,
      tourId: tour.id,
      startsAt: departure.startsAt,
      customerId: customer.id,
      participantCount: count,
      participants: toParticipants(input.participants),
      addOns: price.value.addOns,
      amountPaid: 0,
      amountRefunded: 0,
      paymentIntentId: null,
      publicToken: newPublicToken(),
      notes: input.notes ?? null,
      expiresAt: settled ? null : (holdExpiry(mode, now)?.toISOString() ?? null),
      confirmedAt: settled && mode !== 'MANUAL' ? now.toISOString() : null,
      cancelledAt: null,
      cancellationReason: null,
    });
    await recordStatus(stores, booking, null, ctx.actor, null);

    const links: BookingLinks = {};
    if (mode !== 'MANUAL' && !settled && booking.expiresAt) {
      const amount = firstPaymentAmount(mode, total, tour.depositPercent);
      const purpose: PaymentPurpose = mode === 'DEPOSIT' ? 'DEPOSIT' : 'FULL';
      const { session, url } = await openPaymentSession(
        deps,
        stores,
        booking,
        amount,
        purpose,
        new Date(booking.expiresAt),
      );
      booking = await stores.bookings.update(ctx.workspaceId, booking.id, { paymentIntentId: session.id });
      if (mode === 'PAYMENT_LINK') links.paymentLinkUrl = url;
      else links.checkoutUrl = url;
    }
    await stores.customers.refreshStats(ctx.workspaceId, customer.id);
    await emit(stores, deps.clock, 'booking.created', booking);
    if (booking.status === 'CONFIRMED') await emit(stores, deps.clock, 'booking.confirmed', booking);
    return ok({ booking, links });
  });
}

export async function getBooking(deps: BookingDeps, workspaceId: string, bookingId: string) {
  const booking = await deps.stores.bookings.findById(workspaceId, bookingId);
  return booking ? ok(booking) : fail(notFound('booking'));
}

export function listBookings(
  deps: BookingDeps,
  workspaceId: string,
  filter: BookingFilter,
  sort: BookingSort,
  page: PageRequest,
) {
  return deps.stores.bookings.list(workspaceId, filter, sort, page);
}

export async function listBookingHistory(
  deps: BookingDeps,
  workspaceId: string,
  bookingId: string,
  page: PageRequest,
) {
  const booking = await deps.stores.bookings.findById(workspaceId, bookingId);
  if (!booking) return fail(notFound('booking'));
  return ok(await deps.stores.bookingHistory.list(workspaceId, bookingId, page));
}

/** Decisions §2: moves the booking along its state machine; cancelling releases seats. */
export function setBookingStatus(
  deps: BookingDeps,
  ctx: BookingContext,
  bookingId: string,
  input: SetBookingStatusInput,
): Promise<Result<BookingRecord>> {
  return deps.stores.transaction(async (stores) => {
    const locked = await lockBooking(stores, ctx.workspaceId, bookingId);
    if (!locked.ok) return locked;
    const { booking } = locked.value;
    const change = decideStatusChange(booking.status, input.status, booking.startsAt, deps.clock.now());
    if (!change.ok) return change;
    const reason = input.reason ?? null;
    let updated: BookingRecord;
    if (change.value.releasesSeats) {
      const cancelled = await cancelLocked(deps, stores, booking, {
        actor: ctx.actor,
        reason,
        event: 'booking.cancelled',
      });
      if (!cancelled.ok) return cancelled;
      updated = cancelled.value;
    } else {
      const patch: BookingPatch = { status: change.value.to };
      if (change.value.to === 'CONFIRMED') {
        patch.confirmedAt = deps.clock.now().toISOString();
        patch.expiresAt = null;
      }
      updated = await stores.bookings.update(ctx.workspaceId, booking.id, patch);
      await recordStatus(stores, updated, booking.status, ctx.actor, reason);
      await emit(stores, deps.clock, change.value.event, updated);
    }
    if (input.notifyCustomer) {
      await emit(stores, deps.clock, 'notification.email_requested', updated, {
        template: 'booking_status_changed',
        bookingId: updated.id,
        customerId: updated.customerId,
        status: updated.status,
        reason,
      });
    }
    return ok(updated);
  });
}

/** Decisions §4: PATCH moves seats atomically; only PENDING or CONFIRMED bookings change. */
export function updateBooking(
  deps: BookingDeps,
  ctx: BookingContext,
  bookingId: string,
  input: UpdateBookingInput,
  ifMatchVersion?: number,
): Promise<Result<BookingRecord>> {
  return deps.stores.transaction(async (stores) => {
    const locked = await lockBooking(stores, ctx.workspaceId, bookingId, input.availabilityId);
    if (!locked.ok) return locked;
    const { booking, departures } = locked.value;
    if (ifMatchVersion !== undefined && ifMatchVersion !== booking.version) {
      return fail(conflict('The booking changed since you read it (If-Match).', 'If-Match', 'stale'));
    }
    if (booking.status !== 'PENDING' && booking.status !== 'CONFIRMED') {
      return fail(unprocessable(`A ${booking.status} booking cannot change.`, 'status', 'invalid_state'));
    }
    const now = deps.clock.now();
    const targetId = input.availabilityId ?? booking.availabilityId;
    const target = departures.get(targetId);
    const current = departures.get(booking.availabilityId);
    if (!target || !current) return fail(unprocessable('No such departure.', 'availabilityId', 'not_found'));
    if (target.tourId !== booking.tourId) {
      return fail(
        unprocessable(
          'Move the booking to a departure of the same tour.',
          'availabilityId',
          'different_tour',
        ),
      );
    }
    const count = input.participants?.length ?? booking.participantCount;
    const moving = target.id !== current.id;
    if (moving || count > booking.participantCount) {
      // Seats this booking already holds on the target count as available to it.
      const own = moving ? 0 : booking.participantCount;
      const blackouts = await blackoutsOfDay(stores, ctx.workspaceId, target);
      const seats = checkSeats(
        { ...target, seatsRemaining: target.seatsRemaining + own },
        count,
        now,
        blackouts,
      );
      if (!seats.ok) return seats;
    }
    if (moving) {
      const released = await stores.availability.adjustBookedSeats(
        ctx.workspaceId,
        current.id,
        -booking.participantCount,
      );
      if (!released.ok) return released;
    }
    const delta = moving ? count : count - booking.participantCount;
    if (delta !== 0) {
      const reserved = await stores.availability.adjustBookedSeats(ctx.workspaceId, target.id, delta);
      if (!reserved.ok) return fail(soldOut(target));
    }
    const patch: BookingPatch = {};
    if (moving) {
      patch.availabilityId = target.id;
      patch.startsAt = target.startsAt;
    }
    if (input.participants) {
      patch.participants = toParticipants(input.participants);
      patch.participantCount = count;
    }
    if (input.notes !== undefined) patch.notes = input.notes;
    let total = booking.totalAmount;
    if (input.totalAmount !== undefined) total = input.totalAmount;
    else if (input.participants) {
      const tour = await stores.tours.findById(ctx.workspaceId, booking.tourId);
      const repriced = tour ? priceBooking(tour, count, booking.addOns) : null;
      if (repriced?.ok) total = repriced.value.total;
    }
    if (total !== booking.totalAmount) {
      patch.totalAmount = total;
      patch.paymentStatus = derivePaymentStatus(total, booking.amountPaid, booking.amountRefunded);
      // Open pages show the old amount: they close, and a new link or retry asks for the new one.
      await stores.payments.expireOpenSessions(booking.id);
    }
    const updated = await stores.bookings.update(ctx.workspaceId, booking.id, patch);
    await emit(stores, deps.clock, 'booking.updated', updated);
    return ok(updated);
  });
}

/** Decisions §3: a link for the outstanding balance (total minus paid). */
export function createPaymentLink(
  deps: BookingDeps,
  ctx: BookingContext,
  bookingId: string,
): Promise<Result<{ url: string; amount: number; expiresAt: string }>> {
  return deps.stores.transaction(async (stores) => {
    const locked = await lockBooking(stores, ctx.workspaceId, bookingId);
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
    const { session, url } = await openPaymentSession(deps, stores, booking, amount, purpose, expiresAt);
    await stores.bookings.update(ctx.workspaceId, booking.id, { paymentIntentId: session.id });
    return ok({ url, amount, expiresAt: expiresAt.toISOString() });
  });
}

/** Completes (or fails) a sandbox payment session: money recorded, booking confirmed, events. */
export async function completePayment(
  deps: BookingDeps,
  token: string,
  outcome: 'succeeded' | 'failed',
): Promise<Result<{ session: PaymentSession; booking: BookingRecord }>> {
  const found = await deps.stores.payments.findSessionByToken(token);
  if (!found) return fail(notFound('payment session'));
  return deps.stores.transaction(async (stores) => {
    const locked = await lockBooking(stores, found.workspaceId, found.bookingId);
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
      await emit(stores, deps.clock, 'payment.failed', booking, {
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
    const payment = await stores.payments.insertPayment({
      id: newId('payment'),
      workspaceId: booking.workspaceId,
      bookingId: booking.id,
      sessionId: session.id,
      kind: 'PAYMENT',
      amount,
      currency: booking.currency,
      reason: null,
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
    const completed = await stores.payments.updateSession(session.id, {
      status: 'SUCCEEDED',
      completedAt: now,
    });
    await stores.customers.refreshStats(booking.workspaceId, booking.customerId);
    await emit(stores, deps.clock, 'payment.succeeded', updated, {
      paymentId: payment.id,
      bookingId: booking.id,
      amount: payment.amount,
      currency: payment.currency,
      purpose: session.purpose,
    });
    if (confirms) {
      await recordStatus(stores, updated, booking.status, { type: 'system', id: null }, 'PAYMENT_SUCCEEDED');
      await emit(stores, deps.clock, 'booking.confirmed', updated);
    }
    return ok({ session: completed, booking: updated });
  });
}

/** Refunds (additive): part or all of what was paid; paymentStatus follows. */
export function refundBooking(
  deps: BookingDeps,
  ctx: BookingContext,
  bookingId: string,
  input: { amount?: number; reason?: string },
): Promise<Result<BookingRecord>> {
  return deps.stores.transaction(async (stores) => {
    const locked = await lockBooking(stores, ctx.workspaceId, bookingId);
    if (!locked.ok) return locked;
    const { booking } = locked.value;
    const refundable = booking.amountPaid - booking.amountRefunded;
    if (refundable <= 0)
      return fail(unprocessable('Nothing paid is left to refund.', 'amount', 'nothing_to_refund'));
    const amount = input.amount ?? refundable;
    if (amount > refundable) {
      return fail(unprocessable(`At most ${refundable} can be refunded.`, 'amount', 'exceeds_refundable'));
    }
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
      reason: input.reason ?? null,
    });
    const total = booking.amountRefunded + amount;
    const updated = await stores.bookings.update(ctx.workspaceId, booking.id, {
      amountRefunded: total,
      paymentStatus: derivePaymentStatus(booking.totalAmount, booking.amountPaid, total),
    });
    await stores.customers.refreshStats(ctx.workspaceId, booking.customerId);
    await emit(stores, deps.clock, 'payment.refunded', updated, {
      paymentId: payment.id,
      bookingId: booking.id,
      amount,
      currency: booking.currency,
      reason: payment.reason,
    });
    return ok(updated);
  });
}

/** Decisions §4: check-in of some or all participants of a CONFIRMED booking. */
export function checkInBooking(
  deps: BookingDeps,
  ctx: BookingContext,
  bookingId: string,
  participantIds: readonly string[] | undefined,
): Promise<Result<BookingRecord>> {
  return deps.stores.transaction(async (stores) => {
    const booking = await stores.bookings.lock(ctx.workspaceId, bookingId);
    if (!booking) return fail(notFound('booking'));
    if (booking.status !== 'CONFIRMED') {
      return fail(unprocessable('Only a CONFIRMED booking can check in.', 'status', 'invalid_state'));
    }
    const known = new Set(booking.participants.map((p) => p.id));
    const unknown = (participantIds ?? []).findIndex((id) => !known.has(id));
    if (unknown >= 0) {
      return fail(
        unprocessable(
          'No such participant on this booking.',
          `participantIds[${unknown}]`,
          'unknown_participant',
        ),
      );
    }
    const wanted = new Set(participantIds ?? known);
    const at = deps.clock.now().toISOString();
    const participants = booking.participants.map((p) =>
      wanted.has(p.id) && !p.checkedInAt ? { ...p, checkedInAt: at } : p,
    );
    return ok(await stores.bookings.update(ctx.workspaceId, booking.id, { participants }));
  });
}

/** Decisions §4: a new guest token; the old one stops working at once. */
export async function rotatePublicToken(deps: BookingDeps, ctx: BookingContext, bookingId: string) {
  const booking = await deps.stores.bookings.findById(ctx.workspaceId, bookingId);
  if (!booking) return fail(notFound('booking'));
  return ok(await deps.stores.bookings.update(ctx.workspaceId, bookingId, { publicToken: newPublicToken() }));
}

/** Guests: one booking by its unguessable token; unknown tokens are 404 like any other. */
export async function getPublicBooking(deps: BookingDeps, publicToken: string) {
  const booking = await deps.stores.bookings.findByPublicToken(publicToken);
  return booking ? ok(booking) : fail<DomainError>(notFound('booking'));
}

export function signWaiver(
  deps: BookingDeps,
  publicToken: string,
  input: { participantId: string; signedName: string },
): Promise<Result<BookingRecord>> {
  return deps.stores.transaction(async (stores) => {
    const found = await stores.bookings.findByPublicToken(publicToken);
    const booking = found ? await stores.bookings.lock(found.workspaceId, found.id) : null;
    if (!booking || booking.publicToken !== publicToken) return fail(notFound('booking'));
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
  deps: BookingDeps,
  publicToken: string,
): Promise<Result<{ booking: BookingRecord; links: BookingLinks }>> {
  return deps.stores.transaction(async (stores) => {
    const found = await stores.bookings.findByPublicToken(publicToken);
    if (!found) return fail(notFound('booking'));
    const locked = await lockBooking(stores, found.workspaceId, found.id);
    if (!locked.ok) return locked;
    const { booking } = locked.value;
    const now = deps.clock.now();
    const expired = booking.expiresAt !== null && Date.parse(booking.expiresAt) <= now.getTime();
    if (booking.status !== 'PENDING' || expired || booking.publicToken !== publicToken) {
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
    const { session, url } = await openPaymentSession(deps, stores, booking, amount, purpose, expiresAt);
    const updated = await stores.bookings.update(booking.workspaceId, booking.id, {
      paymentIntentId: session.id,
    });
    return ok({ booking: updated, links: { checkoutUrl: url } });
  });
}

/** The worker's job: cancels PENDING bookings whose hold has passed (reason EXPIRED). */
export async function expireHolds(deps: Pick<BookingDeps, 'stores' | 'clock'>, limit = 100): Promise<number> {
  const holds = await deps.stores.bookings.findExpiredHolds(deps.clock.now(), { limit });
  let expired = 0;
  for (const hold of holds) {
    const result = await deps.stores.transaction(async (stores) => {
      const locked = await lockBooking(stores, hold.workspaceId, hold.id);
      if (!locked.ok) return locked;
      const { booking } = locked.value;
      const now = deps.clock.now().getTime();
      // Paid, cancelled or extended meanwhile: nothing to do.
      if (booking.status !== 'PENDING' || !booking.expiresAt || Date.parse(booking.expiresAt) > now)
        return ok(false);
      const cancelled = await cancelLocked(deps, stores, booking, {
        actor: SYSTEM,
        reason: 'EXPIRED',
        event: 'booking.expired',
      });
      return cancelled.ok ? ok(true) : cancelled;
    });
    if (result.ok && result.value) expired++;
  }
  return expired;
}
