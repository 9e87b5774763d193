import type { OutboxEvent, OutboxStore } from '@travelops/domain/events';
import type { Knex } from 'knex';
import { noteOutboxAppend } from '../outbox-notify.js';
import { prepared } from '../prepared.js';

export function createOutboxStore(db: Knex | Knex.Transaction): OutboxStore {
  return {
    async append(event: OutboxEvent, aggregateId: string): Promise<void> {
      // The whole envelope is the payload: the worker delivers exactly what was decided here.
      await prepared(db('outbox_events')).insert({
        id: event.id,
        workspace_id: event.workspaceId,
        aggregate_id: aggregateId,
        type: event.type,
        payload: JSON.stringify(event),
        created_at: event.createdAt,
      });
      // Wakes the delivery workers once this commits (see outbox-notify.ts).
      noteOutboxAppend(db);
    },
  };
}
