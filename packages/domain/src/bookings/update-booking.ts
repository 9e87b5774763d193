import { requestGuestEmail } from '../notifications/index.js';
import { conflict, unprocessable } from '../shared/errors.js';
import type { Clock, UnitOfWork } from '../shared/ports.js';
import { fail, ok, type Result } from '../shared/result.js';
import { blackoutsOfDay, emitBookingEvent, toParticipants } from './booking-writes.js';
import type { BookingContext, BookingPatch, BookingRecord, BookingStores } from './ports.js';
import { type PricedSeat, priceSeats } from './pricing.js';
import { checkSeats, derivePaymentStatus, priceBooking, soldOut } from './rules.js';
import type { UpdateBookingInput } from './schemas.js';

export interface UpdateBookingDeps {
  uow: UnitOfWork<
    Pick<BookingStores, 'bookings' | 'availability' | 'blackoutDates' | 'tours' | 'payments' | 'outbox'>
  >;
  clock: Clock;
}

export interface UpdateBookingOptions {
  /**
   * A reseller may move a booking to another (published) tour's departure (OCTO: change the
   * product). The new participants are then required and priced on the new tour; the booking
   * keeps the cancellation policy it was sold under, and takes the new tour's currency only
   * while nothing has been paid.
   */
  acrossTours?: boolean;
}

/** Decisions §4: PATCH moves seats atomically; only PENDING or CONFIRMED bookings change. */
export function updateBooking(
  deps: UpdateBookingDeps,
  ctx: BookingContext,
  bookingId: string,
  input: UpdateBookingInput,
  ifMatchVersion?: number,
  options: UpdateBookingOptions = {},
): Promise<Result<BookingRecord>> {
  return deps.uow.transaction(async ({ stores }) => {
    const locked = await stores.bookings.lockWithDepartures(ctx.workspaceId, bookingId, input.availabilityId);
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
    const changingTour = target.tourId !== booking.tourId;
    if (changingTour && !options.acrossTours) {
      return fail(
        unprocessable(
          'Move the booking to a departure of the same tour.',
          'availabilityId',
          'different_tour',
        ),
      );
    }
    if (changingTour && !input.participants) {
      return fail(
        unprocessable('Name the participants to move to another tour.', 'participants', 'required'),
      );
    }
    const count = input.participants?.length ?? booking.participantCount;
    // New participants are priced (and their ticket rules checked) on the target departure.
    let repriced: { seats: PricedSeat[]; total: number } | null = null;
    const moving = target.id !== current.id;
    const takesSeats = moving || count > booking.participantCount;
    const tour =
      input.participants || takesSeats ? await stores.tours.findById(ctx.workspaceId, target.tourId) : null;
    if (changingTour && tour && tour.currency !== booking.currency && booking.amountPaid > 0) {
      return fail(
        unprocessable(
          `The booking was paid in ${booking.currency}; that tour sells in ${tour.currency}.`,
          'availabilityId',
          'currency_differs',
        ),
      );
    }
    if (input.participants) {
      if (!tour) return fail(unprocessable('No such tour.', 'availabilityId', 'not_found'));
      const seats = priceSeats(tour, target.prices, input.participants);
      if (!seats.ok) return seats;
      const price = priceBooking(
        tour,
        seats.value.map((seat) => seat.price),
        booking.addOns,
      );
      // The booking's add-ons are the old tour's: the new one must sell them too.
      if (!price.ok && changingTour) return price;
      if (price.ok) repriced = { seats: seats.value, total: price.value.total };
    }
    if (takesSeats) {
      // Seats this booking already holds on the target count as available to it.
      const own = moving ? 0 : booking.participantCount;
      const blackouts = await blackoutsOfDay(stores, ctx.workspaceId, target);
      const seats = checkSeats(
        { ...target, seatsRemaining: target.seatsRemaining + own },
        count,
        now,
        blackouts,
        tour?.timeZone,
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
    if (changingTour && tour) {
      patch.tourId = tour.id;
      patch.currency = tour.currency;
    }
    if (input.participants) {
      patch.participants = toParticipants(input.participants, repriced?.seats ?? []);
      patch.participantCount = count;
    }
    if (input.notes !== undefined) patch.notes = input.notes;
    let total = booking.totalAmount;
    if (input.totalAmount !== undefined) total = input.totalAmount;
    else if (repriced) total = repriced.total;
    if (total !== booking.totalAmount) {
      patch.totalAmount = total;
      patch.paymentStatus = derivePaymentStatus(total, booking.amountPaid, booking.amountRefunded);
      // Open pages show the old amount: they close, and a new link or retry asks for the new one.
      await stores.payments.expireOpenSessions(booking.id);
    }
    let updated = await stores.bookings.update(ctx.workspaceId, booking.id, patch);
    if (input.externalReference !== undefined && input.externalReference !== booking.externalReference) {
      const claimed = await stores.bookings.claimExternalReference(
        ctx.workspaceId,
        booking.id,
        input.externalReference,
      );
      if (!claimed.ok) return claimed;
      updated = claimed.value;
    }
    await emitBookingEvent(stores, deps.clock, 'booking.updated', updated);
    // What the guest would notice (another day, other people) is e-mailed unless the operator says not to.
    if ((moving || input.participants) && input.notifyCustomer !== false) {
      await requestGuestEmail(stores, deps.clock, updated, {
        template: 'booking_changed',
        previousStartsAt: moving ? booking.startsAt : null,
        previousParticipantCount: input.participants ? booking.participantCount : null,
      });
    }
    return ok(updated);
  });
}
