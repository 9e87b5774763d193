import type { Knex } from 'knex';
import pg from 'pg';

/**
 * Statements that go with a transaction's COMMIT. On PostgreSQL they travel in the same round
 * trip as the COMMIT (one simple-protocol query: `...; COMMIT`), so a row they lock stays
 * locked only while PostgreSQL commits, never while the API turns around: a hot departure's
 * seats are taken this way. Any of them failing fails the commit, and the whole transaction
 * rolls back. On PGlite (in-process, one connection: no round trip or lock to save) they run
 * where they are queued.
 *
 * The simple protocol carries no parameters, so the statements are written with their values
 * inlined as literals (`inlined`): strings through pg's `escapeLiteral`, numbers checked finite.
 */
const queued = new WeakMap<Knex.Transaction, string[]>();

/** SQLSTATE of `travelops_take_seats` finding no seats at the version read (migration 0016). */
const SEATS_REFUSED = 'TS001';

/** Set on the prototype of a knex client whose transactions commit with their statements. */
export const COMMITS_WITH_STATEMENTS = Symbol('commitsWithStatements');

/**
 * Queues `sql` to go with the commit of the top-level transaction `trx` belongs to; on a client
 * that cannot (PGlite: one connection, nothing to gain), runs it at once.
 */
export async function atCommitStatement(trx: Knex | Knex.Transaction, sql: string): Promise<void> {
  if (!trx.isTransaction) throw new Error('A statement at commit needs a transaction.');
  if (!(trx.client as { [COMMITS_WITH_STATEMENTS]?: boolean })[COMMITS_WITH_STATEMENTS]) {
    await trx.raw(sql);
    return;
  }
  let top = trx as Knex.Transaction;
  while (top.parentTransaction) top = top.parentTransaction;
  const list = queued.get(top);
  if (list) list.push(sql);
  else queued.set(top, [sql]);
}

/** The failure of a commit whose seats were refused (`travelops_take_seats`). */
export const isSeatsRefused = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && (error as { code?: unknown }).code === SEATS_REFUSED;

/** The statements queued for `trx`'s commit, handed out once. */
export function takeCommitStatements(trx: Knex.Transaction): string[] {
  const list = queued.get(trx) ?? [];
  queued.delete(trx);
  return list;
}

const literal = (value: unknown): string => {
  if (typeof value === 'string') return pg.escapeLiteral(value);
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  throw new Error(`Only text and finite numbers are inlined into a statement: ${typeof value}.`);
};

/** A statement built by knex, with its bindings written in as literals. */
export function inlined(statement: Knex.Raw | Knex.QueryBuilder): string {
  const { sql, bindings } = statement.toSQL().toNative();
  return sql.replace(/\$(\d+)/g, (_, index: string) => literal(bindings[Number(index) - 1]));
}
