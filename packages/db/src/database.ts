import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import knex, { type Knex } from 'knex';
import ClientPgLite from 'knex-pglite';
import {
  createPostgresSignal,
  listenOnPglite,
  listenOnPostgres,
  type OutboxListener,
  type OutboxListenerOptions,
  sendOutboxSignalsWith,
} from './outbox-notify.js';
import { TravelopsPgClient, type TravelopsPgClientConfig } from './pg-client.js';
import { type PgliteServer, servePglite } from './pglite-server.js';

export interface DatabaseConfig {
  /** PostgreSQL URL; when set, the `pg` driver is used. */
  url?: string;
  /**
   * PostgreSQL only: the hot statements go as named prepared statements (the default). False
   * sends them unnamed, for a pooler in transaction mode that cannot carry them.
   */
  preparedStatements?: boolean;
  /** Embedded PGlite directory (created if missing) or `memory://`; used when `url` is unset. */
  dataDir?: string;
  /**
   * PostgreSQL only: the server serves one session at a time (an embedded database served by
   * its owner, `Database.serve`): one connection, unnamed statements, no second connection for
   * the outbox signal (the owner's jobs poll).
   */
  oneSession?: boolean;
}

export interface Database {
  knex: Knex;
  kind: 'postgres' | 'pglite';
  ping(): Promise<void>;
  /**
   * Tells `onEvent` when outbox events have committed (never before, never for a rollback), so
   * a worker wakes at once instead of at its next poll. Close it before the database.
   */
  listenForOutbox(options: OutboxListenerOptions): OutboxListener;
  /** PGlite only: serves this database to local tools on a loopback port (`servePglite`). */
  serve?(options?: { host?: string; port?: number }): Promise<PgliteServer>;
  close(): Promise<void>;
}

const IN_MEMORY = 'memory://';

/**
 * knex's warnings, less "Acquire connection error" with its stack: the same error reaches the
 * caller, which says it in words (describeConnectionError), and a stack before that line hides it.
 */
function warnUnlessAcquireError(message: unknown) {
  if (String(message).startsWith('Acquire connection error')) return;
  process.stderr.write(`${String(message)}\n`);
}

export async function createDatabase(config: DatabaseConfig): Promise<Database> {
  if (config.url) {
    const url = config.url;
    const settings: Knex.Config & TravelopsPgClientConfig = {
      client: TravelopsPgClient,
      connection: url,
      pool: { min: 0, max: config.oneSession ? 1 : 10 },
      preparedStatements: config.oneSession ? false : (config.preparedStatements ?? true),
      log: { warn: warnUnlessAcquireError },
    };
    const handle = knex(settings);
    if (config.oneSession) return wrap(handle, 'postgres', () => ({ async close() {} }));
    const signal = createPostgresSignal(url);
    sendOutboxSignalsWith(handle, signal.send);
    return wrap(handle, 'postgres', (options) => listenOnPostgres(url, options), signal.close);
  }
  if (!config.dataDir) throw new Error('DatabaseConfig needs a url or a dataDir.');
  if (config.dataDir !== IN_MEMORY) await mkdir(config.dataDir, { recursive: true });
  // Made here rather than by knex-pglite, so the listener can reach its notifications.
  const pglite = new PGlite(config.dataDir === IN_MEMORY ? undefined : config.dataDir);
  // knex's types know its own drivers' settings only; knex-pglite takes a ready instance as `pglite`.
  const connection = { pglite } as Knex.StaticConnectionConfig;
  const handle = knex({ client: ClientPgLite, dialect: 'postgres', connection });
  return {
    ...wrap(handle, 'pglite', (options) => listenOnPglite(pglite, handle, options)),
    serve: (options) => servePglite(pglite, handle, options),
  };
}

function wrap(
  handle: Knex,
  kind: Database['kind'],
  listen: Database['listenForOutbox'],
  closeFirst: () => Promise<void> = async () => {},
): Database {
  return {
    knex: handle,
    kind,
    async ping() {
      await handle.raw('select 1');
    },
    listenForOutbox: listen,
    async close() {
      await closeFirst();
      await handle.destroy();
    },
  };
}

/**
 * Runs `work` in one transaction: committed when it resolves, rolled back when it throws.
 * Given a transaction, it opens a savepoint inside it. On PGlite (one connection) use only `trx` inside.
 */
export function withTransaction<T>(db: Knex, work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  return db.transaction(work);
}
