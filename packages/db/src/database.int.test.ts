import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newId } from '@travelops/domain/shared';
import knex from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type Database } from './database.js';
import { migrateLatest } from './migrations/index.js';
import { createTestDatabase, type TestDatabase } from './testing.js';
import { createStores } from './unit-of-work.js';

describe('migrations on PostgreSQL', () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase();
  });
  afterAll(async () => {
    await test.drop();
  });

  it('a second run applies nothing', async () => {
    expect(await migrateLatest(test.database.knex)).toEqual([]);
    await test.database.ping();
    expect(test.database.kind).toBe('postgres');
  });

  it('processes migrating an empty database together all succeed, and it is migrated once', async () => {
    const admin = knex({ client: 'pg', connection: test.url, pool: { min: 0, max: 1 } });
    const name = `travelops_test_race_${Date.now()}`;
    await admin.raw('create database ??', [name]);
    const url = new URL(test.url);
    url.pathname = `/${name}`;
    const processes: Database[] = [];
    try {
      for (let i = 0; i < 3; i++) processes.push(await createDatabase({ url: url.toString() }));
      const applied = await Promise.all(processes.map((p) => migrateLatest(p.knex)));
      expect(applied.flat()).toEqual([
        '0001-initial-schema',
        '0002-bookings',
        '0003-webhooks',
        '0004-sessions',
        '0005-crm',
        '0006-operations',
        '0007-inventory',
        '0008-schedules',
        '0010-cancellation',
        '0011-payments',
        '0012-guest-holds',
        '0013-octo',
        '0014-notifications',
        '0015-departure-version',
        '0016-take-seats-at-commit',
        '0017-guest-message',
        '0018-payment-session-opener',
        '0019-free-public-bookings',
        '0020-resources',
        '0021-two-factor',
        '0022-personal-data',
      ]);
    } finally {
      await Promise.all(processes.map((p) => p.close()));
      await admin.raw('drop database if exists ?? with (force)', [name]);
      await admin.destroy();
    }
  });
});

describe('embedded PGlite', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'travelops-db-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('creates its directory, migrates once and keeps data across restarts', async () => {
    const dataDir = join(dir, 'nested', 'data');
    const first = await createDatabase({ dataDir });
    expect(first.kind).toBe('pglite');
    expect(await migrateLatest(first.knex)).toEqual([
      '0001-initial-schema',
      '0002-bookings',
      '0003-webhooks',
      '0004-sessions',
      '0005-crm',
      '0006-operations',
      '0007-inventory',
      '0008-schedules',
      '0010-cancellation',
      '0011-payments',
      '0012-guest-holds',
      '0013-octo',
      '0014-notifications',
      '0015-departure-version',
      '0016-take-seats-at-commit',
      '0017-guest-message',
      '0018-payment-session-opener',
      '0019-free-public-bookings',
      '0020-resources',
      '0021-two-factor',
      '0022-personal-data',
    ]);
    const id = newId('workspace');
    const created = await createStores(first.knex).workspaces.insert({ id, slug: 'kept', name: 'Kept' });
    expect(created.ok).toBe(true);
    await first.close();

    const second = await createDatabase({ dataDir });
    try {
      await second.ping();
      expect(await migrateLatest(second.knex)).toEqual([]);
      expect((await createStores(second.knex).workspaces.findById(id))?.slug).toBe('kept');
    } finally {
      await second.close();
    }
  });

  it('needs a url or a dataDir', async () => {
    await expect(createDatabase({})).rejects.toThrow(/url or a dataDir/);
  });
});
