import { execFile } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createDatabase, type Database } from '@travelops/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { book, bookingsPath, setStatus } from '../support/booking-fixtures.js';
import { createDeparture, createTour, type TestWorkspace } from '../support/fixtures.js';
import { startTestApi, type TestApi } from '../support/harness.js';

// docs/deploy.md, "Backups and data": a dump taken while bookings are being made restores into
// a database whose seats and outbox hold, and which the API serves.

const run = promisify(execFile);
type Knex = Database['knex'];

let t: TestApi;
let ws: TestWorkspace;
let dir: string;
beforeAll(async () => {
  t = await startTestApi();
  ws = await t.createWorkspace('ADMIN');
  dir = await mkdtemp(join(tmpdir(), 'travelops-backup-'));
});
afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

/** The seat invariant: each departure's booked seats are its live (not cancelled) bookings' participants. */
async function seatMismatches(db: Knex) {
  const rows = await db.raw(`
    select a.id, a.booked_seats,
           coalesce((select sum(b.participant_count) from bookings b
                      where b.availability_id = a.id and b.status <> 'CANCELLED'), 0)::int as held
      from availability a`);
  return (rows.rows as { id: string; booked_seats: number; held: number }[]).filter(
    (row) => row.booked_seats !== row.held,
  );
}

/**
 * The outbox checks: every booking has its booking.created event, every cancelled one its
 * booking.cancelled, no event names a booking that is not there, and the event sequence
 * continues after the highest restored one.
 */
async function outboxProblems(db: Knex) {
  const problems: string[] = [];
  const missing = await db.raw(`
    select b.id, b.status from bookings b
     where not exists (select 1 from outbox_events e where e.aggregate_id = b.id and e.type = 'booking.created')
        or (b.status = 'CANCELLED' and not exists (
              select 1 from outbox_events e where e.aggregate_id = b.id and e.type = 'booking.cancelled'))`);
  for (const row of missing.rows) problems.push(`booking ${row.id} (${row.status}) lacks its events`);
  const orphans = await db.raw(`
    select e.id from outbox_events e
     where e.type like 'booking.%' and not exists (select 1 from bookings b where b.id = e.aggregate_id)`);
  for (const row of orphans.rows) problems.push(`event ${row.id} names no booking`);
  const orphanDeliveries = await db.raw(`
    select d.id from webhook_deliveries d where not exists (select 1 from outbox_events e where e.id = d.event_id)`);
  for (const row of orphanDeliveries.rows) problems.push(`delivery ${row.id} names no event`);
  return problems;
}

describe('a backup taken under load restores whole (docs/deploy.md)', () => {
  it('pg_dump while bookings are made and cancelled; pg_restore into a new database; seats, outbox and the API hold there', async () => {
    const tour = await createTour(t, ws);
    const departures = await Promise.all(
      [10, 11, 12].map((days) =>
        createDeparture(t, ws, tour.id, {
          startsAt: new Date(Date.now() + days * 86_400_000).toISOString(),
          capacity: 500,
        }),
      ),
    );
    const source = t.api.database.knex;
    const countBookings = async (db: Knex) => Number((await db('bookings').count({ n: '*' }))[0]?.n);

    // Four clients book and cancel without pause until the dump is done.
    let stop = false;
    let made = 0;
    const client = async (n: number) => {
      for (let i = 0; !stop; i++) {
        const departure = departures[(n + i) % departures.length] as { id: string };
        const booking = await book(t, ws, departure.id, { participants: [{ name: 'A' }, { name: 'B' }] });
        made++;
        if (i % 3 === 0) {
          const cancelled = await setStatus(t, ws, booking.id, 'CANCELLED');
          expect(cancelled.status).toBe(200);
        }
      }
    };
    const load = Promise.all([0, 1, 2, 3].map(client));
    while (made < 20) await new Promise((resolve) => setTimeout(resolve, 20));

    const file = join(dir, 'travelops.dump');
    const before = await countBookings(source);
    const madeBefore = made;
    const dumpStarted = Date.now();
    await run('pg_dump', ['--format=custom', '--no-owner', `--file=${file}`, t.database.url]);
    const dumpMs = Date.now() - dumpStarted;
    // Bookings committed while pg_dump ran: the dump was taken under load.
    const madeWhileDumping = made - madeBefore;
    stop = true;
    await load;
    if (process.env.BACKUP_TEST_REPORT) {
      process.stdout.write(`${JSON.stringify({ dumpMs, madeWhileDumping, before })}\n`);
    }
    expect(madeWhileDumping).toBeGreaterThan(0);
    const after = await countBookings(source);
    expect((await stat(file)).size).toBeGreaterThan(10_000);
    expect(after).toBeGreaterThan(before);

    const restoredName = `${new URL(t.database.url).pathname.slice(1)}_restored`;
    // Any connection may create and drop another database: the test's own does.
    const admin = source;
    await admin.raw('create database ??', [restoredName]);
    const restoredUrl = new URL(t.database.url);
    restoredUrl.pathname = `/${restoredName}`;
    try {
      await run('pg_restore', ['--no-owner', '--exit-on-error', `--dbname=${restoredUrl}`, file]);
      const restoredDatabase = await createDatabase({ url: restoredUrl.toString() });
      const restored = restoredDatabase.knex;
      try {
        // One snapshot: some of the bookings made while it ran, never a half-written one.
        const kept = await countBookings(restored);
        expect(kept).toBeGreaterThanOrEqual(before);
        expect(kept).toBeLessThanOrEqual(after);
        if (process.env.BACKUP_TEST_REPORT) process.stdout.write(`${JSON.stringify({ kept, after })}\n`);
        expect(await seatMismatches(restored)).toEqual([]);
        expect(await outboxProblems(restored)).toEqual([]);
        expect(await seatMismatches(source)).toEqual([]);
        expect(await outboxProblems(source)).toEqual([]);
      } finally {
        await restoredDatabase.close();
      }

      // The API serves the restored database: it migrates nothing, books, and the sequences go on.
      const served = await startTestApi({ DATABASE_URL: restoredUrl.toString() });
      try {
        const highest = Number((await served.api.database.knex('outbox_events').max({ seq: 'seq' }))[0]?.seq);
        const res = await served.request('POST', bookingsPath(ws), {
          token: ws.token,
          body: {
            availabilityId: departures[0]?.id,
            customer: { name: 'After', email: 'after@example.com' },
            participants: [{ name: 'C' }],
          },
        });
        expect(res.status).toBe(201);
        const [event] = await served.api.database
          .knex('outbox_events')
          .where({ aggregate_id: res.body.data.id });
        expect(Number(event.seq)).toBeGreaterThan(highest);
        expect(await seatMismatches(served.api.database.knex)).toEqual([]);
      } finally {
        await served.close();
      }
    } finally {
      await admin.raw('drop database if exists ?? with (force)', [restoredName]);
    }
  }, 120_000);
});
