import { mkdir } from 'node:fs/promises';
import knex, { type Knex } from 'knex';
import ClientPgLite from 'knex-pglite';

export interface DatabaseConfig {
  /** PostgreSQL URL; when set, the `pg` driver is used. */
  url?: string;
  /** Embedded PGlite directory (created if missing) or `memory://`; used when `url` is unset. */
  dataDir?: string;
}

export interface Database {
  knex: Knex;
  kind: 'postgres' | 'pglite';
  ping(): Promise<void>;
  close(): Promise<void>;
}

const IN_MEMORY = 'memory://';

export async function createDatabase(config: DatabaseConfig): Promise<Database> {
  if (config.url)
    return wrap(knex({ client: 'pg', connection: config.url, pool: { min: 0, max: 10 } }), 'postgres');
  if (!config.dataDir) throw new Error('DatabaseConfig needs a url or a dataDir.');
  if (config.dataDir === IN_MEMORY) {
    return wrap(knex({ client: ClientPgLite, dialect: 'postgres', connection: {} }), 'pglite');
  }
  await mkdir(config.dataDir, { recursive: true });
  return wrap(
    knex({ client: ClientPgLite, dialect: 'postgres', connection: { filename: config.dataDir } }),
    'pglite',
  );
}

function wrap(handle: Knex, kind: Database['kind']): Database {
  return {
    knex: handle,
    kind,
    async ping() {
      await handle.raw('select 1');
    },
    close: () => handle.destroy(),
  };
}

/**
 * Runs `work` in one transaction: committed when it resolves, rolled back when it throws.
 * Given a transaction, it opens a savepoint inside it. On PGlite (one connection) use only `trx` inside.
 */
export function withTransaction<T>(db: Knex, work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  return db.transaction(work);
}
