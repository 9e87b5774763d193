import type { DomainError } from '../shared/errors.js';
import { conflict, unprocessable } from '../shared/errors.js';
import { fail, ok, type Result } from '../shared/result.js';
import type { Departure } from './availability-schemas.js';
import type { DepartureNamer } from './departure-names.js';
import type { SharedSeats } from './ports.js';
import type { Resource } from './resource-schemas.js';

/**
 * A resource named for a departure must be active and, when EXCLUSIVE, on no other departure
 * that overlaps it there (`busy`, what the store found, turnarounds included).
 */
export function checkResourceFree(
  resource: Pick<Resource, 'id' | 'name' | 'sharing' | 'active'>,
  busy: readonly Pick<Departure, 'id' | 'tourId' | 'startsAt'>[],
  field = 'resourceIds',
  name: DepartureNamer = (d) => `departure ${d.id} starting ${d.startsAt}`,
): Result<true> {
  if (!resource.active) {
    return fail(unprocessable(`The resource ${resource.name} is not active.`, field, 'resource_unavailable'));
  }
  const other = busy[0];
  if (resource.sharing === 'EXCLUSIVE' && other) {
    return fail(
      unprocessable(
        `The resource ${resource.name} is already on ${name(other)}, which overlaps this one.`,
        field,
        'resource_double_booked',
      ),
    );
  }
  return ok(true);
}

/** 409 for a booking that a shared resource cannot seat; the detail names the resource. */
export function resourceFull(shared: SharedSeats): DomainError {
  return {
    ...conflict(`Only ${Math.max(0, shared.seatsLeft)} seats remain on a resource this departure shares.`),
    details: [{ field: 'availabilityId', issue: 'resource_full', resourceId: shared.resourceId }],
  };
}

/**
 * Whether the departure's shared resource, rather than the departure, is what refuses
 * `count` seats: then the answer is `resource_full`, naming it.
 */
export function sharedSeatsRefusal(
  shared: SharedSeats | null,
  count: number,
  departureSeatsLeft: number,
): DomainError | null {
  if (!shared || shared.seatsLeft >= count || shared.seatsLeft >= departureSeatsLeft) return null;
  return resourceFull(shared);
}
