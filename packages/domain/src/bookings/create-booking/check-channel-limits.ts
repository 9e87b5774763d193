import type { DepartureForBooking, Tour } from '../../catalog/index.js';
import { rateLimitedError, unprocessable } from '../../shared/errors.js';
import { fail, ok, type Result } from '../../shared/result.js';
import type { BookingChannelPolicy } from '../channel-policy.js';
import type { BookingStores } from '../ports.js';

/** Seats per booking: a channel may cap them at the tour's `maxSeatsPerPublicBooking`. */
export function checkSeatCap(
  tour: Pick<Tour, 'maxSeatsPerPublicBooking'>,
  count: number,
  policy: Pick<BookingChannelPolicy, 'capsSeatsPerBooking'>,
): Result<true> {
  if (!policy.capsSeatsPerBooking || count <= tour.maxSeatsPerPublicBooking) return ok(true);
  return fail(
    unprocessable(
      `Book at most ${tour.maxSeatsPerPublicBooking} seats online; contact the operator for a group.`,
      'participants',
      'too_many_for_public_booking',
    ),
  );
}

/**
 * One more booking for a client that has `held` on the departure (unpaid holds and free
 * bookings): 429 at its cap, until the earliest hold lapses (a free booking never does).
 */
export function checkLiveHolds(
  held: { count: number; earliestExpiry: Date | null },
  maxLiveHolds: number,
  now: Date,
): Result<true> {
  if (held.count < maxLiveHolds) return ok(true);
  const wait = held.earliestExpiry ? (held.earliestExpiry.getTime() - now.getTime()) / 1000 : 60;
  return fail(
    rateLimitedError(
      `This device already holds ${held.count} unpaid or free bookings on this departure: pay, cancel one, or wait for a hold to lapse.`,
      wait,
    ),
  );
}

/** The channel's brakes on hoarding seats: seats per booking, and unpaid holds and free bookings per client and departure. */
export async function checkChannelLimits(
  stores: Pick<BookingStores, 'bookings'>,
  read: DepartureForBooking,
  count: number,
  policy: Pick<BookingChannelPolicy, 'capsSeatsPerBooking' | 'holder'>,
  now: Date,
): Promise<Result<true>> {
  const capped = checkSeatCap(read.tour, count, policy);
  if (!capped.ok || !policy.holder) return capped;
  // One client's concurrent holds queue on this pair (others' bookings do not): the count sees them all.
  await stores.bookings.lockHolder(read.departure.id, policy.holder.key);
  const held = await stores.bookings.liveHoldsOf(read.departure.id, policy.holder.key, now);
  return checkLiveHolds(held, policy.holder.maxLiveHolds, now);
}
