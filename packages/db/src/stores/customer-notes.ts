import type { Actor } from '@travelops/domain/bookings';
import type { CustomerNote, CustomerNoteStore } from '@travelops/domain/crm';
import type { Knex } from 'knex';
import { type DbTimestamp, toIso } from './columns.js';

interface NoteRow {
  id: string;
  workspace_id: string;
  customer_id: string;
  body: string;
  author_type: Actor['type'];
  author_id: string | null;
  created_at: DbTimestamp;
}

export function createCustomerNoteStore(db: Knex | Knex.Transaction): CustomerNoteStore {
  return {
    async insert(workspaceId: string, note: Omit<CustomerNote, 'createdAt'>): Promise<CustomerNote> {
      const [row] = await db<NoteRow>('customer_notes')
        .insert({
          id: note.id,
          workspace_id: workspaceId,
          customer_id: note.customerId,
          body: note.body,
          author_type: note.author.type,
          author_id: note.author.id,
        })
        .returning('*');
      const saved = row as NoteRow;
      return {
        id: saved.id,
        customerId: saved.customer_id,
        body: saved.body,
        author: { type: saved.author_type, id: saved.author_id },
        createdAt: toIso(saved.created_at),
      };
    },
  };
}
