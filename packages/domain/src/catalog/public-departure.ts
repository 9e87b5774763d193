import * as v from 'valibot';
import { DateTimeSchema } from '../shared/schemas.js';
import { type Availability, AvailabilityStatusSchema, DeparturePriceSchema } from './availability-schemas.js';

/**
 * A departure as guests and widgets see it: when, its status, seats left and prices. Never
 * the staff assigned (guide, driver, vehicle), nor how many are booked or held.
 */
export const PublicDepartureSchema = v.object({
  id: v.string(),
  tourId: v.string(),
  startsAt: DateTimeSchema,
  status: AvailabilityStatusSchema,
  seatsRemaining: v.number(),
  bookingCutoffAt: v.nullable(DateTimeSchema),
  prices: v.array(DeparturePriceSchema),
});
export type PublicDeparture = v.InferOutput<typeof PublicDepartureSchema>;

export function toPublicDeparture(departure: Availability): PublicDeparture {
  return {
    id: departure.id,
    tourId: departure.tourId,
    startsAt: departure.startsAt,
    status: departure.status,
    seatsRemaining: departure.seatsRemaining,
    bookingCutoffAt: departure.bookingCutoffAt,
    prices: departure.prices,
  };
}
