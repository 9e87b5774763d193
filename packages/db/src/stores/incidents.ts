import type {
  Incident,
  IncidentFilter,
  IncidentPatch,
  IncidentStore,
  NewIncident,
} from '@travelops/domain/operations';
import type { Page, PageRequest } from '@travelops/domain/shared';
import type { Knex } from 'knex';
import { type DbTimestamp, toColumns, toIso, toIsoOrNull } from './columns.js';
import { pageDescending, whereTimestampInDays } from './operations-columns.js';

interface IncidentRow {
  id: string;
  workspace_id: string;
  availability_id: string | null;
  booking_id: string | null;
  severity: Incident['severity'];
  status: Incident['status'];
  title: string;
  description: string | null;
  occurred_at: DbTimestamp;
  reported_by: string;
  resolved_at: DbTimestamp | null;
  created_at: DbTimestamp;
  updated_at: DbTimestamp;
}

const PATCH_COLUMNS = {
  status: 'status',
  severity: 'severity',
  title: 'title',
  description: 'description',
  resolvedAt: 'resolved_at',
} as const satisfies { readonly [K in keyof Required<IncidentPatch>]: string };

const toIncident = (row: IncidentRow): Incident => ({
  id: row.id,
  availabilityId: row.availability_id,
  bookingId: row.booking_id,
  severity: row.severity,
  status: row.status,
  title: row.title,
  description: row.description,
  occurredAt: toIso(row.occurred_at),
  reportedBy: row.reported_by,
  resolvedAt: toIsoOrNull(row.resolved_at),
  createdAt: toIso(row.created_at),
  updatedAt: toIso(row.updated_at),
});

export function createIncidentStore(db: Knex | Knex.Transaction): IncidentStore {
  const incidents = () => db<IncidentRow>('incidents');

  return {
    async insert(workspaceId: string, incident: NewIncident): Promise<Incident> {
      const [row] = await incidents()
        .insert({
          id: incident.id,
          workspace_id: workspaceId,
          availability_id: incident.availabilityId,
          booking_id: incident.bookingId,
          severity: incident.severity,
          status: incident.status,
          title: incident.title,
          description: incident.description,
          occurred_at: incident.occurredAt,
          reported_by: incident.reportedBy,
          resolved_at: incident.resolvedAt,
        })
        .returning('*');
      return toIncident(row as IncidentRow);
    },

    async findById(workspaceId: string, id: string): Promise<Incident | null> {
      const row = await incidents().where({ workspace_id: workspaceId, id }).first();
      return row ? toIncident(row) : null;
    },

    async lock(workspaceId: string, id: string): Promise<Incident | null> {
      const row = await incidents().where({ workspace_id: workspaceId, id }).forUpdate().first();
      return row ? toIncident(row) : null;
    },

    async update(workspaceId: string, id: string, patch: IncidentPatch): Promise<Incident> {
      const [row] = await incidents()
        .where({ workspace_id: workspaceId, id })
        .update({ ...toColumns(patch, PATCH_COLUMNS), updated_at: db.fn.now() })
        .returning('*');
      return toIncident(row as IncidentRow);
    },

    list(workspaceId: string, filter: IncidentFilter, page: PageRequest): Promise<Page<Incident>> {
      const query = incidents().where({ workspace_id: workspaceId });
      if (filter.severity) query.where({ severity: filter.severity });
      if (filter.status) query.where({ status: filter.status });
      whereTimestampInDays(query, 'occurred_at', filter);
      return pageDescending(query, 'occurred_at', page, toIncident, (incident) => incident.occurredAt);
    },
  };
}
