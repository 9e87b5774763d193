import type {
  NewResource,
  OversoldDeparture,
  Resource,
  ResourceKind,
  ResourcePatch,
  ResourceStore,
} from '@travelops/domain/catalog';
import type { Page, PageRequest } from '@travelops/domain/shared';
import type { Knex } from 'knex';
import { type DbTimestamp, pageNewestFirst, toColumns, toIso } from './columns.js';

interface ResourceRow {
  id: string;
  workspace_id: string;
  kind: ResourceKind;
  name: string;
  seats: number | null;
  sharing: Resource['sharing'];
  turnaround_minutes: number;
  active: boolean;
  created_at: DbTimestamp;
  updated_at: DbTimestamp;
}

const RESOURCE_COLUMNS = {
  name: 'name',
  seats: 'seats',
  sharing: 'sharing',
  turnaroundMinutes: 'turnaround_minutes',
  active: 'active',
} as const satisfies { readonly [K in keyof Required<ResourcePatch>]: string };

const toResource = (row: ResourceRow): Resource => ({
  id: row.id,
  kind: row.kind,
  name: row.name,
  seats: row.seats,
  sharing: row.sharing,
  turnaroundMinutes: row.turnaround_minutes,
  active: row.active,
  createdAt: toIso(row.created_at),
  updatedAt: toIso(row.updated_at),
});

/**
 * Departures (not cancelled) on resource `?` (binding 1, with its workspace, binding 2) that
 * overlap departure `o`, each lengthened by the turnaround `?` (bindings 3 and 4).
 */
const OVERLAPPING_ON_RESOURCE = `
  from availability p
  join tours pt on pt.workspace_id = p.workspace_id and pt.id = p.tour_id
 where p.resource_ids @> array[?]::text[] and p.workspace_id = ? and p.status <> 'CANCELLED'
   and p.starts_at < o.starts_at + make_interval(mins => ot.duration_minutes + ?)
   and p.starts_at + make_interval(mins => pt.duration_minutes + ?) > o.starts_at`;

export function createResourceStore(db: Knex | Knex.Transaction): ResourceStore {
  const resources = (q: Knex = db) => q<ResourceRow>('resources');

  return {
    async insert(workspaceId: string, resource: NewResource): Promise<Resource> {
      const [row] = await resources()
        .insert({
          id: resource.id,
          workspace_id: workspaceId,
          kind: resource.kind,
          ...toColumns<ResourcePatch>(resource, RESOURCE_COLUMNS),
        })
        .returning('*');
      return toResource(row as ResourceRow);
    },

    async findById(workspaceId: string, id: string): Promise<Resource | null> {
      const row = await resources().where({ workspace_id: workspaceId, id }).first();
      return row ? toResource(row) : null;
    },

    async findByIds(workspaceId: string, ids: readonly string[]): Promise<Resource[]> {
      if (ids.length === 0) return [];
      const rows = await resources().where({ workspace_id: workspaceId }).whereIn('id', ids);
      return rows.map(toResource);
    },

    async lock(workspaceId: string, id: string): Promise<Resource | null> {
      // The lock travelops_shared_seats_full takes: bookings and edits of one resource queue together.
      const row = await resources().where({ workspace_id: workspaceId, id }).forNoKeyUpdate().first();
      return row ? toResource(row) : null;
    },

    async update(workspaceId: string, id: string, patch: ResourcePatch): Promise<Resource | null> {
      const [row] = await resources()
        .where({ workspace_id: workspaceId, id })
        .update({ ...toColumns(patch, RESOURCE_COLUMNS), updated_at: db.fn.now() })
        .returning('*');
      return row ? toResource(row as ResourceRow) : null;
    },

    list(workspaceId: string, filter: { kind?: ResourceKind }, page: PageRequest): Promise<Page<Resource>> {
      const query = resources().where({ workspace_id: workspaceId });
      if (filter.kind) query.where({ kind: filter.kind });
      return pageNewestFirst(query, page, toResource);
    },

    async delete(workspaceId: string, id: string): Promise<boolean> {
      const gone = await resources().where({ workspace_id: workspaceId, id }).del().returning('id');
      return gone.length > 0;
    },

    async findFree(workspaceId, want): Promise<Resource | null> {
      const end = new Date(want.start.getTime() + want.minutes * 60_000);
      const query = resources()
        .where({ workspace_id: workspaceId, kind: want.kind, active: true })
        .where('seats', '>=', want.seats)
        .whereNotExists((busy) =>
          busy
            .from('availability as p')
            .join('tours as pt', (on) =>
              on.on('pt.workspace_id', 'p.workspace_id').andOn('pt.id', 'p.tour_id'),
            )
            .whereRaw('p.resource_ids @> array[resources.id]::text[]')
            .where('p.workspace_id', workspaceId)
            .whereNot('p.status', 'CANCELLED')
            .whereNot('p.id', want.excludeId ?? '')
            .whereRaw('p.starts_at < ?::timestamptz + make_interval(mins => resources.turnaround_minutes)', [
              end,
            ])
            .whereRaw(
              'p.starts_at + make_interval(mins => pt.duration_minutes + resources.turnaround_minutes) > ?',
              [want.start],
            ),
        );
      if (want.excludeIds.length > 0) query.whereNotIn('id', want.excludeIds);
      const row = await query.orderBy(['name', 'id']).first();
      return row ? toResource(row) : null;
    },

    async findDoubleBooked(workspaceId, id, turnaroundMinutes) {
      const result = await db.raw(
        `select o.id, o.tour_id, o.starts_at
           from availability o
           join tours ot on ot.workspace_id = o.workspace_id and ot.id = o.tour_id
          where o.workspace_id = ? and o.resource_ids @> array[?]::text[] and o.status <> 'CANCELLED'
            and exists (select 1 ${OVERLAPPING_ON_RESOURCE} and p.id <> o.id)
          order by o.starts_at, o.id
          limit 1`,
        [workspaceId, id, id, workspaceId, turnaroundMinutes, turnaroundMinutes],
      );
      const row = (result as { rows: { id: string; tour_id: string; starts_at: DbTimestamp }[] }).rows[0];
      return row ? { id: row.id, tourId: row.tour_id, startsAt: toIso(row.starts_at) } : null;
    },

    async findOversold(workspaceId, id, limits): Promise<OversoldDeparture[]> {
      // Each departure on the resource not yet over, with the seats booked around it there.
      const result = await db.raw(
        `select o.id, (select coalesce(sum(p.booked_seats), 0)::int ${OVERLAPPING_ON_RESOURCE}) as seats_used
           from availability o
           join tours ot on ot.workspace_id = o.workspace_id and ot.id = o.tour_id
          where o.workspace_id = ? and o.resource_ids @> array[?]::text[]
            and o.status not in ('CANCELLED', 'COMPLETED') and o.booked_seats > 0
          order by o.starts_at, o.id`,
        [id, workspaceId, limits.turnaroundMinutes, limits.turnaroundMinutes, workspaceId, id],
      );
      const rows = (result as { rows: { id: string; seats_used: number }[] }).rows;
      return rows
        .filter((row) => row.seats_used > limits.seats)
        .slice(0, 20)
        .map((row) => ({ id: row.id, seatsUsed: row.seats_used }));
    },
  };
}
