import type { OutboxEvent } from '@travelops/domain/events';
import { newId, type Page, type PageRequest } from '@travelops/domain/shared';
import type {
  ClaimedDelivery,
  DeliveryAttemptResult,
  WebhookDelivery,
  WebhookDeliveryRecord,
  WebhookDeliveryStore,
} from '@travelops/domain/webhooks';
import type { Knex } from 'knex';
import { type DbBigint, type DbTimestamp, pageNewestFirst, toIso, toIsoOrNull, toNumber } from './columns.js';
import { toEndpointRecord, type WebhookEndpointRow } from './webhook-endpoints.js';

interface DeliveryRow {
  id: string;
  workspace_id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  aggregate_id: string;
  event_seq: DbBigint;
  status: WebhookDelivery['status'];
  attempts: number;
  next_attempt_at: DbTimestamp | null;
  locked_until: DbTimestamp | null;
  last_attempt_at: DbTimestamp | null;
  last_status_code: number | null;
  last_error: string | null;
  delivered_at: DbTimestamp | null;
  created_at: DbTimestamp;
}

const toDeliveryRecord = (row: DeliveryRow): WebhookDeliveryRecord => ({
  id: row.id,
  workspaceId: row.workspace_id,
  endpointId: row.endpoint_id,
  eventId: row.event_id,
  eventType: row.event_type,
  aggregateId: row.aggregate_id,
  eventSeq: toNumber(row.event_seq),
  status: row.status,
  attempts: row.attempts,
  nextAttemptAt: toIsoOrNull(row.next_attempt_at),
  lastAttemptAt: toIsoOrNull(row.last_attempt_at),
  lastStatusCode: row.last_status_code,
  lastError: row.last_error,
  deliveredAt: toIsoOrNull(row.delivered_at),
  createdAt: toIso(row.created_at),
});

/** An event taken for fan-out, with one of the endpoints it goes to (null: nobody subscribes). */
interface FanOutRow {
  event_id: string;
  endpoint_id: string | null;
}

// Events nobody has fanned out, oldest first; SKIP LOCKED lets concurrent workers take disjoint
// batches. The left join keeps events that no endpoint wants: they are marked published too.
const TAKE_EVENTS = `
with taken as (
  select id, seq, workspace_id, type
  from outbox_events
  where published_at is null
  order by seq
  limit ?
  for update skip locked
)
select taken.id as event_id, e.id as endpoint_id
from taken
left join webhook_endpoints e
  on e.workspace_id = taken.workspace_id and e.enabled and taken.type = any(e.events)
order by taken.seq, e.id`;

// Ids come from newId (one generator), so the pairs arrive as three parallel arrays: one
// INSERT ... SELECT whatever the batch size, with the event's columns copied from the outbox.
const INSERT_DELIVERIES = `
insert into webhook_deliveries
  (id, workspace_id, endpoint_id, event_id, event_type, aggregate_id, event_seq, status, next_attempt_at)
select pair.id, o.workspace_id, pair.endpoint_id, o.id, o.type, o.aggregate_id, o.seq, 'PENDING', now()
from unnest(?::text[], ?::text[], ?::text[]) as pair (id, endpoint_id, event_id)
join outbox_events o on o.id = pair.event_id
on conflict (endpoint_id, event_id) do nothing`;

// A delivery is due when its time has come, its endpoint is enabled and no worker holds its
// lease. Order per aggregate and endpoint: it waits while an earlier delivery is PENDING, and
// while an earlier event of the aggregate is not fanned out yet (a concurrent fan-out may
// still be inserting it). FOR UPDATE OF d SKIP LOCKED: concurrent claims take disjoint rows,
// and a row another claim has just leased fails the locked_until re-check. One statement,
// with the envelope and the endpoint: a claim is one round trip (a woken worker claims often).
const CLAIM_DUE = `
with due as (
  select d.id
  from webhook_deliveries d
  join webhook_endpoints e on e.id = d.endpoint_id
  where d.status = 'PENDING'
    and d.next_attempt_at <= :now
    and (d.locked_until is null or d.locked_until < :now)
    and e.enabled
    and not exists (
      select 1 from webhook_deliveries earlier
      where earlier.endpoint_id = d.endpoint_id
        and earlier.aggregate_id = d.aggregate_id
        and earlier.status = 'PENDING'
        and earlier.event_seq < d.event_seq
    )
    and not exists (
      select 1 from outbox_events unpublished
      where unpublished.aggregate_id = d.aggregate_id
        and unpublished.seq < d.event_seq
        and unpublished.published_at is null
    )
  order by d.event_seq
  limit :limit
  for update of d skip locked
),
claimed as (
  update webhook_deliveries d
  set locked_until = :lockedUntil
  from due
  where d.id = due.id
  returning d.*
)
select claimed.*, o.payload as event_payload, to_jsonb(e) as endpoint_row
from claimed
join outbox_events o on o.id = claimed.event_id
join webhook_endpoints e on e.id = claimed.endpoint_id
order by claimed.event_seq`;

export function createWebhookDeliveryStore(db: Knex | Knex.Transaction): WebhookDeliveryStore {
  const deliveries = () => db<DeliveryRow>('webhook_deliveries');

  return {
    async fanOut(limit: number): Promise<number> {
      return db.transaction(async (trx) => {
        const taken: { rows: FanOutRow[] } = await trx.raw(TAKE_EVENTS, [limit]);
        const eventIds = [...new Set(taken.rows.map((row) => row.event_id))];
        if (eventIds.length === 0) return 0;
        const pairs = taken.rows.filter((row): row is FanOutRow & { endpoint_id: string } =>
          Boolean(row.endpoint_id),
        );
        if (pairs.length > 0) {
          await trx.raw(INSERT_DELIVERIES, [
            pairs.map(() => newId('webhookDelivery')),
            pairs.map((pair) => pair.endpoint_id),
            pairs.map((pair) => pair.event_id),
          ]);
        }
        await trx('outbox_events').whereIn('id', eventIds).update({ published_at: trx.fn.now() });
        return eventIds.length;
      });
    },

    async claimDue(now: Date, limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
      const claimed: {
        rows: (DeliveryRow & { event_payload: OutboxEvent; endpoint_row: WebhookEndpointRow })[];
      } = await db.raw(CLAIM_DUE, { now, limit, lockedUntil: new Date(now.getTime() + leaseMs) });
      // to_jsonb gives timestamps as ISO text, which the endpoint's mapper reads as it reads Dates.
      return claimed.rows.map(({ event_payload, endpoint_row, ...row }) => ({
        delivery: toDeliveryRecord(row),
        endpoint: toEndpointRecord(endpoint_row),
        event: event_payload,
      }));
    },

    async renewLeases(ids: readonly string[], heldUntil: Date, until: Date): Promise<string[]> {
      if (ids.length === 0) return [];
      // The lease's end is the holder's token: another claim sets its own, recordAttempt clears it.
      const rows: { id: string }[] = await deliveries()
        .whereIn('id', ids)
        .where({ status: 'PENDING', locked_until: heldUntil })
        .update({ locked_until: until })
        .returning('id');
      return rows.map((row) => row.id);
    },

    async recordAttempt(id: string, result: DeliveryAttemptResult): Promise<void> {
      // Only the next attempt lands: a worker whose lease ran out while another one already
      // recorded this attempt cannot overwrite the newer result.
      await deliveries()
        .where({ id, attempts: result.attempts - 1 })
        .update({
          status: result.status,
          attempts: result.attempts,
          next_attempt_at: result.nextAttemptAt,
          last_status_code: result.lastStatusCode,
          last_error: result.lastError,
          delivered_at: result.deliveredAt,
          last_attempt_at: db.fn.now(),
          locked_until: null,
        });
    },

    async list(
      workspaceId: string,
      endpointId: string,
      page: PageRequest,
    ): Promise<Page<WebhookDeliveryRecord>> {
      const query = deliveries().where({ workspace_id: workspaceId, endpoint_id: endpointId });
      return pageNewestFirst(query, page, toDeliveryRecord);
    },

    async resend(
      workspaceId: string,
      endpointId: string,
      id: string,
      now: Date,
    ): Promise<WebhookDeliveryRecord | null> {
      const [row] = await deliveries()
        .where({ workspace_id: workspaceId, endpoint_id: endpointId, id })
        // A queued attempt has not been delivered (yet): the earlier deliveredAt would contradict PENDING.
        .update({ status: 'PENDING', next_attempt_at: now, locked_until: null, delivered_at: null })
        .returning('*');
      return row ? toDeliveryRecord(row as DeliveryRow) : null;
    },
  };
}
