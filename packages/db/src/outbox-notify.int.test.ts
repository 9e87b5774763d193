import type { OutboxEvent } from '@travelops/domain/events';
import { fail, newId, ok } from '@travelops/domain/shared';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDatabase, type Database } from './database.js';
import { migrateLatest } from './migrations/index.js';
import type { OutboxListener } from './outbox-notify.js';
import { newWorkspace } from './stores/contract-fixtures.js';
import { createTestDatabase, type TestDatabase } from './testing.js';
import { createStores, createUnitOfWork } from './unit-of-work.js';

/** A listener that counts what it is told; `listening` lists each (re)start. */
function listen(database: Database) {
  const heard = {
    events: 0,
    /** For each notification: were the events appended so far visible to another session then? */
    visibleWhenTold: [] as Promise<boolean>[],
    listening: [] as { reconnected: boolean }[],
    errors: [] as Error[],
    expected: [] as string[],
    listener: null as OutboxListener | null,
  };
  heard.listener = database.listenForOutbox({
    onEvent() {
      heard.events += 1;
      const ids = [...heard.expected];
      heard.visibleWhenTold.push(
        database
          .knex('outbox_events')
          .whereIn('id', ids)
          .count<{ count: string | number }[]>('id as count')
          .then(([row]) => Number(row?.count) === ids.length),
      );
    },
    onListening: (state) => heard.listening.push(state),
    onError: (error) => heard.errors.push(error),
  });
  return heard;
}

const event = (workspaceId: string): OutboxEvent => ({
  id: newId('event'),
  type: 'booking.created',
  createdAt: '2030-08-01T10:00:00.123Z',
  workspaceId,
  data: { booking: { id: 'bkg_1' } },
});

/** Appends events in one transaction of the unit of work, as a use case does; committed unless told. */
async function appendInTransaction(
  database: Database,
  workspaceId: string,
  options: { count?: number; rollBack?: boolean; events?: OutboxEvent[] } = {},
): Promise<void> {
  const events = options.events ?? Array.from({ length: options.count ?? 1 }, () => event(workspaceId));
  await createUnitOfWork(database.knex).transaction(async (tx) => {
    for (const e of events) await tx.stores.outbox.append(e, newId('booking'));
    return options.rollBack ? fail({ code: 'CONFLICT' }) : ok(null);
  });
}

describe('the outbox listener on PostgreSQL', () => {
  let test: TestDatabase;
  let workspaceId: string;
  beforeAll(async () => {
    test = await createTestDatabase();
    workspaceId = await newWorkspace(test.database.knex);
  });
  afterAll(async () => {
    await test.drop();
  });

  it('is told after a commit, when the event is already visible; a rolled-back append tells nothing', async () => {
    const heard = listen(test.database);
    try {
      await vi.waitFor(() => expect(heard.listening).toEqual([{ reconnected: false }]));
      await appendInTransaction(test.database, workspaceId, { rollBack: true });
      const committed = event(workspaceId);
      heard.expected.push(committed.id);
      await appendInTransaction(test.database, workspaceId, { events: [committed] });
      await vi.waitFor(() => expect(heard.events).toBeGreaterThanOrEqual(1));
      // One process signals in order: had the rollback told, its notification would have come first.
      expect(heard.events).toBe(1);
      expect(await Promise.all(heard.visibleWhenTold)).toEqual([true]);
      expect(heard.errors).toEqual([]);
    } finally {
      await heard.listener?.close();
    }
  });

  it('one transaction appending several events is one notification; an append on the pool is one too', async () => {
    const heard = listen(test.database);
    try {
      await vi.waitFor(() => expect(heard.listening).toHaveLength(1));
      await appendInTransaction(test.database, workspaceId, { count: 3 });
      await vi.waitFor(() => expect(heard.events).toBe(1));
      await createStores(test.database.knex).outbox.append(event(workspaceId), newId('booking'));
      await vi.waitFor(() => expect(heard.events).toBe(2));
    } finally {
      await heard.listener?.close();
    }
  });

  it('its connection terminated (pg_terminate_backend): says so once, listens again, hears the next commit', async () => {
    const heard = listen(test.database);
    try {
      await vi.waitFor(() => expect(heard.listening).toHaveLength(1));
      const terminated = await test.database.knex.raw<{ rows: { pid: number }[] }>(
        `select pid, pg_terminate_backend(pid) from pg_stat_activity
         where application_name = 'travelops-outbox-listener' and datname = current_database()`,
      );
      expect(terminated.rows).toHaveLength(1);
      await vi.waitFor(() =>
        expect(heard.listening).toEqual([{ reconnected: false }, { reconnected: true }]),
      );
      expect(heard.errors).toHaveLength(1);
      await createStores(test.database.knex).outbox.append(event(workspaceId), newId('booking'));
      await vi.waitFor(() => expect(heard.events).toBe(1));
    } finally {
      await heard.listener?.close();
    }
  });

  it("the committing side's signal connection terminated: the next commit still wakes the listener", async () => {
    const heard = listen(test.database);
    try {
      await vi.waitFor(() => expect(heard.listening).toHaveLength(1));
      await appendInTransaction(test.database, workspaceId);
      await vi.waitFor(() => expect(heard.events).toBe(1));
      const terminated = await test.database.knex.raw<{ rows: unknown[] }>(
        `select pg_terminate_backend(pid) from pg_stat_activity
         where application_name = 'travelops-outbox-signal' and datname = current_database()`,
      );
      expect(terminated.rows).toHaveLength(1);
      await appendInTransaction(test.database, workspaceId);
      await vi.waitFor(() => expect(heard.events).toBe(2));
    } finally {
      await heard.listener?.close();
    }
  });

  it('closed, it is told nothing more and leaves no connection behind', async () => {
    const heard = listen(test.database);
    await vi.waitFor(() => expect(heard.listening).toHaveLength(1));
    await heard.listener?.close();
    await createStores(test.database.knex).outbox.append(event(workspaceId), newId('booking'));
    const listeners = () =>
      test.database.knex.raw<{ rows: unknown[] }>(
        `select pid from pg_stat_activity
         where application_name = 'travelops-outbox-listener' and datname = current_database()`,
      );
    // The server may take a moment to reap the backend after the client has gone.
    await vi.waitFor(async () => expect((await listeners()).rows).toEqual([]));
    expect(heard.events).toBe(0);
  });
});

describe('the outbox listener on PGlite (embedded: the same process)', () => {
  let database: Database;
  let workspaceId: string;
  beforeAll(async () => {
    database = await createDatabase({ dataDir: 'memory://' });
    await migrateLatest(database.knex);
    workspaceId = await newWorkspace(database.knex);
  });
  afterAll(async () => {
    await database.close();
  });

  it('is told after a commit; a rolled-back append tells nothing', async () => {
    const heard = listen(database);
    try {
      await vi.waitFor(() => expect(heard.listening).toEqual([{ reconnected: false }]));
      await appendInTransaction(database, workspaceId, { rollBack: true });
      const committed = event(workspaceId);
      heard.expected.push(committed.id);
      await appendInTransaction(database, workspaceId, { events: [committed] });
      await vi.waitFor(() => expect(heard.events).toBeGreaterThanOrEqual(1));
      expect(heard.events).toBe(1);
      expect(await Promise.all(heard.visibleWhenTold)).toEqual([true]);
    } finally {
      await heard.listener?.close();
    }
  });
});
