import type { DepartureForBooking } from '../../catalog/index.js';
import { type DomainError, unprocessable } from '../../shared/errors.js';
import { fail, ok, type Result } from '../../shared/result.js';
import type { BookingChannelPolicy } from '../channel-policy.js';
import type { BookingStores } from '../ports.js';

export const NO_SUCH_DEPARTURE: DomainError = unprocessable(
  'No such departure.',
  'availabilityId',
  'not_found',
);

/** The departure as read, if this channel may book it: an unpublished tour's is unknown to some. */
export function offeredDeparture(
  read: DepartureForBooking | null,
  policy: Pick<BookingChannelPolicy, 'publishedToursOnly'>,
): Result<DepartureForBooking> {
  if (!read || (policy.publishedToursOnly && !read.tour.isPublic)) return fail(NO_SUCH_DEPARTURE);
  return ok(read);
}

/** Reads the departure with what a booking decides on, without a lock (see `findForBooking`). */
export async function findDeparture(
  stores: Pick<BookingStores, 'departures'>,
  workspaceId: string,
  availabilityId: string,
  policy: Pick<BookingChannelPolicy, 'publishedToursOnly'>,
): Promise<Result<DepartureForBooking>> {
  return offeredDeparture(await stores.departures.findForBooking(workspaceId, availabilityId), policy);
}
