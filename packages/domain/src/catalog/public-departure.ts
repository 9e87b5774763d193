import * as v from 'valibot';
import { DateTimeSchema } from '../shared/schemas.js';
import {
  AvailabilityStatusSchema,
  DeparturePriceSchema,
  type DepartureView,
  SalesStatusSchema,
} from './availability-schemas.js';

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
  /** AVAILABLE, LIMITED or SOLD_OUT (public lists hold bookable departures only). */
  salesStatus: SalesStatusSchema,
});
export type PublicDeparture = v.InferOutput<typeof PublicDepartureSchema>;

export function toPublicDeparture(departure: DepartureView): PublicDeparture {
  return {
    id: departure.id,
    tourId: departure.tourId,
    startsAt: departure.startsAt,
    status: departure.status,
    seatsRemaining: departure.seatsRemaining,
    bookingCutoffAt: departure.bookingCutoffAt,
    prices: departure.prices,
    salesStatus: departure.salesStatus,
  };
}
