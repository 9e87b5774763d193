import type { Keyset, Page, PageRequest } from '@travelops/domain/shared';
import type { Knex } from 'knex';

/** A timestamptz as the drivers return it (pg and PGlite give Date; strings are tolerated). */
export type DbTimestamp = Date | string;

/** bigint columns: pg returns int8 as a string; amounts are capped at 1e12, so they are safe integers. */
export type DbBigint = string | number;

export const toIso = (value: DbTimestamp): string => new Date(value).toISOString();

export const toIsoOrNull = (value: DbTimestamp | null): string | null =>
  value === null ? null : toIso(value);

export const toDateOrNull = (value: DbTimestamp | null): Date | null =>
  value === null ? null : new Date(value);

export const toNumber = (value: DbBigint): number => Number(value);

/** A keyset value that is a timestamp; cursors are signed upstream, so a bad one is a bug. */
export function keysetDate(keyset: Keyset): Date {
  const date = new Date(keyset.value);
  if (Number.isNaN(date.getTime())) throw new Error(`Keyset value is not a timestamp: ${keyset.value}`);
  return date;
}

/** 00:00Z of a `YYYY-MM-DD` calendar date, `days` later. */
export function utcDayStart(day: string, days = 0): Date {
  const date = new Date(`${day}T00:00:00.000Z`);
  if (Number.isNaN(date.getTime())) throw new Error(`Not a calendar date: ${day}`);
  return new Date(date.getTime() + days * 86_400_000);
}

/** Rows fetched with `limit + 1`: the extra row only says whether another page exists. */
export function toPage<T>(items: T[], page: PageRequest, position: (item: T) => Keyset): Page<T> {
  const hasMore = items.length > page.limit;
  const kept = hasMore ? items.slice(0, page.limit) : items;
  const last = kept[kept.length - 1];
  return { items: kept, hasMore, next: hasMore && last ? position(last) : null };
}

/** Only the keys present (not undefined) in `patch`, renamed to their columns. */
export function toColumns<P extends object>(
  patch: P,
  columns: { readonly [K in keyof Required<P>]: string },
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(columns) as (keyof P)[]) {
    const value = patch[key];
    if (value !== undefined) out[columns[key]] = value;
  }
  return out;
}

/**
 * `columns` serialised to JSON text: the drivers would send a JS array as a PostgreSQL array,
 * not as jsonb. Absent keys stay absent.
 */
export function jsonColumns(
  changes: Record<string, unknown>,
  columns: readonly string[],
): Record<string, unknown> {
  const out = { ...changes };
  for (const column of columns) {
    if (column in out) out[column] = JSON.stringify(out[column]);
  }
  return out;
}

/**
 * Runs `work` inside a savepoint when `db` is a transaction, so a constraint violation that
 * becomes a Result leaves the caller's transaction usable.
 */
export function guarded<T>(db: Knex | Knex.Transaction, work: (q: Knex) => Promise<T>): Promise<T> {
  return db.isTransaction ? db.transaction((trx) => work(trx)) : work(db);
}

/** A keyset page newest first, `(created_at, id)` descending, strictly after the cursor. */
export async function pageNewestFirst<Row, T extends { createdAt: string | Date; id: string }>(
  query: Knex.QueryBuilder,
  page: PageRequest,
  map: (row: Row) => T,
): Promise<Page<T>> {
  if (page.after) {
    query.whereRaw('(created_at, id) < (?::timestamptz, ?)', [keysetDate(page.after), page.after.id]);
  }
  const rows: Row[] = await query
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(page.limit + 1);
  return toPage(rows.map(map), page, (item) => ({ value: toIso(item.createdAt), id: item.id }));
}
