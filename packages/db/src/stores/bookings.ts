import type {
  BookingFilter,
  BookingPatch,
  BookingRecord,
  BookingSort,
  BookingStore,
  FirstBookingWrites,
  LockedBooking,
  NewBooking,
} from '@travelops/domain/bookings';
import type { Departure } from '@travelops/domain/catalog';
import {
  conflict,
  fail,
  type Keyset,
  notFound,
  ok,
  type Page,
  type PageRequest,
  type Result,
} from '@travelops/domain/shared';
import type { Knex } from 'knex';
import { constraintError } from '../errors.js';
import { prepared } from '../prepared.js';
import { batchedLookup } from './batch.js';
import { toNewHistoryRow } from './booking-history.js';
import { type BookingRow, toBooking } from './booking-rows.js';
import {
  type DbTimestamp,
  guarded,
  jsonColumns,
  keysetDate,
  toColumns,
  toIso,
  toPage,
  utcDayStart,
} from './columns.js';
import { refreshStatsQuery } from './customers.js';
import { createDepartureStore, lockDepartureIfFree } from './departures.js';
import { toNewSessionRow } from './payments.js';

const PATCH_COLUMNS = {
  customerId: 'customer_id',
  status: 'status',
  paymentStatus: 'payment_status',
  totalAmount: 'total_amount',
  currency: 'currency',
  availabilityId: 'availability_id',
  tourId: 'tour_id',
  startsAt: 'starts_at',
  participantCount: 'participant_count',
  participants: 'participants',
  addOns: 'add_ons',
  amountPaid: 'amount_paid',
  amountRefunded: 'amount_refunded',
  paymentIntentId: 'payment_intent_id',
  publicToken: 'public_token',
  notes: 'notes',
  expiresAt: 'expires_at',
  confirmedAt: 'confirmed_at',
  cancelledAt: 'cancelled_at',
  cancellationReason: 'cancellation_reason',
} as const satisfies { readonly [K in keyof Required<BookingPatch>]: string };

const JSON_COLUMNS = ['participants', 'add_ons'];

const REFERENCE_TAKEN = {
  bookings_workspace_external_reference_key: conflict(
    'Another booking of this workspace has this external reference.',
    'externalReference',
    'already_exists',
  ),
};

/**
 * A departure deleted (a schedule's change) after the booking read it: the whole transaction
 * runs again and finds it gone. The error aborted the transaction, so this ends it.
 */
const DEPARTURE_GONE = {
  bookings_availability_fkey: {
    ...conflict('The departure was removed while this booking was made; try again.'),
    retryable: true,
  },
};

type SortField = 'createdAt' | 'startsAt' | 'totalAmount' | 'updatedAt';

/** Each sort's column and how its keyset value is bound (column names are constants, never input). */
const SORTS: Record<SortField, { column: string; cast: 'timestamptz' | 'bigint' }> = {
  createdAt: { column: 'created_at', cast: 'timestamptz' },
  startsAt: { column: 'starts_at', cast: 'timestamptz' },
  totalAmount: { column: 'total_amount', cast: 'bigint' },
  updatedAt: { column: 'updated_at', cast: 'timestamptz' },
};

/** A keyset value bound for its column; cursors are signed upstream, so a mismatch is a bug. */
function keysetValue(keyset: Keyset, cast: 'timestamptz' | 'bigint'): Date | number {
  if (cast === 'timestamptz') return keysetDate(keyset);
  if (typeof keyset.value !== 'number') throw new Error(`Keyset value is not an amount: ${keyset.value}`);
  return keyset.value;
}

/**
 * How far behind the oldest running transaction the change feed stays. A row's `updated_at` is
 * `now()`, its transaction's start, stored rounded to the millisecond (so up to 0.5 ms later or
 * earlier); and a backend reports its transaction start a moment after taking it. The margin
 * covers both with room to spare; the feed runs this much behind real time.
 */
const CHANGE_FEED_MARGIN = '1 second';

/**
 * The partner-sync horizon: every change stamped before it has committed (or rolled back).
 *
 * A plain `(updated_at, id)` keyset skips: `updated_at` is the writing transaction's start, so
 * a transaction that began at t1 and commits after a reader has passed t2 > t1 lands behind
 * the reader's cursor. Every transaction still running started at or after the oldest
 * `xact_start` in pg_stat_activity, so a row stamped before that instant (less the margin) was
 * written by a transaction that has ended; returning only such rows, in order, means nothing
 * can later appear behind a cursor. This must be a statement of its own, before the page's:
 * read in the same statement, a transaction could commit between the page's snapshot and the
 * read of pg_stat_activity and be missed by both. `least` keeps `now()` when pg_stat_activity
 * shows nothing (PGlite, one connection: nothing else runs) or hides other roles' sessions
 * (the service connects as one role, whose sessions it always sees). A transaction left open
 * holds the feed back (it never skips); requests keep theirs short.
 */
async function changeHorizon(db: Knex | Knex.Transaction): Promise<Date> {
  const result = await db.raw(
    `select least(now(), (select min(xact_start) from pg_stat_activity where datname = current_database()))
       - interval '${CHANGE_FEED_MARGIN}' as horizon`,
  );
  const rows = (result as { rows: Array<{ horizon: DbTimestamp }> }).rows;
  const horizon = rows[0]?.horizon;
  if (horizon === undefined) throw new Error('The change horizon query returned no row.');
  return new Date(horizon);
}

export function createBookingStore(db: Knex | Knex.Transaction): BookingStore {
  const bookings = () => db<BookingRow>('bookings');
  const availability = createDepartureStore(db);
  // getBooking is the hottest read: on the pool, concurrent reads by id share a statement.
  const byId = db.isTransaction
    ? null
    : batchedLookup(async (ids) => {
        const rows = await prepared(bookings().whereRaw('id = any(?)', [[...ids]]));
        return new Map(rows.map((row) => [row.id, toBooking(row)]));
      });
  const filtered = (workspaceId: string, filter: BookingFilter) => {
    const query = bookings().where({ workspace_id: workspaceId });
    if (filter.status) query.where({ status: filter.status });
    if (filter.paymentStatus) query.where({ payment_status: filter.paymentStatus });
    if (filter.externalReference) query.where({ external_reference: filter.externalReference });
    if (filter.from) query.where('starts_at', '>=', utcDayStart(filter.from));
    if (filter.to) query.where('starts_at', '<', utcDayStart(filter.to, 1));
    return query;
  };
  const lock = async (workspaceId: string, id: string): Promise<BookingRecord | null> => {
    const row = await bookings().where({ workspace_id: workspaceId, id }).forUpdate().first();
    return row ? toBooking(row) : null;
  };

  return {
    async insert(booking: NewBooking, first: FirstBookingWrites = {}): Promise<Result<BookingRecord>> {
      const {
        id,
        workspaceId,
        customerId,
        paymentMode,
        holderKey,
        guestMessage,
        cancellationPolicy,
        ...rest
      } = booking;
      const inserted = bookings()
        .insert({
          id,
          workspace_id: workspaceId,
          customer_id: customerId,
          payment_mode: paymentMode,
          holder_key: holderKey,
          guest_message: guestMessage,
          ...jsonColumns({ cancellation_policy: cancellationPolicy }, ['cancellation_policy']),
          ...jsonColumns(toColumns<BookingPatch>(rest, PATCH_COLUMNS), JSON_COLUMNS),
        })
        .returning('*');
      // One statement: the rows that name the booking go in with it (their foreign keys are
      // checked at the statement's end, when the booking is there).
      const query = db.with('inserted', inserted);
      if (first.history) query.with('history', db('booking_history').insert(toNewHistoryRow(first.history)));
      if (first.paymentSession) {
        query.with('session', db('payment_sessions').insert(toNewSessionRow(first.paymentSession)));
      }
      if (first.refreshCustomerStats) {
        query.with('stats', refreshStatsQuery(db, workspaceId, customerId, 'inserted'));
      }
      try {
        const [row]: BookingRow[] = await prepared(query.select('*').from('inserted'));
        if (!row) throw new Error(`Booking ${id} was not written.`);
        return ok(toBooking(row));
      } catch (error) {
        const known = constraintError(error, DEPARTURE_GONE);
        if (known) return fail(known);
        throw error;
      }
    },

    async findById(workspaceId: string, id: string): Promise<BookingRecord | null> {
      if (byId) {
        const found = await byId(id);
        return found?.workspaceId === workspaceId ? found : null;
      }
      const row = await bookings().where({ workspace_id: workspaceId, id }).first();
      return row ? toBooking(row) : null;
    },

    async findByPublicToken(publicToken: string): Promise<BookingRecord | null> {
      if (!publicToken) return null;
      const row = await bookings().where({ public_token: publicToken }).first();
      return row ? toBooking(row) : null;
    },

    lock,

    async lockWithDepartures(
      workspaceId: string,
      id: string,
      alsoDepartureId?: string,
    ): Promise<Result<LockedBooking>> {
      const seen = await bookings().where({ workspace_id: workspaceId, id }).first('availability_id');
      if (!seen) return fail(notFound('booking'));
      const ids = [...new Set([seen.availability_id, ...(alsoDepartureId ? [alsoDepartureId] : [])])].sort();
      const departures = new Map<string, Departure>();
      for (const departureId of ids) {
        const departure = await availability.lock(workspaceId, departureId);
        if (departure) departures.set(departureId, departure);
      }
      const booking = await lock(workspaceId, id);
      if (!booking) return fail(notFound('booking'));
      if (departures.has(booking.availabilityId)) return ok({ booking, departures });
      // A move committed between the read and the locks. Waiting for its departure now would
      // take a lock out of order (a deadlock risk), so take it only if it is free.
      const moved = await lockDepartureIfFree(db, workspaceId, booking.availabilityId);
      // Busy: roll the whole transaction back (its locks with it) and run it again from the top.
      if (!moved)
        return fail({ ...conflict('The booking is changing concurrently; retry.'), retryable: true });
      departures.set(moved.id, moved);
      return ok({ booking, departures });
    },

    async lockHolder(availabilityId: string, holderKey: string): Promise<void> {
      // A transaction-level lock outside a transaction would be released at once.
      if (!db.isTransaction) throw new Error('bookings.lockHolder needs a transaction.');
      // The name cannot collide with the two-part names of idempotency keys and OCTO uuids.
      await db.raw('select pg_advisory_xact_lock(hashtextextended(?, 0))', [
        JSON.stringify(['holds', availabilityId, holderKey]),
      ]);
    },

    async liveHoldsOf(
      availabilityId: string,
      holderKey: string,
      now: Date,
    ): Promise<{ count: number; earliestExpiry: Date | null }> {
      // Unpaid holds until they lapse, and free bookings (CONFIRMED at once, never lapsing) for good.
      const row = (await bookings()
        .where({ availability_id: availabilityId, holder_key: holderKey })
        .where((live) =>
          live
            .where((hold) => hold.where({ status: 'PENDING' }).where('expires_at', '>', now))
            .orWhere((free) => free.where({ status: 'CONFIRMED', total_amount: 0 })),
        )
        .first(db.raw('count(*)::int as count'), db.raw('min(expires_at) as earliest'))) as
        | { count: number; earliest: DbTimestamp | null }
        | undefined;
      return {
        count: row?.count ?? 0,
        earliestExpiry: row?.earliest ? new Date(toIso(row.earliest)) : null,
      };
    },

    async lockRecipient(workspaceId: string, customerId: string): Promise<void> {
      if (!db.isTransaction) throw new Error('bookings.lockRecipient needs a transaction.');
      await db.raw('select pg_advisory_xact_lock(hashtextextended(?, 0))', [
        JSON.stringify(['confirmations', workspaceId, customerId]),
      ]);
    },

    async freePublicBookingsSince(workspaceId: string, customerId: string, since: Date): Promise<number> {
      const row = (await bookings()
        .where({ workspace_id: workspaceId, customer_id: customerId, total_amount: 0 })
        .whereNotNull('holder_key')
        .where('created_at', '>=', since)
        .first(db.raw('count(*)::int as count'))) as { count: number } | undefined;
      return row?.count ?? 0;
    },

    async claimExternalReference(
      workspaceId: string,
      id: string,
      externalReference: string | null,
    ): Promise<Result<BookingRecord>> {
      try {
        const [row] = await guarded(db, (q) =>
          q<BookingRow>('bookings')
            .where({ workspace_id: workspaceId, id })
            .update({
              external_reference: externalReference,
              version: q.raw('version + 1'),
              updated_at: q.fn.now(),
            })
            .returning('*'),
        );
        return row ? ok(toBooking(row as BookingRow)) : fail(notFound('booking'));
      } catch (error) {
        const known = constraintError(error, REFERENCE_TAKEN);
        if (known) return fail(known);
        throw error;
      }
    },

    async update(workspaceId: string, id: string, patch: BookingPatch): Promise<BookingRecord> {
      const [row] = await bookings()
        .where({ workspace_id: workspaceId, id })
        .update({
          ...jsonColumns(toColumns(patch, PATCH_COLUMNS), JSON_COLUMNS),
          version: db.raw('version + 1'),
          updated_at: db.fn.now(),
        })
        .returning('*');
      // Callers update what they have just locked; a missing row is a bug, not an outcome.
      if (!row) throw new Error(`Booking ${id} vanished before its update.`);
      return toBooking(row as BookingRow);
    },

    async list(
      workspaceId: string,
      filter: BookingFilter,
      sort: BookingSort,
      page: PageRequest,
    ): Promise<Page<BookingRecord>> {
      const descending = sort.startsWith('-');
      const field = (descending ? sort.slice(1) : sort) as SortField;
      const { column, cast } = SORTS[field];
      const order = descending ? 'desc' : 'asc';

      const query = filtered(workspaceId, filter);
      if (page.after) {
        query.whereRaw(`(${column}, id) ${descending ? '<' : '>'} (?::${cast}, ?)`, [
          keysetValue(page.after, cast),
          page.after.id,
        ]);
      }
      const rows = await query
        .orderBy([
          { column, order },
          { column: 'id', order },
        ])
        .limit(page.limit + 1);
      return toPage(rows.map(toBooking), page, (booking) => ({ value: booking[field], id: booking.id }));
    },

    async listChanges(
      workspaceId: string,
      filter: BookingFilter,
      since: string,
      page: PageRequest,
    ): Promise<Page<BookingRecord>> {
      // The horizon is read first, in a statement (and snapshot) of its own: see changeHorizon.
      const horizon = await changeHorizon(db);
      const query = filtered(workspaceId, filter)
        .where('updated_at', '>=', new Date(since))
        .where('updated_at', '<', horizon);
      if (page.after) {
        query.whereRaw('(updated_at, id) > (?::timestamptz, ?)', [keysetDate(page.after), page.after.id]);
      }
      const rows = await query
        .orderBy([
          { column: 'updated_at', order: 'asc' },
          { column: 'id', order: 'asc' },
        ])
        .limit(page.limit + 1);
      const hasMore = rows.length > page.limit;
      const items = rows.slice(0, page.limit).map(toBooking);
      const last = items[items.length - 1];
      // Where to resume, on the last page too: after the last change seen, else where we were.
      // ('' sorts before every id, so `since` itself is included.)
      const next = last
        ? { value: last.updatedAt, id: last.id }
        : (page.after ?? { value: new Date(since).toISOString(), id: '' });
      return { items, hasMore, next };
    },

    async listByDeparture(workspaceId: string, availabilityId: string): Promise<BookingRecord[]> {
      const rows = await bookings()
        .where({ workspace_id: workspaceId, availability_id: availabilityId })
        .whereNot({ status: 'CANCELLED' })
        .orderBy(['created_at', 'id']);
      return rows.map(toBooking);
    },

    async findExpiredHolds(
      now: Date,
      options: { workspaceId?: string; availabilityId?: string; limit: number },
    ): Promise<BookingRecord[]> {
      const query = bookings().where({ status: 'PENDING' }).where('expires_at', '<=', now);
      if (options.workspaceId) query.where({ workspace_id: options.workspaceId });
      if (options.availabilityId) query.where({ availability_id: options.availabilityId });
      const rows = await query.orderBy(['expires_at', 'id']).limit(options.limit);
      return rows.map(toBooking);
    },
  };
}
