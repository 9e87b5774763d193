import type {
  AssignedResource,
  BlackoutDay,
  CalendarDeparture,
  Departure,
  DepartureFilter,
  DepartureForBooking,
  DeparturePatch,
  DeparturePrice,
  DepartureStore,
  NewDeparture,
  SeatRefusal,
  SharedSeats,
} from '@travelops/domain/catalog';
import {
  conflict,
  type DepartureStatus,
  fail,
  notFound,
  ok,
  type Page,
  type PageRequest,
  type Result,
} from '@travelops/domain/shared';
import type { Knex } from 'knex';
import { atCommitStatement, inlined } from '../commit-statements.js';
import { constraintError } from '../errors.js';
import { prepared } from '../prepared.js';
import {
  type DbTimestamp,
  jsonColumns,
  keysetDate,
  toColumns,
  toIso,
  toIsoOrNull,
  toPage,
  utcDayStart,
} from './columns.js';
import { BOOKABLE_STATUSES, readCalendarDepartures, sharedSeatsOf } from './departure-calendar.js';
import { type TourRow, toTour } from './tours.js';

interface AvailabilityTableRow {
  id: string;
  workspace_id: string;
  tour_id: string;
  starts_at: DbTimestamp;
  capacity: number;
  booked_seats: number;
  status: DepartureStatus;
  guide_id: string | null;
  driver_id: string | null;
  vehicle_id: string | null;
  booking_cutoff_at: DbTimestamp | null;
  created_at: DbTimestamp;
  updated_at: DbTimestamp;
  prices: DeparturePrice[];
  schedule_id: string | null;
  version: number;
  /** Selected with every read (see heldSeatsOf); absent on a bare row. */
  held_seats?: number;
  resource_ids: string[];
  /** Selected with every read (see sharedSeatsOf): null without a SHARED_SEATS resource. */
  shared_seats_left?: number | null;
}

/** Seats in unpaid (PENDING) bookings of the departure `alias`: operators see them apart from sold ones. */
const heldSeatsOf = (alias: string) =>
  `(select coalesce(sum(b.participant_count), 0)::int from bookings b where b.availability_id = ${alias}.id and b.status = 'PENDING') as held_seats`;

const PATCH_COLUMNS = {
  startsAt: 'starts_at',
  capacity: 'capacity',
  status: 'status',
  bookingCutoffAt: 'booking_cutoff_at',
  guideId: 'guide_id',
  driverId: 'driver_id',
  vehicleId: 'vehicle_id',
  prices: 'prices',
  resourceIds: 'resource_ids',
} as const satisfies { readonly [K in keyof Required<DeparturePatch>]: string };

const SEATS_VIOLATED = {
  availability_seats_check: conflict('The departure does not have enough seats for this change.'),
};

const INSUFFICIENT_SEATS = {
  availability_seats_check: conflict(
    'Not enough seats left on this departure.',
    'participants',
    'insufficient_seats',
  ),
};

const MAX_BOOKABLE = 500;

/** The departure's own seats left, capped by its shared resources' (never below 0). */
const seatsLeft = (own: number, shared: number | null | undefined) =>
  shared === null || shared === undefined ? own : Math.max(0, Math.min(own, shared));

function toDeparture(row: AvailabilityTableRow): Departure {
  return {
    id: row.id,
    tourId: row.tour_id,
    startsAt: toIso(row.starts_at),
    capacity: row.capacity,
    seatsRemaining: seatsLeft(row.capacity - row.booked_seats, row.shared_seats_left),
    bookedSeats: row.booked_seats,
    status: row.status,
    guideId: row.guide_id,
    driverId: row.driver_id,
    vehicleId: row.vehicle_id,
    bookingCutoffAt: toIsoOrNull(row.booking_cutoff_at),
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
    prices: row.prices,
    scheduleId: row.schedule_id,
    heldSeats: row.held_seats ?? 0,
    resourceIds: row.resource_ids ?? [],
  };
}

/** `from` and `to` are UTC calendar dates, both inclusive, on starts_at. */
function applyDateRange(query: Knex.QueryBuilder, filter: Pick<DepartureFilter, 'from' | 'to'>): void {
  if (filter.from) query.where('starts_at', '>=', utcDayStart(filter.from));
  if (filter.to) query.where('starts_at', '<', utcDayStart(filter.to, 1));
}

/** A member is busy as guide or as driver; a vehicle as itself. */
function assignedTo(query: Knex.QueryBuilder, resource: AssignedResource, prefix = ''): void {
  if ('vehicleId' in resource) {
    // A vehicle is also a resource (0020): named by hand in resource_ids, it is taken too.
    query.where((on) =>
      on
        .where(`${prefix}vehicle_id`, resource.vehicleId)
        .orWhereRaw(`${prefix}resource_ids @> array[?]::text[]`, [resource.vehicleId]),
    );
    return;
  }
  if ('resourceId' in resource) {
    query.whereRaw(`${prefix}resource_ids @> array[?]::text[]`, [resource.resourceId]);
    return;
  }
  query.where((who) =>
    who.where(`${prefix}guide_id`, resource.memberId).orWhere(`${prefix}driver_id`, resource.memberId),
  );
}

/**
 * Locks the departure (as `lock` does) unless another transaction holds it: null then, or
 * when there is none. For a lock taken out of the usual id order, where waiting could deadlock.
 */
export async function lockDepartureIfFree(
  db: Knex | Knex.Transaction,
  workspaceId: string,
  id: string,
): Promise<Departure | null> {
  const row = await db<AvailabilityTableRow>('availability')
    .select('availability.*', db.raw(heldSeatsOf('availability')), db.raw(sharedSeatsOf('availability')))
    .where({ workspace_id: workspaceId, id })
    .forNoKeyUpdate()
    .skipLocked()
    .first();
  return row ? toDeparture(row) : null;
}

export function createDepartureStore(db: Knex | Knex.Transaction): DepartureStore {
  const departures = (q: Knex = db) => q<AvailabilityTableRow>('availability');
  /** A read of departures with their held seats. */
  const read = (q: Knex = db) =>
    departures(q).select(
      'availability.*',
      q.raw(heldSeatsOf('availability')),
      q.raw(sharedSeatsOf('availability')),
    );
  const withHeld = (q: Knex = db) => [
    '*',
    q.raw(heldSeatsOf('availability')),
    q.raw(sharedSeatsOf('availability')),
  ];
  const findFullSharedResource = async (workspaceId: string, id: string): Promise<string | null> => {
    const result = await db.raw('select travelops_shared_seats_full(?, ?) as full', [workspaceId, id]);
    return (result as { rows: { full: string | null }[] }).rows[0]?.full ?? null;
  };

  return {
    async insert(workspaceId: string, departure: NewDeparture): Promise<Departure> {
      const [row] = await departures()
        .insert({
          id: departure.id,
          workspace_id: workspaceId,
          tour_id: departure.tourId,
          starts_at: departure.startsAt,
          capacity: departure.capacity,
          status: departure.status,
          booking_cutoff_at: departure.bookingCutoffAt,
          prices: JSON.stringify(departure.prices ?? []) as unknown as DeparturePrice[],
          schedule_id: departure.scheduleId ?? null,
          resource_ids: departure.resourceIds ?? [],
        })
        .returning(withHeld());
      return toDeparture(row as AvailabilityTableRow);
    },

    async findById(workspaceId: string, id: string): Promise<Departure | null> {
      const row = await read().where({ workspace_id: workspaceId, id }).first();
      return row ? toDeparture(row) : null;
    },

    async updateWith(
      workspaceId: string,
      id: string,
      decide: (current: Departure) => Result<DeparturePatch>,
    ): Promise<Result<Departure>> {
      try {
        // On a transaction this is a savepoint: a CHECK violation rolls back only this write.
        return await db.transaction(async (trx): Promise<Result<Departure>> => {
          const row = await read(trx).where({ workspace_id: workspaceId, id }).forNoKeyUpdate().first();
          if (!row) return fail(notFound('availability'));
          const decision = decide(toDeparture(row));
          if (!decision.ok) return decision;
          const changes = jsonColumns(toColumns(decision.value, PATCH_COLUMNS), ['prices']);
          // A seat write names no resource column, so the vehicle trigger (0020) stays off its path.
          if (Object.keys(changes).length === 0) return ok(toDeparture(row));
          const [updated] = await departures(trx)
            .where({ workspace_id: workspaceId, id })
            // A booking validated the departure before this edit takes no seat at its old version.
            .update({ ...changes, version: trx.raw('version + 1'), updated_at: trx.fn.now() })
            .returning(withHeld(trx));
          return ok(toDeparture(updated as AvailabilityTableRow));
        });
      } catch (error) {
        const known = constraintError(error, SEATS_VIOLATED);
        if (known) return fail(known);
        throw error;
      }
    },

    async list(workspaceId: string, filter: DepartureFilter, page: PageRequest): Promise<Page<Departure>> {
      const query = read().where({ workspace_id: workspaceId });
      if (filter.tourId) query.where({ tour_id: filter.tourId });
      applyDateRange(query, filter);
      if (page.after) {
        query.whereRaw('(starts_at, id) > (?::timestamptz, ?)', [keysetDate(page.after), page.after.id]);
      }
      const rows = await query.orderBy(['starts_at', 'id']).limit(page.limit + 1);
      return toPage(rows.map(toDeparture), page, (departure) => ({
        value: departure.startsAt,
        id: departure.id,
      }));
    },

    async lock(workspaceId: string, id: string): Promise<Departure | null> {
      // The lock an update of the row takes: it queues with seat writes and edits, and leaves
      // alone the key-share locks of bookings being inserted (their foreign key), which a
      // FOR UPDATE would wait out behind every booking in flight.
      const row = await read().where({ workspace_id: workspaceId, id }).forNoKeyUpdate().first();
      return row ? toDeparture(row) : null;
    },

    async findForBooking(workspaceId: string, id: string): Promise<DepartureForBooking | null> {
      // One statement for the departure, its tour and the blackouts of its UTC day and a day either side.
      const row:
        | (AvailabilityTableRow & { tour: TourRow; blackouts: BlackoutDay[]; shared: SharedSeats | null })
        | undefined = await prepared(db('availability as a'))
        .join('tours as t', (on) => on.on('t.workspace_id', 'a.workspace_id').andOn('t.id', 'a.tour_id'))
        .where({ 'a.workspace_id': workspaceId, 'a.id': id })
        .first(
          'a.*',
          db.raw('to_jsonb(t) as tour'),
          db.raw(
            `(select coalesce(jsonb_agg(jsonb_build_object('date', b.date::text, 'tourId', b.tour_id)
                                        order by b.date, b.id), '[]')
              from blackout_dates b
              where b.workspace_id = a.workspace_id
                and (b.tour_id is null or b.tour_id = a.tour_id)
                and b.date between (a.starts_at at time zone 'UTC')::date - 1
                               and (a.starts_at at time zone 'UTC')::date + 1) as blackouts`,
          ),
          // The tightest shared resource, in the same statement (nothing without resources).
          db.raw(
            `case when cardinality(a.resource_ids) > 0 then
                 (select json_build_object('resourceId', s.resource_id, 'seatsLeft', s.seats_left)
                    from travelops_shared_seats(a.workspace_id, a.id) s limit 1) end as shared`,
          ),
        );
      if (!row) return null;
      // The departure's own seats: the booking decides on its shared resource apart (resource_full).
      const { heldSeats: _, ...departure } = toDeparture(row);
      return {
        departure,
        tour: toTour(row.tour),
        blackouts: row.blackouts,
        version: row.version,
        sharedSeats: row.shared ?? null,
      };
    },

    async takeSeatsAtCommit(workspaceId: string, id: string, count: number, version: number): Promise<void> {
      // The conditional update of takeSeats, raising SEATS_REFUSED when it takes nothing (0016).
      await atCommitStatement(
        db,
        inlined(
          db.raw('select travelops_take_seats(?, ?, ?::integer, ?::integer)', [
            workspaceId,
            id,
            count,
            version,
          ]),
        ),
      );
    },

    async takeSeats(
      workspaceId: string,
      id: string,
      count: number,
      version: number,
    ): Promise<Result<true, SeatRefusal>> {
      // The arithmetic and the check happen in the row, under its lock (waiting for a concurrent
      // writer re-evaluates the condition on its committed row); no error, so no savepoint.
      const taken: Pick<AvailabilityTableRow, 'resource_ids'>[] = await prepared(departures())
        .where({ workspace_id: workspaceId, id, version })
        .whereRaw('booked_seats + ? <= capacity', [count])
        .update({ booked_seats: db.raw('booked_seats + ?', [count]), updated_at: db.fn.now() })
        .returning('resource_ids');
      const [took] = taken;
      if (took) {
        if (took.resource_ids.length === 0) return ok(true);
        // One statement more for a departure with resources: its shared ones, locked and checked.
        const full = await findFullSharedResource(workspaceId, id);
        return full ? fail({ reason: 'resource_full', resourceId: full }) : ok(true);
      }
      // A statement of its own, so it sees what was committed while the update waited.
      const now = await departures()
        .where({ workspace_id: workspaceId, id })
        .first('version', 'capacity', 'booked_seats');
      const left = now ? now.capacity - now.booked_seats : 0;
      if (!now || now.version !== version || left >= count) return fail({ reason: 'stale' });
      return fail({ reason: 'sold_out', seatsRemaining: left });
    },

    async adjustBookedSeats(workspaceId: string, id: string, delta: number): Promise<Result<Departure>> {
      // The arithmetic happens in the row, under its lock: no stale read can overbook. The
      // condition refuses what the seat CHECK would, without an error (so no savepoint), and
      // the CHECK stays as the backstop.
      const [row] = await departures()
        .where({ workspace_id: workspaceId, id })
        .whereRaw('booked_seats + ? between 0 and capacity', [delta])
        .update({ booked_seats: db.raw('booked_seats + ?', [delta]), updated_at: db.fn.now() })
        .returning(withHeld());
      if (row) return ok(toDeparture(row as AvailabilityTableRow));
      const exists = await departures().where({ workspace_id: workspaceId, id }).first('id');
      return fail(exists ? INSUFFICIENT_SEATS.availability_seats_check : notFound('availability'));
    },

    async listBookable(
      workspaceId: string,
      tourId: string,
      filter: Omit<DepartureFilter, 'tourId'>,
      now: Date,
      limit = MAX_BOOKABLE,
    ): Promise<Departure[]> {
      const query = read()
        .where({ workspace_id: workspaceId, tour_id: tourId })
        .whereIn('status', BOOKABLE_STATUSES)
        .where('starts_at', '>', now)
        .where((cutoff) => cutoff.whereNull('booking_cutoff_at').orWhere('booking_cutoff_at', '>', now));
      applyDateRange(query, filter);
      const rows = await query.orderBy(['starts_at', 'id']).limit(limit);
      return rows.map(toDeparture);
    },

    listCalendarDepartures(
      workspaceId: string,
      tourId: string,
      dayStarts: readonly number[],
      now: Date,
    ): Promise<CalendarDeparture[]> {
      return readCalendarDepartures(db, workspaceId, tourId, dayStarts, now);
    },

    async findOverlapping(
      workspaceId: string,
      resource: AssignedResource,
      start: Date,
      end: Date,
      excludeId: string,
    ): Promise<Departure[]> {
      // A resource's turnaround lengthens both departures: each keeps it busy that much longer.
      const turnaround = 'turnaroundMinutes' in resource ? resource.turnaroundMinutes : 0;
      const query = db('availability as a')
        .join('tours as t', 't.id', 'a.tour_id')
        .where('a.workspace_id', workspaceId)
        .whereNot('a.id', excludeId)
        .whereNot('a.status', 'CANCELLED')
        .where('a.starts_at', '<', new Date(end.getTime() + turnaround * 60_000))
        .whereRaw("a.starts_at + (t.duration_minutes + ?) * interval '1 minute' > ?", [turnaround, start])
        .select('a.*', db.raw(heldSeatsOf('a')), db.raw(sharedSeatsOf('a')));
      assignedTo(query, resource, 'a.');
      const rows: AvailabilityTableRow[] = await query.orderBy(['a.starts_at', 'a.id']);
      return rows.map(toDeparture);
    },

    async hasOpenAssignments(workspaceId: string, resource: AssignedResource): Promise<boolean> {
      const query = departures()
        .where({ workspace_id: workspaceId })
        .whereNotIn('status', ['COMPLETED', 'CANCELLED']);
      assignedTo(query, resource);
      return (await query.first('id')) !== undefined;
    },

    async listOpenAssignments(workspaceId: string, resource: AssignedResource): Promise<string[]> {
      const query = departures()
        .where({ workspace_id: workspaceId })
        .whereNotIn('status', ['COMPLETED', 'CANCELLED']);
      assignedTo(query, resource);
      const rows = await query.orderBy(['starts_at', 'id']).limit(20).select('id');
      return rows.map((row) => row.id);
    },

    findFullSharedResource,
  };
}
