import type { Availability } from '../catalog/availability-schemas.js';
import type { Tour } from '../catalog/tour-schemas.js';
import { requestGuestEmail } from '../notifications/request-guest-email.js';
import { openPaymentSession, type PaymentProvider } from '../payments/checkout.js';
import type { PaymentPurpose } from '../payments/ports.js';
import type { PaymentMode } from '../shared/enums.js';
import { rateLimitedError, unprocessable } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import type { Clock, UnitOfWork } from '../shared/ports.js';
import { fail, ok, type Result } from '../shared/result.js';
import {
  blackoutsOfDay,
  emitBookingEvent,
  newPublicToken,
  recordStatus,
  releaseExpiredHolds,
  toParticipants,
} from './booking-writes.js';
import type { Actor, BookingRecord, BookingStores } from './ports.js';
import { priceSeats } from './pricing.js';
import {
  checkSeats,
  derivePaymentStatus,
  firstPaymentAmount,
  holdExpiry,
  priceBooking,
  soldOut,
} from './rules.js';
import type { BookingCreateInput } from './schemas.js';
import type { BookingLinks } from './view.js';

/** Who acts on a booking, and in which workspace. */
export interface BookingContext {
  workspaceId: string;
  actor: Actor;
}

export interface CreateBookingDeps {
  uow: UnitOfWork<BookingStores>;
  clock: Clock;
  payments: PaymentProvider;
}

export interface CreateBookingOptions {
  /**
   * Guests book only published tours and pay online (CHECKOUT or DEPOSIT). Resellers (OCTO)
   * book only published tours too, in MANUAL mode (the reseller pays the operator, so no
   * payment page), and their booking holds its seats for `holdMinutes` until they confirm it.
   */
  channel: 'api' | 'public' | 'reseller';
  /**
   * Guests only: who holds (an opaque key of the client) and how many unpaid holds one client
   * may have on one departure at once (issue: holds that cannot be hoarded).
   */
  holder?: { key: string; maxLiveHolds: number };
  /** Resellers only: how long the reservation holds its seats (required for that channel). */
  holdMinutes?: number;
}

/** The public channel's brakes: seats per booking, and unpaid holds per client and departure. */
async function checkPublicHold(
  stores: Pick<BookingStores, 'bookings'>,
  tour: Tour,
  departureId: string,
  count: number,
  holder: CreateBookingOptions['holder'],
  now: Date,
): Promise<Result<true>> {
  if (count > tour.maxSeatsPerPublicBooking) {
    return fail(
      unprocessable(
        `Book at most ${tour.maxSeatsPerPublicBooking} seats online; contact the operator for a group.`,
        'participants',
        'too_many_for_public_booking',
      ),
    );
  }
  if (!holder) return ok(true);
  const held = await stores.bookings.liveHoldsOf(departureId, holder.key, now);
  if (held.count < holder.maxLiveHolds) return ok(true);
  const wait = held.earliestExpiry ? (held.earliestExpiry.getTime() - now.getTime()) / 1000 : 60;
  return fail(
    rateLimitedError(
      `This device already holds ${held.count} unpaid bookings on this departure: pay or wait for one to lapse.`,
      wait,
    ),
  );
}

/**
 * Decisions §3's hold, the tour's shorter `publicHoldMinutes` for a guest's unpaid booking, or
 * the reservation's own for a reseller.
 */
function holdUntil(mode: PaymentMode, now: Date, options: CreateBookingOptions, tour: Tour) {
  if (options.channel === 'public') return new Date(now.getTime() + tour.publicHoldMinutes * 60_000);
  if (options.channel === 'reseller') return new Date(now.getTime() + (options.holdMinutes ?? 0) * 60_000);
  return holdExpiry(mode, now);
}

/** Decisions §2-§3: reserve seats atomically, price, hold, open the payment, emit `booking.created`. */
export function createBooking(
  deps: CreateBookingDeps,
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
  if (options.channel === 'reseller' && (mode !== 'MANUAL' || !options.holdMinutes)) {
    throw new Error('A reseller books in MANUAL mode, with a hold of some minutes.');
  }
  return deps.uow.transaction(async ({ stores }) => {
    const now = deps.clock.now();
    let departure = await stores.availability.lock(ctx.workspaceId, input.availabilityId);
    const tour = departure ? await stores.tours.findById(ctx.workspaceId, departure.tourId) : null;
    if (!departure || !tour || (options.channel !== 'api' && !tour.isPublic)) {
      return fail(unprocessable('No such departure.', 'availabilityId', 'not_found'));
    }
    const count = input.participants.length;
    if (options.channel === 'public') {
      const allowed = await checkPublicHold(stores, tour, departure.id, count, options.holder, now);
      if (!allowed.ok) return allowed;
    }
    const seatsSold = priceSeats(tour, departure.prices, input.participants);
    if (!seatsSold.ok) return seatsSold;
    const price = priceBooking(
      tour,
      seatsSold.value.map((seat) => seat.price),
      input.addOns ?? [],
    );
    if (!price.ok) return price;
    const blackouts = await blackoutsOfDay(stores, ctx.workspaceId, departure);
    let seats = checkSeats(departure, count, now, blackouts, tour.timeZone);
    // Stale holds never cause a 409: release this departure's expired ones first.
    if (
      !seats.ok &&
      seats.error.code === 'CONFLICT' &&
      (await releaseExpiredHolds(stores, deps.clock, ctx.workspaceId, departure.id))
    ) {
      departure = (await stores.availability.lock(ctx.workspaceId, departure.id)) as Availability;
      seats = checkSeats(departure, count, now, blackouts, tour.timeZone);
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
    // A reseller's reservation holds until it is confirmed, whatever it costs.
    const holds = !settled || options.channel === 'reseller';
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
      participants: toParticipants(input.participants, seatsSold.value),
      addOns: price.value.addOns,
      amountPaid: 0,
      amountRefunded: 0,
      paymentIntentId: null,
      publicToken: newPublicToken(),
      notes: input.notes ?? null,
      expiresAt: holds ? (holdUntil(mode, now, options, tour)?.toISOString() ?? null) : null,
      confirmedAt: settled && mode !== 'MANUAL' ? now.toISOString() : null,
      cancelledAt: null,
      cancellationReason: null,
      externalReference: null,
      holderKey: options.channel === 'public' ? (options.holder?.key ?? null) : null,
      // The guest agrees to the tour's policy as it is now; later edits of the tour leave it.
      cancellationPolicy: tour.cancellationPolicy,
    });
    if (input.externalReference !== undefined) {
      const claimed = await stores.bookings.claimExternalReference(
        ctx.workspaceId,
        booking.id,
        input.externalReference,
      );
      if (!claimed.ok) return claimed;
      booking = claimed.value;
    }
    await recordStatus(stores, booking, null, ctx.actor, null);

    const links: BookingLinks = {};
    if (mode !== 'MANUAL' && !settled && booking.expiresAt) {
      const amount = firstPaymentAmount(mode, total, tour.depositPercent);
      const purpose: PaymentPurpose = mode === 'DEPOSIT' ? 'DEPOSIT' : 'FULL';
      const { session, url } = await openPaymentSession(
        stores,
        deps.payments,
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
    await emitBookingEvent(stores, deps.clock, 'booking.created', booking);
    if (booking.status === 'CONFIRMED')
      await emitBookingEvent(stores, deps.clock, 'booking.confirmed', booking);
    // A guest's free booking is confirmed at once: its confirmation is the guest's only e-mail.
    if (booking.status === 'CONFIRMED' && options.channel === 'public')
      await requestGuestEmail(stores, deps.clock, booking, { template: 'booking_confirmed' });
    return ok({ booking, links });
  });
}
