import type {
  DayOfWeek,
  NewDeparture,
  NewSchedule,
  Schedule,
  ScheduleDeparture,
  SchedulePatch,
  ScheduleStore,
} from '@travelops/domain/catalog';
import type { Page, PageRequest } from '@travelops/domain/shared';
import type { Knex } from 'knex';
import { type DbTimestamp, pageNewestFirst, toColumns, toIso, toIsoOrNull } from './columns.js';
import { toDay } from './operations-columns.js';

interface ScheduleRow {
  id: string;
  tour_id: string;
  days_of_week: DayOfWeek[];
  times: string[];
  starts_on_day: string;
  ends_on_day: string;
  capacity: number | null;
  status: Schedule['status'];
  cancelled_at: DbTimestamp | null;
  created_at: DbTimestamp;
  updated_at: DbTimestamp;
}

interface DepartureRow {
  id: string;
  starts_at: DbTimestamp;
  capacity: number;
  status: ScheduleDeparture['departure']['status'];
  booked_seats: number;
}

const PATCH_COLUMNS = {
  daysOfWeek: 'days_of_week',
  times: 'times',
  startsOn: 'starts_on',
  endsOn: 'ends_on',
  capacity: 'capacity',
  status: 'status',
  cancelledAt: 'cancelled_at',
} as const satisfies { readonly [K in keyof Required<SchedulePatch>]: string };

/** Rows per statement: well under PostgreSQL's 65535 bind parameters. */
const CHUNK = 1000;

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

const toSchedule = (row: ScheduleRow): Schedule => ({
  id: row.id,
  tourId: row.tour_id,
  daysOfWeek: row.days_of_week,
  times: row.times,
  startsOn: toDay(row.starts_on_day),
  endsOn: toDay(row.ends_on_day),
  capacity: row.capacity,
  status: row.status,
  cancelledAt: toIsoOrNull(row.cancelled_at),
  createdAt: toIso(row.created_at),
  updatedAt: toIso(row.updated_at),
});

export function createScheduleStore(db: Knex | Knex.Transaction): ScheduleStore {
  // Dates as text: pg would turn a `date` into local midnight (see toDay).
  const select = () =>
    db('schedules').select(
      'id',
      'tour_id',
      'days_of_week',
      'times',
      'capacity',
      'status',
      'cancelled_at',
      'created_at',
      'updated_at',
      db.raw('starts_on::text as starts_on_day'),
      db.raw('ends_on::text as ends_on_day'),
    );

  async function read(workspaceId: string, id: string): Promise<Schedule> {
    const row: ScheduleRow | undefined = await select().where({ workspace_id: workspaceId, id }).first();
    // Callers read what they have just written in this transaction.
    if (!row) throw new Error(`Schedule ${id} vanished after its write.`);
    return toSchedule(row);
  }

  async function updateDepartures(
    workspaceId: string,
    ids: readonly string[],
    changes: Record<string, unknown>,
  ): Promise<void> {
    for (const chunk of chunks(ids)) {
      await db('availability')
        .where({ workspace_id: workspaceId })
        .whereIn('id', chunk)
        // An edit: a booking that validated the old departure takes no seat on it (see takeSeats).
        .update({ ...changes, version: db.raw('version + 1'), updated_at: db.fn.now() });
    }
  }

  /** NO KEY UPDATE leaves the KEY SHARE locks of foreign-key checks (bookings, departures) free. */
  async function lockTour(workspaceId: string, tourId: string): Promise<void> {
    await db('tours').where({ workspace_id: workspaceId, id: tourId }).forNoKeyUpdate().first('id');
  }

  return {
    async insert(workspaceId: string, schedule: NewSchedule): Promise<Schedule> {
      await db('schedules').insert({
        id: schedule.id,
        workspace_id: workspaceId,
        tour_id: schedule.tourId,
        days_of_week: schedule.daysOfWeek,
        times: schedule.times,
        starts_on: schedule.startsOn,
        ends_on: schedule.endsOn,
        capacity: schedule.capacity,
      });
      return read(workspaceId, schedule.id);
    },

    list(workspaceId: string, tourId: string, page: PageRequest): Promise<Page<Schedule>> {
      return pageNewestFirst(
        select().where({ workspace_id: workspaceId, tour_id: tourId }),
        page,
        toSchedule,
      );
    },

    async findById(workspaceId: string, tourId: string, id: string): Promise<Schedule | null> {
      const row: ScheduleRow | undefined = await select()
        .where({ workspace_id: workspaceId, tour_id: tourId, id })
        .first();
      return row ? toSchedule(row) : null;
    },

    async lockAndCountActive(workspaceId: string, tourId: string, today: string): Promise<number> {
      await lockTour(workspaceId, tourId);
      const [row] = await db('schedules')
        .where({ workspace_id: workspaceId, tour_id: tourId, status: 'ACTIVE' })
        .where('ends_on', '>=', today)
        .count<{ count: string | number }[]>({ count: '*' });
      return Number(row?.count ?? 0);
    },

    async lock(workspaceId: string, tourId: string, id: string): Promise<Schedule | null> {
      const row: ScheduleRow | undefined = await select()
        .where({ workspace_id: workspaceId, tour_id: tourId, id })
        .forUpdate()
        .first();
      return row ? toSchedule(row) : null;
    },

    async update(workspaceId: string, id: string, patch: SchedulePatch): Promise<Schedule> {
      await db('schedules')
        .where({ workspace_id: workspaceId, id })
        .update({ ...toColumns(patch, PATCH_COLUMNS), updated_at: db.fn.now() });
      return read(workspaceId, id);
    },

    async insertDepartures(workspaceId: string, tourId: string, departures: NewDeparture[]): Promise<number> {
      if (departures.length === 0) return 0;
      // Serialises generation per tour, so two schedules made at once cannot both take a start.
      await lockTour(workspaceId, tourId);
      let inserted = 0;
      for (const chunk of chunks(departures)) {
        const values = chunk
          .map(() => '(?, ?::timestamptz, ?::integer, ?, ?::timestamptz, ?, ?::text[])')
          .join(', ');
        const result: { rows: { id: string }[] } = await db.raw(
          `insert into availability
             (id, workspace_id, tour_id, starts_at, capacity, status, booking_cutoff_at, schedule_id, resource_ids)
           select d.id, ?, ?, d.starts_at, d.capacity, d.status, d.booking_cutoff_at, d.schedule_id, d.resource_ids
           from (values ${values}) as d (id, starts_at, capacity, status, booking_cutoff_at, schedule_id, resource_ids)
           where not exists (
             select 1 from availability a
             where a.tour_id = ? and a.starts_at = d.starts_at and a.status <> 'CANCELLED'
           )
           on conflict (schedule_id, starts_at) where schedule_id is not null do nothing
           returning id`,
          [
            workspaceId,
            tourId,
            ...chunk.flatMap((d) => [
              d.id,
              d.startsAt.toISOString(),
              d.capacity,
              d.status,
              d.bookingCutoffAt?.toISOString() ?? null,
              d.scheduleId ?? null,
              d.resourceIds ?? [],
            ]),
            tourId,
          ],
        );
        inserted += result.rows.length;
      }
      return inserted;
    },

    async lockFutureDepartures(
      workspaceId: string,
      scheduleId: string,
      after: Date,
    ): Promise<ScheduleDeparture[]> {
      const future = (q: Knex.QueryBuilder) =>
        q
          .where({ 'a.workspace_id': workspaceId, 'a.schedule_id': scheduleId })
          .where('a.starts_at', '>', after)
          .whereNot('a.status', 'CANCELLED');
      // Locked in id order, the order bookings take departures in: no lock cycle.
      const rows: DepartureRow[] = await future(db('availability as a'))
        .orderBy('a.id')
        .forUpdate()
        .select('a.id', 'a.starts_at', 'a.capacity', 'a.status', 'a.booked_seats');
      if (rows.length === 0) return [];
      // A new statement, so a new snapshot: bookings committed while this waited for the locks
      // are seen, and none can be added to these departures before this transaction ends.
      const named = new Set<string>(
        await future(db('bookings as b').join('availability as a', 'a.id', 'b.availability_id'))
          .where('b.workspace_id', workspaceId)
          .distinct()
          .pluck('b.availability_id'),
      );
      return rows.map((row) => ({
        departure: {
          id: row.id,
          startsAt: toIso(row.starts_at),
          capacity: row.capacity,
          status: row.status,
        },
        booked: row.booked_seats > 0 || named.has(row.id),
      }));
    },

    resizeDepartures(workspaceId: string, ids: readonly string[], capacity: number): Promise<void> {
      return updateDepartures(workspaceId, ids, { capacity });
    },

    async removeDepartures(workspaceId: string, ids: readonly string[]): Promise<void> {
      const kept: string[] = [];
      for (const chunk of chunks(ids)) {
        const deleted = new Set<string>(
          await db('availability')
            .where({ workspace_id: workspaceId })
            .whereIn('id', chunk)
            // An incident filed against a departure keeps it: it is cancelled instead.
            .whereNotExists((q) =>
              q.select(1).from('incidents').whereRaw('incidents.availability_id = availability.id'),
            )
            .del()
            .returning('id')
            .then((rows: { id: string }[]) => rows.map((row) => row.id)),
        );
        kept.push(...chunk.filter((id) => !deleted.has(id)));
      }
      await updateDepartures(workspaceId, kept, { status: 'CANCELLED' });
    },

    cancelDepartures(workspaceId: string, ids: readonly string[]): Promise<void> {
      return updateDepartures(workspaceId, ids, { status: 'CANCELLED' });
    },
  };
}
