import type { Knex } from 'knex';
import { isCreateRace } from '../errors.js';
import * as initialSchema from './0001-initial-schema.js';
import * as bookings from './0002-bookings.js';
import * as webhooks from './0003-webhooks.js';
import * as sessions from './0004-sessions.js';

interface Migration {
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

/** Every migration, in order; names are recorded in knex_migrations and must never change. */
const MIGRATIONS: ReadonlyArray<readonly [name: string, migration: Migration]> = [
  ['0001-initial-schema', initialSchema],
  ['0002-bookings', bookings],
  ['0003-webhooks', webhooks],
  ['0004-sessions', sessions],
];

// Bundled modules instead of files on disk, so the single tsup bundle carries its schema.
const migrationSource: Knex.MigrationSource<string> = {
  getMigrations: async () => MIGRATIONS.map(([name]) => name),
  getMigrationName: (name) => name,
  getMigration: async (name) => {
    const entry = MIGRATIONS.find(([candidate]) => candidate === name);
    if (!entry) throw new Error(`Unknown migration ${name}.`);
    return entry[1];
  },
};

const ATTEMPTS = 5;

/** Applies pending migrations and returns the names applied (empty when up to date). */
export async function migrateLatest(knex: Knex): Promise<string[]> {
  for (let attempt = 1; ; attempt++) {
    try {
      const [, applied]: [number, string[]] = await knex.migrate.latest({ migrationSource });
      return applied;
    } catch (error) {
      // Processes starting together may race to create knex's own tables; the loser retries
      // and then finds the work done (the migrations themselves serialise on knex's lock row).
      if (attempt >= ATTEMPTS || !isCreateRace(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
    }
  }
}
