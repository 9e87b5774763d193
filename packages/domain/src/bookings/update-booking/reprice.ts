import type { Departure, Tour } from '../../catalog/index.js';
import { unprocessable } from '../../shared/errors.js';
import { fail, ok, type Result } from '../../shared/result.js';
import type { BookingRecord } from '../ports.js';
import { type PricedSeat, priceSeats } from '../pricing.js';
import { priceBooking } from '../rules.js';
import type { ParticipantInput } from '../schemas.js';

/** New participants priced on the target: their seats and the booking's new total. */
export interface Repriced {
  seats: PricedSeat[];
  total: number;
}

/**
 * New participants are priced (and their ticket rules checked) on the target departure, with
 * the booking's add-ons. Those are the old tour's: on another tour they must be sold too (else
 * refused); on its own tour, one no longer sold leaves the total and the seats unpriced (null).
 */
export function reprice(
  booking: Pick<BookingRecord, 'addOns'>,
  tour: Pick<Tour, 'basePrice' | 'ticketTypes' | 'addOns'> | null,
  target: Pick<Departure, 'prices'>,
  participants: readonly ParticipantInput[] | undefined,
  changingTour: boolean,
): Result<Repriced | null> {
  if (!participants) return ok(null);
  if (!tour) return fail(unprocessable('No such tour.', 'availabilityId', 'not_found'));
  const seats = priceSeats(tour, target.prices, participants);
  if (!seats.ok) return seats;
  const price = priceBooking(
    tour,
    seats.value.map((seat) => seat.price),
    booking.addOns,
  );
  if (!price.ok) return changingTour ? price : ok(null);
  return ok({ seats: seats.value, total: price.value.total });
}
