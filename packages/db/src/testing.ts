import { randomBytes } from 'node:crypto';
import knex from 'knex';
import { createDatabase, type Database } from './database.js';
import { migrateLatest } from './migrations/index.js';

export interface TestDatabase {
  url: string;
  database: Database;
  /** Closes the pool and drops the database. */
  drop(): Promise<void>;
}

const DEFAULT_ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

/** A fresh, migrated PostgreSQL database of its own, for one test file. */
export async function createTestDatabase(): Promise<TestDatabase> {
  // Tests are an edge of their own: the admin URL may come from the environment here only.
  const adminUrl = process.env.TEST_DATABASE_URL ?? DEFAULT_ADMIN_URL;
  const name = `travelops_test_${randomBytes(8).toString('hex')}`;
  await withAdmin(adminUrl, (admin) => admin.raw('create database ??', [name]));

  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await createDatabase({ url: url.toString() });
  try {
    await migrateLatest(database.knex);
  } catch (error) {
    await database.close();
    await withAdmin(adminUrl, (admin) => admin.raw('drop database if exists ?? with (force)', [name]));
    throw error;
  }

  return {
    url: url.toString(),
    database,
    async drop() {
      await database.close();
      await withAdmin(adminUrl, (admin) => admin.raw('drop database if exists ?? with (force)', [name]));
    },
  };
}

async function withAdmin(adminUrl: string, work: (admin: knex.Knex) => Promise<unknown>): Promise<void> {
  const admin = knex({ client: 'pg', connection: adminUrl, pool: { min: 0, max: 1 } });
  try {
    await work(admin);
  } finally {
    await admin.destroy();
  }
}
