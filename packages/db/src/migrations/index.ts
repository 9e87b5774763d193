import type { Knex } from 'knex';
import { isCreateRace } from '../errors.js';
import * as initialSchema from './0001-initial-schema.js';
import * as bookings from './0002-bookings.js';
import * as webhooks from './0003-webhooks.js';
import * as sessions from './0004-sessions.js';
import * as crm from './0005-crm.js';
import * as operations from './0006-operations.js';
import * as inventory from './0007-inventory.js';
import * as schedules from './0008-schedules.js';
import * as cancellation from './0010-cancellation.js';
import * as payments from './0011-payments.js';
import * as guestHolds from './0012-guest-holds.js';
import * as octo from './0013-octo.js';
import * as notifications from './0014-notifications.js';
import * as departureVersion from './0015-departure-version.js';
import * as takeSeatsAtCommit from './0016-take-seats-at-commit.js';
import * as guestMessage from './0017-guest-message.js';
import * as paymentSessionOpener from './0018-payment-session-opener.js';
import * as freePublicBookings from './0019-free-public-bookings.js';
import * as resources from './0020-resources.js';
import * as twoFactor from './0021-two-factor.js';
import * as personalData from './0022-personal-data.js';

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
  ['0005-crm', crm],
  ['0006-operations', operations],
  ['0007-inventory', inventory],
  ['0008-schedules', schedules],
  ['0010-cancellation', cancellation],
  ['0011-payments', payments],
  ['0012-guest-holds', guestHolds],
  ['0013-octo', octo],
  ['0014-notifications', notifications],
  ['0015-departure-version', departureVersion],
  ['0016-take-seats-at-commit', takeSeatsAtCommit],
  ['0017-guest-message', guestMessage],
  ['0018-payment-session-opener', paymentSessionOpener],
  ['0019-free-public-bookings', freePublicBookings],
  ['0020-resources', resources],
  ['0021-two-factor', twoFactor],
  ['0022-personal-data', personalData],
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
/** How long a process waits in total for a twin that holds knex's migration lock. */
const LOCK_WAIT_MS = 60_000;

/** knex does not wait for its lock row: a twin migrating right now makes it throw this. */
const isLockedByTwin = (error: unknown) => error instanceof Error && error.name === 'MigrationLocked';

/** Applies pending migrations and returns the names applied (empty when up to date). */
export async function migrateLatest(knex: Knex): Promise<string[]> {
  const lockDeadline = Date.now() + LOCK_WAIT_MS;
  for (let attempt = 1; ; attempt++) {
    try {
      const [, applied]: [number, string[]] = await knex.migrate.latest({ migrationSource });
      return applied;
    } catch (error) {
      // Processes starting together may race to create knex's own tables, or find a twin
      // holding the lock row while it migrates; the loser retries and then finds the work done.
      if (isLockedByTwin(error) && Date.now() < lockDeadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        continue;
      }
      if (attempt >= ATTEMPTS || !isCreateRace(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
    }
  }
}
