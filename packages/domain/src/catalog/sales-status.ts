import type { Departure, DepartureView, SalesStatus } from './availability-schemas.js';
import { type BlackoutDay, isBookable } from './departure-rules.js';

/** LIMITED: at most this many seats left... */
const LIMITED_SEATS = 3;
/** ...or at most this share of the capacity, whichever is more. */
const LIMITED_PERCENT = 20;

/**
 * Few seats left: at most 3, or at most 20 % of the capacity, whichever is more. No rounding:
 * 20 % of 22 seats is 4.4, so 4 left is limited and 5 is not.
 */
export function isLimited(seatsRemaining: number, capacity: number): boolean {
  return seatsRemaining <= LIMITED_SEATS || seatsRemaining * 100 <= capacity * LIMITED_PERCENT;
}

/**
 * What a buyer is told about a departure now: CLOSED when it cannot be booked (see
 * `isBookable`: not SCHEDULED or DELAYED, started, past its cutoff, on a blackout day of the
 * tour's time zone), else SOLD_OUT without a seat, LIMITED with few, AVAILABLE otherwise.
 */
export function salesStatusOf(
  departure: Pick<
    Departure,
    'status' | 'startsAt' | 'bookingCutoffAt' | 'tourId' | 'seatsRemaining' | 'capacity'
  >,
  now: Date,
  blackouts: readonly BlackoutDay[],
  timeZone: string,
): SalesStatus {
  return salesStatusFor(
    isBookable(departure, now, blackouts, timeZone),
    departure.seatsRemaining,
    departure.capacity,
  );
}

/** `salesStatusOf` for a departure whose bookability is already known. */
export function salesStatusFor(bookable: boolean, seatsRemaining: number, capacity: number): SalesStatus {
  if (!bookable) return 'CLOSED';
  if (seatsRemaining <= 0) return 'SOLD_OUT';
  return isLimited(seatsRemaining, capacity) ? 'LIMITED' : 'AVAILABLE';
}

/** The departure as the API answers it. */
export function withSalesStatus(
  departure: Departure,
  now: Date,
  blackouts: readonly BlackoutDay[],
  timeZone: string,
): DepartureView {
  return { ...departure, salesStatus: salesStatusOf(departure, now, blackouts, timeZone) };
}

/** Best first: a calendar day shows the status of its best departure. */
const RANK: Record<SalesStatus, number> = { AVAILABLE: 0, LIMITED: 1, SOLD_OUT: 2, CLOSED: 3 };

/** The best of the statuses (AVAILABLE > LIMITED > SOLD_OUT > CLOSED); CLOSED when there is none. */
export function bestSalesStatus(statuses: Iterable<SalesStatus>): SalesStatus {
  let best: SalesStatus = 'CLOSED';
  for (const status of statuses) best = betterSalesStatus(best, status);
  return best;
}

/** The better of two statuses, as `bestSalesStatus` ranks them. */
export function betterSalesStatus(a: SalesStatus, b: SalesStatus): SalesStatus {
  return RANK[b] < RANK[a] ? b : a;
}
