import { createHash } from 'node:crypto';

/**
 * Prepared statements on PostgreSQL. knex sends every statement unnamed, so PostgreSQL parses
 * and plans it again at each execution (0.05-0.25 ms a statement on the bench machine, a
 * fifth of a booking's database time). A statement marked with `prepared()` is sent named
 * instead: each connection parses it once and, after a few executions, keeps a generic plan.
 *
 * The name is a hash of the statement's text, so a builder whose text varies (optional
 * columns, lists) makes one prepared statement per text, never a clash. Mark only statements
 * whose texts are few: each connection keeps every one it has seen for its lifetime.
 */
export function prepared<B extends { options(options: Readonly<Record<string, unknown>>): B }>(
  builder: B,
): B {
  return builder.options({ [PREPARE]: true });
}

const PREPARE = 'travelopsPrepare';

const names = new Map<string, string>();

/** `p_` and 22 characters of the text's SHA-256: within PostgreSQL's 63 and unique in practice. */
function nameOf(sql: string): string {
  let name = names.get(sql);
  if (!name) {
    name = `p_${createHash('sha256').update(sql).digest('base64url').slice(0, 22)}`;
    names.set(sql, name);
  }
  return name;
}

/**
 * The driver options of a compiled statement: a statement marked by `prepared()` gets its name
 * (the knex client calls this on every statement it sends), unless `named` is false: then it
 * goes unnamed like any other, for a pooler in transaction mode that cannot carry named
 * statements from one transaction's server connection to the next (PgBouncer before 1.21).
 */
export function withPreparedName(
  sql: string,
  options: Record<string, unknown> | undefined,
  named = true,
): Record<string, unknown> | undefined {
  if (!options?.[PREPARE]) return options;
  const { [PREPARE]: _, ...rest } = options;
  return named ? { ...rest, name: nameOf(sql) } : rest;
}
