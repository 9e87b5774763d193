import type { DateRange, Keyset, Page, PageRequest } from '@travelops/domain/shared';
import type { Knex } from 'knex';
import { keysetDate, toPage, utcDayStart } from './columns.js';

/**
 * A `date` column as `YYYY-MM-DD`: select it as text (`col::text`), since pg turns a date into
 * local midnight and PGlite into UTC midnight; a Date that still arrives is read as UTC.
 */
export const toDay = (value: string | Date): string =>
  typeof value === 'string' ? value.slice(0, 10) : value.toISOString().slice(0, 10);

/** `[from, to]` calendar days (inclusive) as a half-open timestamp range on `column`. */
export function whereTimestampInDays(query: Knex.QueryBuilder, column: string, range: DateRange): void {
  if (range.from) query.where(column, '>=', utcDayStart(range.from));
  if (range.to) query.where(column, '<', utcDayStart(range.to, 1));
}

/** A keyset page oldest first on `(column, id)` ascending, strictly after the cursor. */
export async function pageAscending<Row, T extends { id: string }>(
  query: Knex.QueryBuilder,
  column: string,
  kind: 'timestamp' | 'date',
  page: PageRequest,
  map: (row: Row) => T,
  positionOf: (item: T) => string,
): Promise<Page<T>> {
  if (page.after) {
    const value = kind === 'timestamp' ? keysetDate(page.after) : String(page.after.value);
    query.whereRaw(`(??, id) > (?::${kind === 'timestamp' ? 'timestamptz' : 'date'}, ?)`, [
      column,
      value,
      page.after.id,
    ]);
  }
  const rows: Row[] = await query.orderBy([column, 'id']).limit(page.limit + 1);
  return toPage(rows.map(map), page, (item): Keyset => ({ value: positionOf(item), id: item.id }));
}

/** A keyset page newest first on `(column, id)` descending, strictly after the cursor. */
export async function pageDescending<Row, T extends { id: string }>(
  query: Knex.QueryBuilder,
  column: string,
  page: PageRequest,
  map: (row: Row) => T,
  positionOf: (item: T) => string,
): Promise<Page<T>> {
  if (page.after) {
    query.whereRaw('(??, id) < (?::timestamptz, ?)', [column, keysetDate(page.after), page.after.id]);
  }
  const rows: Row[] = await query
    .orderBy([
      { column, order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(page.limit + 1);
  return toPage(rows.map(map), page, (item): Keyset => ({ value: positionOf(item), id: item.id }));
}
