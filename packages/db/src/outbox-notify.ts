import type { PGlite } from '@electric-sql/pglite';
import type { Knex } from 'knex';
import pg from 'pg';

/**
 * Wakes the delivery workers when outbox events commit. The process that commits them
 * NOTIFYs this channel *after* its commit, on the pool: never before the events are
 * visible, never for a rollback. Not inside the business transaction: PostgreSQL serialises
 * the commits of all transactions that NOTIFY under one lock held through the WAL flush:
 * on the 2-core bench machine, 20 writers on distinct rows committed about 1 800 tx/s plain,
 * 450 with a NOTIFY inside, 1 550 with this one after.
 */
const OUTBOX_CHANNEL = 'travelops_outbox';

// Top-level transactions that appended to the outbox: told once they commit.
const appendedIn = new WeakSet<Knex.Transaction>();

/** The outbox store calls this after each append: on the pool it has committed; in a transaction, noted. */
export function noteOutboxAppend(db: Knex | Knex.Transaction): void {
  if (!db.isTransaction) {
    signalOutbox(db as Knex);
    return;
  }
  let top = db as Knex.Transaction;
  while (top.parentTransaction) top = top.parentTransaction;
  appendedIn.add(top);
}

/** The unit of work calls this after `trx` (top level, on `root`) committed. */
export function signalIfAppended(root: Knex, trx: Knex.Transaction): void {
  if (appendedIn.has(trx)) signalOutbox(root);
}

interface SignalState {
  inFlight: boolean;
  again: boolean;
}
const signals = new WeakMap<Knex, SignalState>();

/**
 * One NOTIFY in flight per pool; commits meanwhile ask for one more after it, so each commit
 * is followed by a notification sent after it. A NOTIFY that fails is dropped: the workers'
 * poll finds the events.
 */
function signalOutbox(root: Knex): void {
  let state = signals.get(root);
  if (!state) {
    state = { inFlight: false, again: false };
    signals.set(root, state);
  }
  if (state.inFlight) {
    state.again = true;
    return;
  }
  state.inFlight = true;
  const current = state;
  root
    .raw(`select pg_notify('${OUTBOX_CHANNEL}', '')`)
    .catch(() => {})
    .finally(() => {
      current.inFlight = false;
      if (current.again) {
        current.again = false;
        signalOutbox(root);
      }
    });
}

export interface OutboxListenerOptions {
  /** Events have committed (one call may stand for several transactions). */
  onEvent(): void;
  /**
   * Listening, the first time or again after a lost connection. Events committed while it was
   * not listening went unheard: the caller looks for work as if told `onEvent`.
   */
  onListening?(state: { reconnected: boolean }): void;
  /** It cannot connect, or lost its connection; told once per outage. It retries with backoff. */
  onError?(error: Error): void;
}

export interface OutboxListener {
  close(): Promise<void>;
}

const FIRST_RETRY_MS = 100;
const LAST_RETRY_MS = 5_000;
/** A connection that died without a word (a half-open socket) is found by a query that never answers. */
const PING_EVERY_MS = 30_000;
const PING_TIMEOUT_MS = 10_000;

/**
 * LISTENs on a connection of its own (outside the knex pool: a pooled connection is lent to
 * whoever asks, and LISTEN belongs to one session). When the connection is lost it reconnects
 * with backoff (100 ms doubling to 5 s) and LISTENs again.
 */
export function listenOnPostgres(url: string, options: OutboxListenerOptions): OutboxListener {
  let client: pg.Client | null = null;
  let closed = false;
  let listenedBefore = false;
  let inOutage = false;
  let retryMs = FIRST_RETRY_MS;
  let retryTimer: NodeJS.Timeout | undefined;
  let pingTimer: NodeJS.Timeout | undefined;

  function lost(which: pg.Client, error: Error): void {
    if (client !== which) return; // a late event of a connection already given up
    client = null;
    clearInterval(pingTimer);
    which.end().catch(() => {});
    if (closed) return;
    if (!inOutage) {
      inOutage = true;
      options.onError?.(error);
    }
    retryTimer = setTimeout(connect, retryMs);
    retryMs = Math.min(retryMs * 2, LAST_RETRY_MS);
  }

  async function connect(): Promise<void> {
    if (closed) return;
    const next = new pg.Client({
      connectionString: url,
      application_name: 'travelops-outbox-listener',
      keepAlive: true,
      connectionTimeoutMillis: PING_TIMEOUT_MS,
      query_timeout: PING_TIMEOUT_MS,
    });
    client = next;
    next.on('notification', (message) => {
      if (message.channel === OUTBOX_CHANNEL) options.onEvent();
    });
    next.on('error', (error) => lost(next, error));
    next.on('end', () => lost(next, new Error('the outbox listener connection ended')));
    try {
      await next.connect();
      await next.query(`listen ${OUTBOX_CHANNEL}`);
    } catch (error) {
      lost(next, error instanceof Error ? error : new Error(String(error)));
      return;
    }
    if (client !== next) return;
    retryMs = FIRST_RETRY_MS;
    inOutage = false;
    pingTimer = setInterval(() => {
      next.query('select 1').catch((error: Error) => lost(next, error));
    }, PING_EVERY_MS);
    options.onListening?.({ reconnected: listenedBefore });
    listenedBefore = true;
  }

  void connect();
  return {
    async close() {
      closed = true;
      clearTimeout(retryTimer);
      clearInterval(pingTimer);
      const last = client;
      client = null;
      await last?.end().catch(() => {});
    },
  };
}

/**
 * PGlite is one session in this process: LISTEN goes through knex, which owns that session (so
 * it never lands inside a transaction knex has open), and PGlite hands the notifications of
 * each COMMIT to its callbacks. There is no connection to lose.
 */
export function listenOnPglite(pglite: PGlite, knex: Knex, options: OutboxListenerOptions): OutboxListener {
  let closed = false;
  const unsubscribe = pglite.onNotification((channel) => {
    if (channel === OUTBOX_CHANNEL && !closed) options.onEvent();
  });
  knex.raw(`listen ${OUTBOX_CHANNEL}`).then(
    () => {
      if (!closed) options.onListening?.({ reconnected: false });
    },
    (error: Error) => options.onError?.(error),
  );
  return {
    async close() {
      closed = true;
      unsubscribe();
    },
  };
}
