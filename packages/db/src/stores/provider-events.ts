import type { ProviderEventStore } from '@travelops/domain/payments';
import type { Knex } from 'knex';

export function createProviderEventStore(db: Knex | Knex.Transaction): ProviderEventStore {
  return {
    async claim(provider: string, eventId: string, type: string): Promise<boolean> {
      // A twin inserting the same key waits on the primary key until this transaction ends.
      const rows = await db('provider_events')
        .insert({ provider, event_id: eventId, type })
        .onConflict(['provider', 'event_id'])
        .ignore()
        .returning('event_id');
      return rows.length === 1;
    },
  };
}
