import * as v from 'valibot';
import { type Tour, TourSchema } from './tour-schemas.js';

/**
 * A published tour as guests and widgets see it: the tour without its `capacity`. With the
 * departures' `seatsRemaining`, a capacity would tell anyone how much the operator has sold.
 * Named field by field, so a field added to tours stays the operator's until it is added here.
 */
export const PublicTourSchema = v.pick(TourSchema, [
  'id',
  'slug',
  'name',
  'description',
  'durationMinutes',
  'basePrice',
  'currency',
  'meetingPoint',
  'isPublic',
  'depositPercent',
  'addOns',
  'createdAt',
  'updatedAt',
  'timeZone',
  'ticketTypes',
  'cancellationPolicy',
  'maxSeatsPerPublicBooking',
  'publicHoldMinutes',
  'reminderHoursBefore',
]);
export type PublicTour = v.InferOutput<typeof PublicTourSchema>;

export function toPublicTour(tour: Tour): PublicTour {
  return {
    id: tour.id,
    slug: tour.slug,
    name: tour.name,
    description: tour.description,
    durationMinutes: tour.durationMinutes,
    basePrice: tour.basePrice,
    currency: tour.currency,
    meetingPoint: tour.meetingPoint,
    isPublic: tour.isPublic,
    depositPercent: tour.depositPercent,
    addOns: tour.addOns,
    createdAt: tour.createdAt,
    updatedAt: tour.updatedAt,
    timeZone: tour.timeZone,
    ticketTypes: tour.ticketTypes,
    cancellationPolicy: tour.cancellationPolicy,
    maxSeatsPerPublicBooking: tour.maxSeatsPerPublicBooking,
    publicHoldMinutes: tour.publicHoldMinutes,
    reminderHoursBefore: tour.reminderHoursBefore,
  };
}
