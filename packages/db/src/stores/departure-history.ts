import type { DepartureHistoryEntry, DepartureHistoryStore } from '@travelops/domain/operations';
import type { Knex } from 'knex';
import { type DbTimestamp, toIso } from './columns.js';

interface DepartureHistoryRow {
  id: string;
  workspace_id: string;
  availability_id: string;
  kind: DepartureHistoryEntry['kind'];
  field: string;
  issue: string;
  message: string;
  actor_type: DepartureHistoryEntry['actor']['type'];
  actor_id: string | null;
  created_at: DbTimestamp;
}

const toEntry = (row: DepartureHistoryRow): DepartureHistoryEntry => ({
  id: row.id,
  availabilityId: row.availability_id,
  kind: row.kind,
  field: row.field,
  issue: row.issue,
  message: row.message,
  actor: { type: row.actor_type, id: row.actor_id },
  createdAt: toIso(row.created_at),
});

export function createDepartureHistoryStore(db: Knex | Knex.Transaction): DepartureHistoryStore {
  const history = () => db<DepartureHistoryRow>('departure_history');
  return {
    async append(workspaceId, entry): Promise<void> {
      await history().insert({
        id: entry.id,
        workspace_id: workspaceId,
        availability_id: entry.availabilityId,
        kind: entry.kind,
        field: entry.field,
        issue: entry.issue,
        message: entry.message,
        actor_type: entry.actor.type,
        actor_id: entry.actor.id,
      });
    },
    async list(workspaceId, availabilityId): Promise<DepartureHistoryEntry[]> {
      const rows = await history()
        .where({ workspace_id: workspaceId, availability_id: availabilityId })
        .orderBy(['created_at', 'id']);
      return rows.map(toEntry);
    },
  };
}
