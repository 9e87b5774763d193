import type { OutboxEvent } from '@travelops/domain/events';
import type {
  EmailAttachment,
  GuestEmail,
  GuestEmailAttemptResult,
  GuestEmailCandidate,
  GuestEmailClaim,
  GuestEmailStore,
  NewGuestEmail,
} from '@travelops/domain/notifications';
import type { Knex } from 'knex';
import { type DbTimestamp, toIso, toIsoOrNull } from './columns.js';

interface GuestEmailRow {
  id: string;
  workspace_id: string;
  booking_id: string;
  kind: GuestEmail['kind'];
  dedupe_key: string;
  recipient: string;
  status: GuestEmail['status'];
  from_name: string;
  reply_to: string | null;
  subject: string;
  text_body: string;
  html_body: string;
  headers: Record<string, string>;
  attachments: EmailAttachment[];
  attempts: number;
  next_attempt_at: DbTimestamp | null;
  locked_until: DbTimestamp | null;
  last_attempt_at: DbTimestamp | null;
  last_error: string | null;
  sent_at: DbTimestamp | null;
  created_at: DbTimestamp;
}

const toGuestEmail = (row: GuestEmailRow): GuestEmail => ({
  id: row.id,
  workspaceId: row.workspace_id,
  bookingId: row.booking_id,
  kind: row.kind,
  dedupeKey: row.dedupe_key,
  recipient: row.recipient,
  status: row.status,
  fromName: row.from_name,
  replyTo: row.reply_to,
  subject: row.subject,
  text: row.text_body,
  html: row.html_body,
  headers: row.headers,
  attachments: row.attachments,
  attempts: row.attempts,
  nextAttemptAt: toIsoOrNull(row.next_attempt_at),
  lastAttemptAt: toIsoOrNull(row.last_attempt_at),
  lastError: row.last_error,
  sentAt: toIsoOrNull(row.sent_at),
  createdAt: toIso(row.created_at),
});

const REQUESTS = `
select payload from outbox_events
where mailed_at is null and type = 'notification.email_requested'
order by seq
limit ?
for update skip locked`;

// The reminder's key is the domain's reminderKey: booking id and the start in epoch milliseconds.
const REMINDER_CANDIDATES = `
select b.workspace_id, b.id
from bookings b
join tours t on t.id = b.tour_id
join availability a on a.id = b.availability_id
where b.status = 'CONFIRMED'
  and b.starts_at > :now
  and b.starts_at <= :horizon
  and t.reminder_hours_before is not null
  and b.starts_at - make_interval(hours => t.reminder_hours_before) <= :now
  and b.confirmed_at < b.starts_at - make_interval(hours => t.reminder_hours_before)
  and a.status <> 'CANCELLED'
  and not exists (select 1 from guest_email_opt_outs o where o.booking_id = b.id)
  and not exists (
    select 1 from guest_emails e
    where e.booking_id = b.id
      and e.dedupe_key = 'reminder:' || b.id || ':' || (extract(epoch from b.starts_at) * 1000)::bigint
  )
order by b.starts_at, b.id
limit :limit`;

const HOLD_WARNING_CANDIDATES = `
select b.workspace_id, b.id
from bookings b
where b.status = 'PENDING'
  and b.holder_key is not null
  and b.expires_at > :now
  and b.expires_at <= :until
  and b.created_at <= :heldSince
  and not exists (
    select 1 from guest_emails e where e.booking_id = b.id and e.dedupe_key = 'hold_expiring:' || b.id
  )
order by b.expires_at, b.id
limit :limit`;

/** Serialises claims (a transaction-scoped advisory lock), so the per-workspace rate is exact across workers. */
const CLAIM_LOCK_KEY = 1_700_017;

// Due PENDING messages, oldest first, each waiting for an earlier PENDING one to its booking; a
// workspace already at its rate is skipped, so its backlog never hides another's messages. Of
// the candidates (SKIP LOCKED), each workspace gets what is left of its rate this minute. The
// claim stamps last_attempt_at: an attempt counts against the rate from its start.
const CLAIM_DUE = `
with recent as (
  select workspace_id, count(*)::int as used
  from guest_emails
  where last_attempt_at > :windowStart
  group by workspace_id
),
candidates as (
  select e.id, e.workspace_id, e.seq
  from guest_emails e
  where e.status = 'PENDING'
    and e.next_attempt_at <= :now
    and (e.locked_until is null or e.locked_until < :now)
    and not exists (
      select 1 from guest_emails earlier
      where earlier.booking_id = e.booking_id and earlier.status = 'PENDING' and earlier.seq < e.seq
    )
    and not exists (
      select 1 from recent r where r.workspace_id = e.workspace_id and r.used >= :perMinute
    )
  order by e.seq
  limit :scan
  for update of e skip locked
),
ranked as (
  select c.id, c.seq,
    row_number() over (partition by c.workspace_id order by c.seq) + coalesce(r.used, 0) as nth
  from candidates c
  left join recent r on r.workspace_id = c.workspace_id
),
picked as (
  select id from ranked where nth <= :perMinute order by seq limit :limit
)
update guest_emails e
set locked_until = :lockedUntil, last_attempt_at = :now
from picked
where e.id = picked.id
returning e.*`;

export function createGuestEmailStore(db: Knex | Knex.Transaction): GuestEmailStore {
  const emails = (q: Knex = db) => q<GuestEmailRow>('guest_emails');
  const candidates = (rows: { workspace_id: string; id: string }[]): GuestEmailCandidate[] =>
    rows.map((row) => ({ workspaceId: row.workspace_id, bookingId: row.id }));

  return {
    async takeRequests(limit: number): Promise<OutboxEvent[]> {
      const taken: { rows: { payload: OutboxEvent }[] } = await db.raw(REQUESTS, [limit]);
      return taken.rows.map((row) => row.payload);
    },

    async markRequestsPlanned(eventIds: readonly string[]): Promise<void> {
      if (eventIds.length === 0) return;
      await db('outbox_events')
        .whereIn('id', [...eventIds])
        .update({ mailed_at: db.fn.now() });
    },

    async insert(list: readonly NewGuestEmail[]): Promise<number> {
      if (list.length === 0) return 0;
      const rows = await emails()
        .insert(
          list.map((email) => ({
            id: email.id,
            workspace_id: email.workspaceId,
            booking_id: email.bookingId,
            kind: email.kind,
            dedupe_key: email.dedupeKey,
            recipient: email.recipient,
            status: email.status,
            from_name: email.fromName,
            reply_to: email.replyTo,
            subject: email.subject,
            text_body: email.text,
            html_body: email.html,
            headers: JSON.stringify(email.headers),
            attachments: JSON.stringify(email.attachments),
            // Due at once; a kept message is never due.
            next_attempt_at: email.status === 'PENDING' ? db.fn.now() : null,
          })) as never,
        )
        .onConflict(['dedupe_key', 'recipient'])
        .ignore()
        .returning('id');
      return rows.length;
    },

    async findReminderCandidates(now: Date, limit: number): Promise<GuestEmailCandidate[]> {
      const found: { rows: { workspace_id: string; id: string }[] } = await db.raw(REMINDER_CANDIDATES, {
        now,
        // The longest reminder a tour may ask for (a week): lets the scan use the index on starts_at.
        horizon: new Date(now.getTime() + 168 * 3_600_000),
        limit,
      });
      return candidates(found.rows);
    },

    async findHoldWarningCandidates(
      now: Date,
      withinMs: number,
      limit: number,
    ): Promise<GuestEmailCandidate[]> {
      const found: { rows: { workspace_id: string; id: string }[] } = await db.raw(HOLD_WARNING_CANDIDATES, {
        now,
        until: new Date(now.getTime() + withinMs),
        heldSince: new Date(now.getTime() - withinMs),
        limit,
      });
      return candidates(found.rows);
    },

    async claimDue(now: Date, claim: GuestEmailClaim): Promise<GuestEmail[]> {
      const claimed = await db.transaction(async (trx) => {
        await trx.raw('select pg_advisory_xact_lock(?)', [CLAIM_LOCK_KEY]);
        const result: { rows: GuestEmailRow[] } = await trx.raw(CLAIM_DUE, {
          now,
          windowStart: new Date(now.getTime() - 60_000),
          perMinute: claim.perWorkspacePerMinute,
          scan: Math.max(claim.limit * 10, 100),
          limit: claim.limit,
          lockedUntil: new Date(now.getTime() + claim.leaseMs),
        });
        return result.rows;
      });
      return claimed.map(toGuestEmail);
    },

    async recordAttempt(id: string, result: GuestEmailAttemptResult): Promise<void> {
      // Only the next attempt lands: a worker whose lease ran out cannot overwrite a later result.
      await emails()
        .where({ id, attempts: result.attempts - 1 })
        .update({
          status: result.status,
          attempts: result.attempts,
          next_attempt_at: result.nextAttemptAt,
          last_error: result.lastError,
          sent_at: result.sentAt,
          locked_until: null,
        });
    },

    async listRecent(limit: number): Promise<GuestEmail[]> {
      const rows = await emails()
        .orderBy([
          { column: 'created_at', order: 'desc' },
          { column: 'seq', order: 'desc' },
        ])
        .limit(limit);
      return rows.map(toGuestEmail);
    },

    async findById(id: string): Promise<GuestEmail | null> {
      const row = await emails().where({ id }).first();
      return row ? toGuestEmail(row) : null;
    },

    async optOutOfReminders(workspaceId: string, bookingId: string): Promise<void> {
      await db('guest_email_opt_outs')
        .insert({ booking_id: bookingId, workspace_id: workspaceId })
        .onConflict('booking_id')
        .ignore();
    },
  };
}
