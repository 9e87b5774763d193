import { type DepartureForBooking, sharedSeatsRefusal } from '../../catalog/index.js';
import { fail, ok, type Result } from '../../shared/result.js';
import { type PricedSeat, priceSeats } from '../pricing.js';
import { checkSeats, priceBooking } from '../rules.js';
import type { BookingAddOn, BookingCreateInput } from '../schemas.js';

/** What the booking sells, decided on the departure as read: seats priced, the total, its add-ons. */
export interface Sale {
  seats: PricedSeat[];
  total: number;
  addOns: BookingAddOn[];
}

/** Prices the seats and add-ons, then checks there is room: 400/422 for the request, 409 when full. */
export function decideSale(
  read: DepartureForBooking,
  input: Pick<BookingCreateInput, 'participants' | 'addOns'>,
  now: Date,
): Result<Sale> {
  const seats = priceSeats(read.tour, read.departure.prices, input.participants);
  if (!seats.ok) return seats;
  const price = priceBooking(
    read.tour,
    seats.value.map((seat) => seat.price),
    input.addOns ?? [],
  );
  if (!price.ok) return price;
  const count = input.participants.length;
  const room = checkSeats(read.departure, count, now, read.blackouts, read.tour.timeZone);
  // A shared resource tighter than the departure refuses instead, naming itself (decisions §14).
  const shared = sharedSeatsRefusal(read.sharedSeats, count, read.departure.seatsRemaining);
  if (shared && (room.ok || room.error.code === 'CONFLICT')) return fail(shared);
  if (!room.ok) return room;
  return ok({ seats: seats.value, ...price.value });
}
