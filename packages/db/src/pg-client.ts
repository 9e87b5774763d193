import { createRequire } from 'node:module';
import type { Knex } from 'knex';
import { COMMITS_WITH_STATEMENTS, takeCommitStatements } from './commit-statements.js';
import { withPreparedName } from './prepared.js';

interface CompiledQuery {
  sql: string;
  options?: Record<string, unknown>;
}

type ClientClass = typeof Knex.Client;

// knex's own PostgreSQL client and transaction, extended the way knex-pglite extends the client
// (knex exports no paths for them).
const requireKnex = createRequire(import.meta.url);
const ClientPg = requireKnex('knex/lib/dialects/postgres/index.js') as ClientClass;
const TransactionPg = requireKnex('knex/lib/dialects/postgres/execution/pg-transaction.js') as new (
  ...args: unknown[]
) => KnexTransactionInternals;

/** The part of knex's transaction this client changes (knex 3, `lib/execution/transaction.js`). */
interface KnexTransactionInternals {
  transactor: Knex.Transaction;
  trxClient: { query(connection: unknown, sql: string): Promise<unknown> };
  commit(connection: unknown, value: unknown): Promise<unknown>;
  query(connection: unknown, sql: string, status?: number, value?: unknown): Promise<unknown>;
  _completed: boolean;
  _resolver(value: unknown): void;
}

/**
 * knex's transaction, committing with the statements queued for its commit in one round trip
 * (commit-statements.ts). When one fails, PostgreSQL skips the rest of the query, the COMMIT
 * included: the transaction is rolled back here, as knex rolls back any failed transaction,
 * and the failure is the transaction's.
 */
class CommitWithStatements extends TransactionPg {
  override commit(connection: unknown, value: unknown): Promise<unknown> {
    const statements = takeCommitStatements(this.transactor);
    if (statements.length === 0) return super.commit(connection, value);
    return this.trxClient.query(connection, [...statements, 'COMMIT'].join(';\n')).then(
      // Committed: what knex's `query` does after a COMMIT that succeeded (status 1).
      () => {
        this._completed = true;
        this._resolver(value);
      },
      (error: unknown) => this.query(connection, 'ROLLBACK', 2, error),
    );
  }
}

/** What this client reads of knex's configuration, beside knex's own settings. */
export interface TravelopsPgClientConfig {
  /** False: statements marked by `prepared()` go unnamed too (a pooler in transaction mode). */
  preparedStatements?: boolean;
}

/**
 * knex's `pg` client: statements marked by `prepared()` go as named (prepared) statements
 * (unless the configuration's `preparedStatements` is false), and a transaction's commit
 * carries the statements queued for it (`atCommitStatement`).
 */
export class TravelopsPgClient extends ClientPg {
  _query(connection: unknown, obj: CompiledQuery): Promise<unknown> {
    const named = (this.config as TravelopsPgClientConfig).preparedStatements !== false;
    obj.options = withPreparedName(obj.sql, obj.options, named);
    return (ClientPg.prototype as unknown as TravelopsPgClient)._query.call(this, connection, obj);
  }

  // knex types its transactions loosely (`any`); this is knex's pg transaction, extended.
  override transaction(container: unknown, config: unknown, outerTx: unknown): Knex.Transaction {
    return new CommitWithStatements(this, container, config, outerTx) as unknown as Knex.Transaction;
  }
}
Object.defineProperty(TravelopsPgClient.prototype, COMMITS_WITH_STATEMENTS, { value: true });
