/**
 * Bulk seeding for the bench, in SQL: copies of one template row made by the API (so every
 * column, including ones added later, holds what the product writes), numbered by
 * generate_series. Seeding a million bookings through HTTP would take the bench's whole budget.
 */
import type { Database } from '@travelops/db';

type Knex = Database['knex'];

/** Columns of `table`, in order. */
async function columnsOf(knex: Knex, table: string): Promise<string[]> {
  const { rows } = await knex.raw<{ rows: { column_name: string }[] }>(
    `select column_name from information_schema.columns
      where table_schema = current_schema() and table_name = ? order by ordinal_position`,
    [table],
  );
  return rows.map((row) => row.column_name);
}

/** `insert into table select ... from table t, generate_series(...) g where t.id = template`, columns overridden by SQL over `g`. */
async function copyRows(
  knex: Knex,
  table: string,
  templateId: string,
  range: { from: number; to: number },
  overrides: Record<string, string>,
  bindings: Date[] = [],
) {
  const columns = await columnsOf(knex, table);
  const select = columns.map((column) => overrides[column] ?? `t."${column}"`).join(', ');
  await knex.raw(
    `insert into "${table}" (${columns.map((c) => `"${c}"`).join(', ')})
     select ${select} from "${table}" t, generate_series(?::int, ?::int) g where t.id = ?`,
    [...bindings, range.from, range.to, templateId],
  );
}

export const seededBookingId = (n: number) => `bkg_seed${String(n).padStart(14, '0')}`;

/**
 * `count` CONFIRMED copies of the template booking, one second apart in `createdAt` (newest
 * first), ids from `seededBookingId(1..count)`.
 */
export async function seedBookings(
  knex: Knex,
  templateId: string,
  count: number,
  progress: (done: number) => void,
) {
  const now = new Date();
  const chunk = 100_000;
  for (let from = 1; from <= count; from += chunk) {
    const to = Math.min(count, from + chunk - 1);
    await copyRows(
      knex,
      'bookings',
      templateId,
      { from, to },
      {
        id: `'bkg_seed' || lpad(g::text, 14, '0')`,
        public_token: `'seed' || lpad(g::text, 28, '0')`,
        status: `'CONFIRMED'`,
        expires_at: 'null',
        external_reference: 'null',
        created_at: `?::timestamptz - g * interval '1 second'`,
        updated_at: `?::timestamptz - g * interval '1 second'`,
        confirmed_at: `?::timestamptz - g * interval '1 second'`,
      },
      [now, now, now],
    );
    progress(to);
  }
  // VACUUM too, not only ANALYZE: the million fresh rows would otherwise get their hint bits set
  // by the first reads (each dirtying its page) and autovacuum's insert threshold would start a
  // pass over the whole table while the cases run, skewing whichever it overlaps.
  await knex.raw('vacuum (analyze) bookings');
}

/**
 * `perDay` departures a day for `days` days from tomorrow (UTC), copies of the template
 * departure (of its tour), with some seats sold so the calendar has every kind of day: from
 * 08:00Z every 3 hours, or, with `spacingSeconds`, one every that many seconds from 00:00Z.
 * `idPrefix` tells the copies of two templates apart.
 */
export async function seedDepartures(
  knex: Knex,
  templateId: string,
  days: number,
  perDay: number,
  options: { idPrefix?: string; spacingSeconds?: number } = {},
) {
  const { idPrefix = 'avl_cal', spacingSeconds } = options;
  const startsAt =
    spacingSeconds === undefined
      ? `date_trunc('day', now()) + interval '1 day 8 hours' + (g / ${perDay}) * interval '1 day' + (g % ${perDay}) * interval '3 hours'`
      : `date_trunc('day', now()) + interval '1 day' + g * interval '${spacingSeconds} seconds'`;
  await copyRows(
    knex,
    'availability',
    templateId,
    { from: 0, to: days * perDay - 1 },
    {
      id: `'${idPrefix}' || lpad(g::text, ${21 - idPrefix.length}, '0')`,
      starts_at: startsAt,
      booked_seats: `(g * 7) % (t.capacity + 1)`,
    },
  );
  await knex.raw('vacuum (analyze) availability');
}
