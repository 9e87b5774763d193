import type { CalendarDeparture, DeparturePrice } from '@travelops/domain/catalog';
import type { DepartureStatus } from '@travelops/domain/shared';
import type { Knex } from 'knex';
import { utcDayStart } from './columns.js';

// What the public calendar reads of departures, and what its version covers (tours.ts).

export const BOOKABLE_STATUSES: DepartureStatus[] = ['SCHEDULED', 'DELAYED'];

/**
 * Seats left on the departure `alias`'s tightest SHARED_SEATS resource, over the departures
 * overlapping it there (migration 0020); null when it has none, at no cost without resources.
 */
export const sharedSeatsOf = (alias: string) =>
  `case when cardinality(${alias}.resource_ids) > 0 then (select s.seats_left from travelops_shared_seats(${alias}.workspace_id, ${alias}.id) s limit 1) end as shared_seats_left`;

/**
 * Departures of `availability` bookable at `now` (by status, start and cutoff) starting within
 * the UTC dates of `range`: what the calendar reads, and what its version covers (tours.ts).
 */
export function whereOpenInRange(
  query: Knex.QueryBuilder,
  range: { from: string; to: string },
  now: Date,
): Knex.QueryBuilder {
  return whereOpen(query, now)
    .where('availability.starts_at', '>=', utcDayStart(range.from))
    .where('availability.starts_at', '<', utcDayStart(range.to, 1));
}

/** Bookable at `now` by status, start and cutoff (blackouts are the rules' to apply). */
function whereOpen(query: Knex.QueryBuilder, now: Date): Knex.QueryBuilder {
  return query
    .whereIn('availability.status', BOOKABLE_STATUSES)
    .where('availability.starts_at', '>', now)
    .where((cutoff) =>
      cutoff.whereNull('availability.booking_cutoff_at').orWhere('availability.booking_cutoff_at', '>', now),
    );
}

/**
 * `listCalendarDepartures`' one row: a JSON array per column, the groups in the same order in
 * each (one aggregate feeds them all), or all null when there are none. Instants in epoch
 * milliseconds; prices null when the group has none of its own.
 */
interface CalendarColumns {
  counts: number[] | null;
  starts: number[];
  cutoffs: (number | null)[];
  statuses: DepartureStatus[];
  capacities: number[];
  left: number[];
  prices: (DeparturePrice[] | null)[];
}

function toCalendarDepartures(row: CalendarColumns | undefined): CalendarDeparture[] {
  if (!row?.counts) return [];
  // Aligned arrays: every index of `counts` is in each of them.
  return row.counts.map((count, i) => {
    const capacity = row.capacities[i] as number;
    return {
      count,
      status: row.statuses[i] as DepartureStatus,
      startsAtMs: row.starts[i] as number,
      bookingCutoffAtMs: row.cutoffs[i] ?? null,
      capacity,
      seatsRemaining: row.left[i] as number,
      prices: row.prices[i] ?? [],
    };
  });
}

/**
 * Every departure of the tour bookable at `now` starting from the first to before the last of
 * `dayStarts`, grouped by local day and kind (see `DepartureStore.listCalendarDepartures`).
 */
export async function readCalendarDepartures(
  db: Knex | Knex.Transaction,
  workspaceId: string,
  tourId: string,
  dayStarts: readonly number[],
  now: Date,
): Promise<CalendarDeparture[]> {
  const first = dayStarts[0];
  const last = dayStarts[dayStarts.length - 1];
  if (first === undefined || last === undefined) return [];
  const bounds = dayStarts.map((ms) => new Date(ms).toISOString());
  // One group per day and kind of departure: a dense year (30 000 departures) is a few
  // thousand groups at most, and the sums the calendar needs are the group's count times
  // its seats. The day is the bucket of the day starts the domain computed (no time zone
  // arithmetic here); timestamp(3): milliseconds are exact.
  const grouped = whereOpen(
    db
      .select(
        db.raw('count(*)::int as n'),
        db.raw('min(starts_at) as starts_at'),
        db.raw('min(booking_cutoff_at) as booking_cutoff_at'),
        'status',
        'capacity',
        // greatest() and least() skip nulls: no shared resource, the departure's own seats.
        db.raw(
          `case when shared_seats_left is null then capacity - booked_seats
                else least(capacity - booked_seats, greatest(0, shared_seats_left)) end as seats_left`,
        ),
        db.raw(`nullif(prices, '[]'::jsonb) as prices`),
      )
      .from(
        db.raw(
          `(select availability.*, ${sharedSeatsOf('availability')} from availability
                  where workspace_id = ? and tour_id = ?) as availability`,
          [workspaceId, tourId],
        ),
      )
      .where('starts_at', '>=', new Date(first))
      .where('starts_at', '<', new Date(last)),
    now,
  ).groupByRaw(
    `width_bucket(starts_at, ?::timestamptz[]), status, capacity, seats_left, nullif(prices, '[]'::jsonb)`,
    [bounds],
  );
  // Read row by row, the driver builds an object and parses two timestamps per row, and
  // PostgreSQL prints them; one JSON array per column is a few native parses.
  const ms = (column: string) => `round(date_part('epoch', d.${column}) * 1000)`;
  const [row] = (await db
    .select(
      db.raw('json_agg(d.n) as counts'),
      db.raw(`json_agg(${ms('starts_at')}) as starts`),
      db.raw(`json_agg(${ms('booking_cutoff_at')}) as cutoffs`),
      db.raw('json_agg(d.status) as statuses'),
      db.raw('json_agg(d.capacity) as capacities'),
      db.raw('json_agg(d.seats_left) as left'),
      db.raw('json_agg(d.prices) as prices'),
    )
    .from(grouped.as('d'))) as CalendarColumns[];
  return toCalendarDepartures(row);
}
