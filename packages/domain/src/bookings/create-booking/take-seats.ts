import { type DepartureForBooking, resourceFull, type SeatRefusal } from '../../catalog/index.js';
import { conflict, type DomainError } from '../../shared/errors.js';
import { fail, ok, type Result } from '../../shared/result.js';
import type { BookingChannelPolicy } from '../channel-policy.js';
import type { BookingStores } from '../ports.js';
import { soldOut } from '../rules.js';
import type { BookingCustomer } from './find-customer.js';
import { hasExpiredHolds } from './free-expired-holds.js';

/** The owner of the transaction rolls it back and runs the whole booking again, on fresh reads. */
export const DECIDE_AGAIN: DomainError = {
  ...conflict('The departure changed while this booking was made; try again.'),
  retryable: true,
};

/** Why no seat was taken, as the answer: 409 only when the departure as validated is full. */
export async function seatRefusal(
  stores: Pick<BookingStores, 'bookings'>,
  now: Date,
  workspaceId: string,
  availabilityId: string,
  refused: SeatRefusal,
): Promise<DomainError> {
  if (refused.reason === 'stale') return DECIDE_AGAIN;
  if (refused.reason === 'resource_full')
    return resourceFull({ resourceId: refused.resourceId, seatsLeft: 0 });
  // Stale holds never cause a 409: the next run finds it full as read and releases them first.
  if (await hasExpiredHolds(stores, now, workspaceId, availabilityId)) return DECIDE_AGAIN;
  return soldOut(refused);
}

/**
 * Last: the seats, at the version validated. With the commit by default: the departure's row is
 * locked only while PostgreSQL commits; refused then, the transaction runs again from a fresh
 * read (DECIDE_AGAIN's path). `now` takes them before returning, and answers a refusal here.
 */
export async function takeSeats(
  stores: Pick<BookingStores, 'departures' | 'bookings' | 'customers'>,
  workspaceId: string,
  read: Pick<DepartureForBooking, 'departure' | 'version'>,
  count: number,
  customer: BookingCustomer,
  policy: Pick<BookingChannelPolicy, 'seats'>,
  now: Date,
): Promise<Result<true>> {
  const departureId = read.departure.id;
  if (policy.seats === 'now') {
    const taken = await stores.departures.takeSeats(workspaceId, departureId, count, read.version);
    if (!taken.ok) return fail(await seatRefusal(stores, now, workspaceId, departureId, taken.error));
  } else {
    await stores.departures.takeSeatsAtCommit(workspaceId, departureId, count, read.version);
  }
  // Another transaction may lock an existing customer's row, a cancel after its departure's:
  // locked after the seats, it is taken in that same order (never a cycle).
  if (!customer.isNew) {
    if (policy.seats === 'now') await stores.customers.refreshStats(workspaceId, customer.id);
    else await stores.customers.refreshStatsAtCommit(workspaceId, customer.id);
  }
  return ok(true);
}
