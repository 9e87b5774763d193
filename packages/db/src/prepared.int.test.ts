import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inlined } from './commit-statements.js';
import { createDatabase, type Database } from './database.js';
import { prepared } from './prepared.js';
import { createTestDatabase, type TestDatabase } from './testing.js';

const preparedNames = (db: Database['knex']) =>
  db.raw('select name, statement from pg_prepared_statements order by statement');

describe('prepared statements on PostgreSQL', () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase();
  });
  afterAll(async () => {
    await test.drop();
  });

  it('a marked statement is prepared once per connection and named after its text', async () => {
    // One transaction: one connection, whose prepared statements the view lists.
    await test.database.knex.transaction(async (trx) => {
      const first = await prepared(trx.raw('select ?::int + 1 as n', [1]));
      const again = await prepared(trx.raw('select ?::int + 1 as n', [41]));
      // Another text under the same call site: a statement of its own, never a clash.
      const other = await prepared(trx.raw('select ?::int + 2 as n', [1]));
      const plain = await trx.raw('select ?::int + 3 as n', [1]);
      expect([first, again, other, plain].map((result) => result.rows[0].n)).toEqual([2, 42, 3, 4]);

      const { rows } = await preparedNames(trx);
      expect(rows.map((row: { statement: string }) => row.statement)).toEqual([
        'select $1::int + 1 as n',
        'select $1::int + 2 as n',
      ]);
      for (const row of rows) expect(row.name).toMatch(/^p_[\w-]{22}$/);
    });
  });

  it('with preparedStatements: false a marked statement goes unnamed: nothing is prepared', async () => {
    const unnamed = await createDatabase({ url: test.url, preparedStatements: false });
    try {
      await unnamed.knex.transaction(async (trx) => {
        const result = await prepared(trx.raw('select ?::int + 1 as n', [1]));
        const builder = await prepared(trx('workspaces')).where({ id: 'none' }).first();
        expect([result.rows[0].n, builder]).toEqual([2, undefined]);
        expect((await preparedNames(trx)).rows).toEqual([]);
      });
    } finally {
      await unnamed.close();
    }
  });

  it('a statement for the commit keeps its values exact when written in as literals', async () => {
    const db = test.database.knex;
    const tricky = "O'Hara \\ 'quoted' \\' ; drop table bookings; --";
    const sql = inlined(db.raw('select ?::text as text, ?::integer as n', [tricky, 42]));
    expect(sql).not.toMatch(/\$\d/);
    const { rows } = await db.raw(sql);
    expect(rows[0]).toEqual({ text: tricky, n: 42 });
    expect(() => inlined(db.raw('select ?', [new Date()]))).toThrow(/Only text and finite numbers/);
    expect(() => inlined(db.raw('select ?', [Number.NaN]))).toThrow(/Only text and finite numbers/);
  });

  it('builders keep their options and results: a prepared query reads what a plain one does', async () => {
    const db = test.database.knex;
    const plain = await db('workspaces').where({ id: 'none' }).first();
    const marked = await prepared(db('workspaces')).where({ id: 'none' }).first();
    expect(marked).toEqual(plain);
  });
});

describe('prepared statements on PGlite', () => {
  let database: Database;
  beforeAll(async () => {
    database = await createDatabase({ dataDir: 'memory://' });
  });
  afterAll(async () => {
    await database.close();
  });

  it('the mark is ignored: the statement runs as any other', async () => {
    const result = await prepared(database.knex.raw('select ?::int + 1 as n', [1]));
    expect(result.rows[0].n).toBe(2);
  });
});
