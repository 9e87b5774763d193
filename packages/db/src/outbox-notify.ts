import type { PGlite } from '@electric-sql/pglite';
import type { Knex } from 'knex';
import pg from 'pg';

/**
 * Wakes the delivery workers when outbox events commit. The process that commits them
 * NOTIFYs this channel *after* its commit: never before the events are visible, never for a
 * rollback. Not inside the business transaction: PostgreSQL serialises the commits of all
 * transactions that NOTIFY under one lock held through the WAL flush: on the 2-core bench
 * machine, 20 writers on distinct rows committed about 1 800 tx/s plain, 450 with a NOTIFY
 * inside, 1 550 with one NOTIFY after (one in flight at a time, as here).
 */
const OUTBOX_CHANNEL = 'travelops_outbox';
const NOTIFY = `select pg_notify('${OUTBOX_CHANNEL}', '')`;

// The listener's reconnection: backoff from 100 ms, doubling up to 5 s.
const FIRST_RETRY_MS = 100;
const LAST_RETRY_MS = 5_000;
/** A connection that died without a word (a half-open socket) is found by a query that never answers. */
const PING_EVERY_MS = 30_000;
/** Connecting, or any query (the ping included), on the listener's and the signal's own connections. */
const TIMEOUT_MS = 10_000;

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

interface Signal {
  send: () => Promise<unknown>;
  inFlight: boolean;
  again: boolean;
}
const signals = new WeakMap<Knex, Signal>();

/** How the process of `root` sends its NOTIFY; unset, through `root` itself (PGlite: its one session). */
export function sendOutboxSignalsWith(root: Knex, send: () => Promise<unknown>): void {
  signals.set(root, { send, inFlight: false, again: false });
}

/**
 * At most one NOTIFY every `NOTIFY_GAP_MS`: under a burst of bookings, one wakes the workers for
 * the commits of its last few milliseconds (each NOTIFY is a round trip for this process and
 * PostgreSQL: one per booking cost the race about a twentieth of its rate).
 */
const NOTIFY_GAP_MS = 10;

/**
 * One NOTIFY in flight per database; commits meanwhile ask for one more, sent when it is done
 * and `NOTIFY_GAP_MS` have passed since it was sent, so each commit is followed by a
 * notification sent after it. A NOTIFY that fails is dropped: the workers' poll finds the events.
 */
function signalOutbox(root: Knex): void {
  let signal = signals.get(root);
  if (!signal) {
    signal = { send: () => root.raw(NOTIFY), inFlight: false, again: false };
    signals.set(root, signal);
  }
  if (signal.inFlight) {
    signal.again = true;
    return;
  }
  signal.inFlight = true;
  const current = signal;
  const sentAt = Date.now();
  current
    .send()
    .catch(() => {})
    .finally(() => {
      const next = () => {
        current.inFlight = false;
        if (current.again) {
          current.again = false;
          signalOutbox(root);
        }
      };
      const wait = NOTIFY_GAP_MS - (Date.now() - sentAt);
      if (current.again && wait > 0) setTimeout(next, wait).unref();
      else next();
    });
}

/**
 * NOTIFYs on a connection of its own, opened on first use and again after a failure: a
 * commit's signal never waits behind the requests queued for the pool (under load, that
 * queue delayed wake-ups by most of a second).
 */
export function createPostgresSignal(url: string): { send(): Promise<void>; close(): Promise<void> } {
  let connecting: Promise<pg.Client> | null = null;
  let closed = false;

  function drop(which: Promise<pg.Client>): void {
    if (connecting !== which) return;
    connecting = null;
    which.then((client) => client.end()).catch(() => {});
  }

  function connection(): Promise<pg.Client> {
    if (connecting) return connecting;
    const client = new pg.Client({
      connectionString: url,
      application_name: 'travelops-outbox-signal',
      connectionTimeoutMillis: TIMEOUT_MS,
      query_timeout: TIMEOUT_MS,
    });
    const opened = client.connect().then(() => client);
    connecting = opened;
    client.on('error', () => drop(opened));
    client.on('end', () => drop(opened));
    opened.catch(() => drop(opened));
    return opened;
  }

  return {
    // A connection the server has closed since its last use fails once: then a fresh one.
    async send() {
      for (let attempt = 1; !closed; attempt++) {
        const opened = connection();
        try {
          await (await opened).query(NOTIFY);
          return;
        } catch (error) {
          drop(opened);
          if (attempt === 2) throw error;
        }
      }
    },
    async close() {
      closed = true;
      const last = connecting;
      connecting = null;
      await last?.then((client) => client.end()).catch(() => {});
    },
  };
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
      connectionTimeoutMillis: TIMEOUT_MS,
      query_timeout: TIMEOUT_MS,
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
