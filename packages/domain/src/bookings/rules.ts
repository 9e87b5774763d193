import type { Departure, Tour } from '../catalog/index.js';
import { type BlackoutDay, blackoutFor, isBookable } from '../catalog/index.js';
import type { BookingStatus, PaymentMode, PaymentStatus } from '../shared/enums.js';
import { type DomainError, unprocessable, validationError } from '../shared/errors.js';
import { percentOf } from '../shared/money.js';
import { fail, ok, type Result } from '../shared/result.js';
import type { BookingRecord } from './ports.js';
import type { BookingAddOn } from './schemas.js';

const MINUTE = 60_000;

/** Decisions §3: how long an unpaid booking holds its seats, by payment mode. */
const HOLD_MINUTES: Record<PaymentMode, number | null> = {
  CHECKOUT: 30,
  DEPOSIT: 30,
  PAYMENT_LINK: 24 * 60,
  MANUAL: null,
};

export function holdExpiry(mode: PaymentMode, now: Date): Date | null {
  const minutes = HOLD_MINUTES[mode];
  return minutes === null ? null : new Date(now.getTime() + minutes * MINUTE);
}

/**
 * Decisions §3 with ticket types: the participants' seat prices (see `priceSeats`) + sum(add-on
 * price x quantity), in the tour's currency.
 */
export function priceBooking(
  tour: Pick<Tour, 'addOns'>,
  seatPrices: readonly number[],
  addOns: ReadonlyArray<{ id: string; quantity: number }>,
): Result<{ total: number; addOns: BookingAddOn[] }> {
  const lines: BookingAddOn[] = [];
  for (const [index, wanted] of addOns.entries()) {
    const offered = tour.addOns.find((addOn) => addOn.id === wanted.id);
    if (!offered) {
      return fail(
        validationError('The tour sells no such add-on.', [
          { field: `addOns[${index}].id`, issue: 'unknown_add_on' },
        ]),
      );
    }
    lines.push({ id: offered.id, name: offered.name, unitPrice: offered.price, quantity: wanted.quantity });
  }
  const total =
    seatPrices.reduce((sum, price) => sum + price, 0) +
    lines.reduce((sum, line) => sum + line.unitPrice * line.quantity, 0);
  return ok({ total, addOns: lines });
}

/** The first payment a mode asks for: the deposit share, or the whole amount. */
export function firstPaymentAmount(mode: PaymentMode, total: number, depositPercent: number): number {
  if (mode !== 'DEPOSIT') return total;
  // At least one minor unit, so a deposit booking always has something to pay.
  return Math.min(total, Math.max(1, percentOf(total, depositPercent)));
}

/** PaymentStatus from the money: UNPAID -> PENDING (part paid) -> PAID; any refund -> PARTIALLY_REFUNDED -> REFUNDED. */
export function derivePaymentStatus(total: number, paid: number, refunded: number): PaymentStatus {
  if (refunded > 0) return refunded >= paid ? 'REFUNDED' : 'PARTIALLY_REFUNDED';
  if (paid <= 0) return total === 0 ? 'PAID' : 'UNPAID';
  return paid >= total ? 'PAID' : 'PENDING';
}

export function outstandingAmount(booking: Pick<BookingRecord, 'totalAmount' | 'amountPaid'>): number {
  return Math.max(0, booking.totalAmount - booking.amountPaid);
}

/**
 * Whether `requested` seats can be taken on the departure now: not bookable -> 422,
 * more than it could ever hold -> 400 `max_capacity_exceeded`, more than remain -> 409.
 * `timeZone` is the tour's: a blackout closes its local day.
 */
/** What the seat and bookable rules read of a departure. */
type SeatedDeparture = Pick<
  Departure,
  'status' | 'startsAt' | 'bookingCutoffAt' | 'tourId' | 'capacity' | 'seatsRemaining'
>;

export function checkSeats(
  departure: SeatedDeparture,
  requested: number,
  now: Date,
  blackouts: readonly BlackoutDay[] = [],
  timeZone = 'UTC',
): Result<true> {
  if (!isBookable(departure, now, blackouts, timeZone)) {
    return fail(notBookable(departure, now, blackouts, timeZone));
  }
  if (requested > departure.capacity) {
    return fail(
      validationError(`This departure holds at most ${departure.capacity} participants.`, [
        { field: 'participants', issue: 'max_capacity_exceeded' },
      ]),
    );
  }
  if (requested > departure.seatsRemaining) return fail(soldOut(departure));
  return ok(true);
}

export function soldOut(departure: Pick<Departure, 'seatsRemaining'>): DomainError {
  return {
    code: 'CONFLICT',
    message: `Only ${departure.seatsRemaining} seats remain on this departure.`,
    details: [{ field: 'participants', issue: 'insufficient_seats' }],
  };
}

function notBookable(
  departure: SeatedDeparture,
  now: Date,
  blackouts: readonly BlackoutDay[],
  timeZone: string,
): DomainError {
  if (departure.status !== 'SCHEDULED' && departure.status !== 'DELAYED') {
    return unprocessable(
      `A ${departure.status} departure cannot be booked.`,
      'availabilityId',
      'not_bookable',
    );
  }
  if (Date.parse(departure.startsAt) <= now.getTime()) {
    return unprocessable('This departure has already started.', 'availabilityId', 'departure_started');
  }
  if (departure.bookingCutoffAt && Date.parse(departure.bookingCutoffAt) <= now.getTime()) {
    return unprocessable('Booking for this departure has closed.', 'availabilityId', 'booking_closed');
  }
  const blackout = blackoutFor(departure, blackouts, timeZone);
  return unprocessable(
    `No departures run on ${blackout?.date ?? 'this date'} (blackout date).`,
    'availabilityId',
    'blackout_date',
  );
}

type StatusEvent = 'booking.confirmed' | 'booking.cancelled' | 'booking.completed' | 'booking.no_show';

export interface StatusChange {
  to: BookingStatus;
  event: StatusEvent;
  releasesSeats: boolean;
}

const EVENT_BY_TARGET: Partial<Record<BookingStatus, StatusEvent>> = {
  CONFIRMED: 'booking.confirmed',
  CANCELLED: 'booking.cancelled',
  COMPLETED: 'booking.completed',
  NO_SHOW: 'booking.no_show',
};

/** Decisions §2: the booking state machine. `startsAt` is the departure's start. */
export function decideStatusChange(
  from: BookingStatus,
  to: BookingStatus,
  startsAt: string,
  now: Date,
): Result<StatusChange> {
  const started = Date.parse(startsAt) <= now.getTime();
  const invalid = () =>
    fail(unprocessable(`A ${from} booking cannot become ${to}.`, 'status', 'invalid_transition'));
  const change = (): Result<StatusChange> =>
    ok({ to, event: EVENT_BY_TARGET[to] as StatusEvent, releasesSeats: to === 'CANCELLED' });

  if (from === 'PENDING' && (to === 'CONFIRMED' || to === 'CANCELLED')) return change();
  if (from === 'CONFIRMED' && to === 'CANCELLED') {
    return started
      ? fail(
          unprocessable(
            'The departure has started; it can no longer be cancelled.',
            'status',
            'departure_started',
          ),
        )
      : change();
  }
  if (from === 'CONFIRMED' && (to === 'COMPLETED' || to === 'NO_SHOW')) {
    return started
      ? change()
      : fail(unprocessable('The departure has not started yet.', 'status', 'departure_not_started'));
  }
  return invalid();
}
