import type { Departure, Tour } from '@travelops/domain/catalog';
import { ok, type Result } from '@travelops/domain/shared';
import { invalidAvailability, type OctoError } from '../errors.js';

/**
 * Where the update may take the booking: the departure asked for must be one of the target
 * tour's (one of another tour, or none found, is INVALID_AVAILABILITY_ID); a change of product
 * must name the departure on it.
 */
export function checkTargetDeparture(args: {
  currentTourId: string;
  tour: Pick<Tour, 'id'>;
  askedAvailabilityId: string | undefined;
  target: Pick<Departure, 'tourId'> | null;
}): Result<void, OctoError> {
  const { currentTourId, tour, askedAvailabilityId, target } = args;
  if (askedAvailabilityId !== undefined) {
    return target?.tourId === tour.id ? ok(undefined) : invalidAvailability(askedAvailabilityId);
  }
  return tour.id === currentTourId ? ok(undefined) : invalidAvailability('');
}
