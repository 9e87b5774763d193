import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookingInput, bookingsPath } from '../support/booking-fixtures.js';
import { createDeparture, createTour, type TestWorkspace } from '../support/fixtures.js';
import { startTestApi, type TestApi } from '../support/harness.js';
import { type PgBouncer, startPgBouncer } from '../support/pgbouncer.js';

// Behind a pooler in transaction mode each transaction may run on another server connection:
// a named prepared statement made on one is unknown on the next (PgBouncer before 1.21, such as
// Debian 12's 1.18). PG_PREPARED_STATEMENTS=false sends the hot statements unnamed.

let bouncer: PgBouncer;
let t: TestApi;
let ws: TestWorkspace;
beforeAll(async () => {
  bouncer = await startPgBouncer({ poolSize: 3 });
  t = await startTestApi((databaseUrl) => ({
    DATABASE_URL: bouncer.through(databaseUrl),
    PG_PREPARED_STATEMENTS: 'false',
  }));
  ws = await t.createWorkspace('ADMIN');
}, 60_000);
afterAll(async () => {
  await t?.close();
  await bouncer?.stop();
});

describe(`PG_PREPARED_STATEMENTS=false, through PgBouncer in transaction mode`, () => {
  it('the API reaches PostgreSQL through the pooler', () => {
    // knex keeps the URL as its parts.
    const { connection } = t.api.database.knex.client.config as { connection: { port: string | number } };
    expect(String(connection.port)).toBe(String(bouncer.port));
    expect(bouncer.version).toMatch(/^PgBouncer \d+\.\d+/);
  });

  it('the booking race: 12 bookings at once for the last 5 seats, exactly 5 succeed, the rest 409', async () => {
    const tour = await createTour(t, ws, { capacity: 5 });
    const departure = await createDeparture(t, ws, tour.id, { capacity: 5 });
    const answers = await Promise.all(
      Array.from({ length: 12 }, () =>
        t.request('POST', bookingsPath(ws), { token: ws.token, body: bookingInput(departure.id) }),
      ),
    );
    const statuses = answers.map((res) => res.status).sort();
    expect(statuses, JSON.stringify(answers.find((res) => res.status >= 500)?.body)).toEqual([
      ...Array(5).fill(201),
      ...Array(7).fill(409),
    ]);
    for (const refused of answers.filter((res) => res.status === 409)) {
      expect(refused.body.error.details).toEqual([{ field: 'participants', issue: 'insufficient_seats' }]);
    }
    const seats = await t.database.database
      .knex('availability')
      .where({ id: departure.id })
      .first('booked_seats');
    expect(seats.booked_seats).toBe(5);
  });

  it('the read path: credentials, bookings by id and the list, many at once, all 200', async () => {
    const tour = await createTour(t, ws, { capacity: 20 });
    const departure = await createDeparture(t, ws, tour.id, { capacity: 20 });
    const booked: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await t.request('POST', bookingsPath(ws), {
        token: ws.token,
        body: bookingInput(departure.id),
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      booked.push(res.body.data.id as string);
    }
    const reads = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        t.request('GET', i % 3 === 0 ? bookingsPath(ws) : bookingsPath(ws, booked[i % booked.length]), {
          token: ws.token,
        }),
      ),
    );
    expect(reads.filter((res) => res.status !== 200).map((res) => res.body)).toEqual([]);
    expect(reads[1]?.body.data.id).toBe(booked[1]);
  });
});
