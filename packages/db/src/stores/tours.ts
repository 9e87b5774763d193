import type {
  CalendarWindow,
  CancellationPolicy,
  NewTour,
  PublishedTour,
  ResourceRequirement,
  TicketType,
  Tour,
  TourAddOn,
  TourPatch,
  TourStore,
  VersionedPublishedTour,
} from '@travelops/domain/catalog';
import {
  conflict,
  fail,
  notFound,
  ok,
  type Page,
  type PageRequest,
  type Result,
} from '@travelops/domain/shared';
import type { Knex } from 'knex';
import { constraintError } from '../errors.js';
import {
  type DbBigint,
  type DbTimestamp,
  guarded,
  jsonColumns,
  pageNewestFirst,
  toColumns,
  toIso,
  toNumber,
} from './columns.js';
import { whereOpenInRange } from './departure-calendar.js';

export interface TourRow {
  id: string;
  workspace_id: string;
  slug: string;
  name: string;
  description: string;
  duration_minutes: number;
  base_price: DbBigint;
  currency: string;
  capacity: number;
  meeting_point: string | null;
  is_public: boolean;
  deposit_percent: number;
  add_ons: TourAddOn[];
  time_zone: string;
  ticket_types: TicketType[];
  cancellation_policy: CancellationPolicy;
  max_seats_per_public_booking: number;
  public_hold_minutes: number;
  reminder_hours_before: number | null;
  resource_requirements: ResourceRequirement[];
  created_at: DbTimestamp;
  updated_at: DbTimestamp;
}

const TOUR_COLUMNS = {
  slug: 'slug',
  name: 'name',
  description: 'description',
  durationMinutes: 'duration_minutes',
  basePrice: 'base_price',
  currency: 'currency',
  capacity: 'capacity',
  meetingPoint: 'meeting_point',
  isPublic: 'is_public',
  depositPercent: 'deposit_percent',
  addOns: 'add_ons',
  timeZone: 'time_zone',
  ticketTypes: 'ticket_types',
  cancellationPolicy: 'cancellation_policy',
  maxSeatsPerPublicBooking: 'max_seats_per_public_booking',
  publicHoldMinutes: 'public_hold_minutes',
  reminderHoursBefore: 'reminder_hours_before',
  resourceRequirements: 'resource_requirements',
} as const satisfies { readonly [K in keyof Required<TourPatch>]: string };

const JSON_COLUMNS = ['add_ons', 'ticket_types', 'cancellation_policy', 'resource_requirements'];

const SLUG_TAKEN = {
  tours_workspace_slug_key: conflict('A tour with this slug already exists.', 'slug', 'already_exists'),
};

/** What `findPublicCalendarTour` reads beside the tour. */
interface CalendarVersionColumns {
  tour_version: string;
  departures_version: string;
  blackouts_version: string;
}

export function toTour(row: TourRow): Tour {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    description: row.description,
    durationMinutes: row.duration_minutes,
    basePrice: toNumber(row.base_price),
    currency: row.currency,
    capacity: row.capacity,
    meetingPoint: row.meeting_point,
    isPublic: row.is_public,
    depositPercent: row.deposit_percent,
    addOns: row.add_ons,
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
    timeZone: row.time_zone,
    ticketTypes: row.ticket_types,
    cancellationPolicy: row.cancellation_policy,
    maxSeatsPerPublicBooking: row.max_seats_per_public_booking,
    publicHoldMinutes: row.public_hold_minutes,
    reminderHoursBefore: row.reminder_hours_before,
    // Absent only from a row read before migration 0020.
    resourceRequirements: row.resource_requirements ?? [],
  };
}

export function createTourStore(db: Knex | Knex.Transaction): TourStore {
  const tours = (q: Knex = db) => q<TourRow>('tours');

  async function findById(workspaceId: string, id: string): Promise<Tour | null> {
    const row = await tours().where({ workspace_id: workspaceId, id }).first();
    return row ? toTour(row) : null;
  }

  return {
    findById,

    async insert(workspaceId: string, tour: NewTour): Promise<Result<Tour>> {
      try {
        const [row] = await guarded(db, (q) =>
          tours(q)
            .insert({
              id: tour.id,
              workspace_id: workspaceId,
              ...jsonColumns(toColumns<TourPatch>(tour, TOUR_COLUMNS), JSON_COLUMNS),
            })
            .returning('*'),
        );
        return ok(toTour(row as TourRow));
      } catch (error) {
        const known = constraintError(error, SLUG_TAKEN);
        if (known) return fail(known);
        throw error;
      }
    },

    async findBySlug(workspaceId: string, slug: string): Promise<Tour | null> {
      const row = await tours().where({ workspace_id: workspaceId, slug }).first();
      return row ? toTour(row) : null;
    },

    async findByIds(workspaceId: string, ids: readonly string[]): Promise<Tour[]> {
      if (ids.length === 0) return [];
      const rows = await tours()
        .where({ workspace_id: workspaceId })
        .whereIn('id', [...ids]);
      return rows.map(toTour);
    },

    async update(workspaceId: string, id: string, patch: TourPatch): Promise<Result<Tour>> {
      const changes = jsonColumns(toColumns(patch, TOUR_COLUMNS), JSON_COLUMNS);
      if (Object.keys(changes).length === 0) {
        const current = await findById(workspaceId, id);
        return current ? ok(current) : fail(notFound('tour'));
      }
      try {
        const [row] = await guarded(db, (q) =>
          tours(q)
            .where({ workspace_id: workspaceId, id })
            .update({ ...changes, updated_at: q.fn.now() })
            .returning('*'),
        );
        return row ? ok(toTour(row as TourRow)) : fail(notFound('tour'));
      } catch (error) {
        const known = constraintError(error, SLUG_TAKEN);
        if (known) return fail(known);
        throw error;
      }
    },

    async list(workspaceId: string, page: PageRequest): Promise<Page<Tour>> {
      return pageNewestFirst(tours().where({ workspace_id: workspaceId }), page, toTour);
    },

    async ticketTypesInUse(workspaceId: string, tourId: string): Promise<Set<string>> {
      const rows = await db('bookings')
        .where({ workspace_id: workspaceId, tour_id: tourId })
        .whereNot('status', 'CANCELLED')
        .distinct(db.raw(`jsonb_array_elements(participants)->>'ticketTypeId' as id`));
      return new Set(rows.flatMap((row: { id: string | null }) => (row.id ? [row.id] : [])));
    },

    async findPublicBySlugs(workspaceSlug: string, tourSlug: string): Promise<PublishedTour | null> {
      // The workspace and its tour in one statement: the public pages ask on every call.
      const row = await tours()
        .select('tours.*')
        .join('workspaces', 'workspaces.id', 'tours.workspace_id')
        .where({ 'workspaces.slug': workspaceSlug, 'tours.slug': tourSlug, 'tours.is_public': true })
        .first();
      return row ? { workspaceId: row.workspace_id, tour: toTour(row) } : null;
    },

    async findPublicCalendarTour(
      workspaceSlug: string,
      tourSlug: string,
      window: CalendarWindow,
    ): Promise<VersionedPublishedTour | null> {
      // A row's xmin is the transaction that wrote this version of it: any update (seats, status,
      // prices, ticket types) gives a new one, an insert or a delete changes the set of ids. The
      // 64-bit hashes of (id, xmin) summed, with the count: equal sets, equal versions; no column
      // a writer could forget to touch, and no clock (updated_at is the writer's start, not its commit).
      const rowsVersion = (table: string) =>
        db.raw(
          `count(*)::text || ':' || coalesce(sum(hashtextextended(${table}.id || ':' || ${table}.xmin::text, 0)), 0)::text`,
        );
      // A departure on a shared resource changes with bookings on others (0020): its seats left
      // there join its row's version, at no cost for a departure without resources.
      const departures = whereOpenInRange(
        db('availability')
          .select(
            db.raw(
              `count(*)::text || ':' || coalesce(sum(hashtextextended(availability.id || ':' || availability.xmin::text
                 || coalesce(':' || (case when cardinality(availability.resource_ids) > 0 then
                      (select s.seats_left from travelops_shared_seats(availability.workspace_id, availability.id) s limit 1)
                    end)::text, ''), 0)), 0)::text`,
            ),
          )
          .where('availability.workspace_id', db.ref('tours.workspace_id'))
          .where('availability.tour_id', db.ref('tours.id')),
        window.departures,
        window.now,
      );
      const blackouts = db('blackout_dates')
        .select(rowsVersion('blackout_dates'))
        .where('blackout_dates.workspace_id', db.ref('tours.workspace_id'))
        .where((scope) =>
          scope.whereNull('blackout_dates.tour_id').orWhere('blackout_dates.tour_id', db.ref('tours.id')),
        )
        .where('blackout_dates.date', '>=', window.blackouts.from)
        .where('blackout_dates.date', '<=', window.blackouts.to);
      const row = (await tours()
        .select(
          'tours.*',
          db.raw('tours.xmin::text as tour_version'),
          departures.as('departures_version'),
          blackouts.as('blackouts_version'),
        )
        .join('workspaces', 'workspaces.id', 'tours.workspace_id')
        .where({ 'workspaces.slug': workspaceSlug, 'tours.slug': tourSlug, 'tours.is_public': true })
        .first()) as (TourRow & CalendarVersionColumns) | undefined;
      if (!row) return null;
      return {
        workspaceId: row.workspace_id,
        tour: toTour(row),
        version: [row.id, row.tour_version, row.departures_version, row.blackouts_version].join(' '),
      };
    },

    async listPublic(workspaceId: string): Promise<Tour[]> {
      const rows = await tours()
        .where({ workspace_id: workspaceId, is_public: true })
        .orderBy([
          { column: 'created_at', order: 'desc' },
          { column: 'id', order: 'desc' },
        ]);
      return rows.map(toTour);
    },
  };
}
