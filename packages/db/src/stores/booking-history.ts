import type {
  Actor,
  BookingHistoryEntry,
  BookingHistoryStore,
  NewHistoryEntry,
} from '@travelops/domain/bookings';
import type { BookingStatus, Page, PageRequest } from '@travelops/domain/shared';
import type { Knex } from 'knex';
import { type DbTimestamp, toIso, toPage } from './columns.js';

interface HistoryRow {
  id: string;
  workspace_id: string;
  booking_id: string;
  from_status: BookingStatus | null;
  to_status: BookingStatus;
  reason: string | null;
  actor_type: Actor['type'];
  actor_id: string | null;
  created_at: DbTimestamp;
}

const toEntry = (row: HistoryRow): BookingHistoryEntry => ({
  id: row.id,
  bookingId: row.booking_id,
  fromStatus: row.from_status,
  toStatus: row.to_status,
  reason: row.reason,
  actor: { type: row.actor_type, id: row.actor_id },
  createdAt: toIso(row.created_at),
});

/** The row of a new entry (the bookings store writes a new booking's first one). */
export const toNewHistoryRow = (entry: NewHistoryEntry) => ({
  id: entry.id,
  workspace_id: entry.workspaceId,
  booking_id: entry.bookingId,
  from_status: entry.fromStatus,
  to_status: entry.toStatus,
  reason: entry.reason,
  actor_type: entry.actor.type,
  actor_id: entry.actor.id,
});

export function createBookingHistoryStore(db: Knex | Knex.Transaction): BookingHistoryStore {
  const history = () => db<HistoryRow>('booking_history');

  return {
    async append(entry: NewHistoryEntry): Promise<void> {
      await history().insert(toNewHistoryRow(entry));
    },

    async list(
      workspaceId: string,
      bookingId: string,
      page: PageRequest,
    ): Promise<Page<BookingHistoryEntry>> {
      const query = history().where({ workspace_id: workspaceId, booking_id: bookingId });
      // Written order is seq order (see the migration); the keyset's id names the last entry seen.
      if (page.after) {
        query.whereRaw('seq > (select seq from booking_history where id = ?)', [page.after.id]);
      }
      const rows = await query.orderBy('seq').limit(page.limit + 1);
      return toPage(rows.map(toEntry), page, (entry) => ({ value: entry.createdAt, id: entry.id }));
    },
  };
}
