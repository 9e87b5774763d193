import type { CustomerTimelineStore, TimelineRecord } from '@travelops/domain/crm';
import type { Page, PageRequest } from '@travelops/domain/shared';
import type { Knex } from 'knex';
import { type DbTimestamp, keysetDate, toIso, toPage } from './columns.js';

/** A timestamp inside jsonb, formatted as the API shows timestamps (UTC, milliseconds, Z). */
const iso = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * Each source of a customer's timeline: one SELECT of `id, type, occurred_at, booking_id, data`
 * for the customer's rows, with two bindings (workspace id, customer id). A new source (say,
 * incidents) is one more entry here and one more summary in the domain's `toTimelineEntry`.
 */
const TIMELINE_SOURCES: readonly string[] = [
  `select b.id, 'booking.created' as type, b.created_at as occurred_at, b.id as booking_id,
     jsonb_build_object('tourId', b.tour_id, 'availabilityId', b.availability_id,
       'startsAt', ${iso('b.starts_at')}, 'participantCount', b.participant_count,
       'totalAmount', b.total_amount, 'currency', b.currency, 'paymentMode', b.payment_mode) as data
   from bookings b where b.workspace_id = ? and b.customer_id = ?`,
  `select h.id, 'booking.status_changed', h.created_at, h.booking_id,
     jsonb_build_object('fromStatus', h.from_status, 'toStatus', h.to_status, 'reason', h.reason,
       'actor', jsonb_build_object('type', h.actor_type, 'id', h.actor_id))
   from booking_history h join bookings b on b.id = h.booking_id
   where h.from_status is not null and b.workspace_id = ? and b.customer_id = ?`,
  `select p.id, case p.kind when 'REFUND' then 'payment.refunded' else 'payment.succeeded' end,
     p.created_at, p.booking_id,
     jsonb_build_object('amount', p.amount, 'currency', p.currency, 'reason', p.reason)
   from payments p join bookings b on b.id = p.booking_id
   where b.workspace_id = ? and b.customer_id = ?`,
  `select n.id, 'note', n.created_at, null,
     jsonb_build_object('body', n.body, 'author', jsonb_build_object('type', n.author_type, 'id', n.author_id))
   from customer_notes n where n.workspace_id = ? and n.customer_id = ?`,
  `select t.id, 'crm_task', t.created_at, t.booking_id,
     jsonb_build_object('title', t.title, 'status', t.status, 'priority', t.priority,
       'dueAt', case when t.due_at is null then null else ${iso('t.due_at')} end)
   from crm_tasks t where t.workspace_id = ? and t.customer_id = ?`,
  `select i.id, 'incident', i.occurred_at, i.booking_id,
     jsonb_build_object('title', i.title, 'severity', i.severity, 'status', i.status)
   from incidents i join bookings b on b.id = i.booking_id
   where b.workspace_id = ? and b.customer_id = ?`,
];

interface TimelineRow {
  id: string;
  type: TimelineRecord['type'];
  occurred_at: DbTimestamp;
  booking_id: string | null;
  data: Record<string, unknown> | string;
}

const toRecord = (row: TimelineRow): TimelineRecord => ({
  id: row.id,
  type: row.type,
  occurredAt: toIso(row.occurred_at),
  bookingId: row.booking_id,
  data: typeof row.data === 'string' ? (JSON.parse(row.data) as Record<string, unknown>) : row.data,
});

export function createCustomerTimelineStore(db: Knex | Knex.Transaction): CustomerTimelineStore {
  return {
    async list(workspaceId: string, customerId: string, page: PageRequest): Promise<Page<TimelineRecord>> {
      const union = TIMELINE_SOURCES.map((source) => `(${source})`).join('\nunion all\n');
      const bindings: Knex.RawBinding[] = TIMELINE_SOURCES.flatMap(() => [workspaceId, customerId]);
      // PostgreSQL pushes the keyset condition into every branch; each reads its own index.
      let after = '';
      if (page.after) {
        after = 'where (occurred_at, id) < (?::timestamptz, ?)';
        bindings.push(keysetDate(page.after), page.after.id);
      }
      bindings.push(page.limit + 1);
      const result = await db.raw(
        `select id, type, occurred_at, booking_id, data from (${union}) as timeline
         ${after} order by occurred_at desc, id desc limit ?`,
        bindings,
      );
      const rows = (result as { rows: TimelineRow[] }).rows;
      return toPage(rows.map(toRecord), page, (item) => ({ value: item.occurredAt, id: item.id }));
    },
  };
}
