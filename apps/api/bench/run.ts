/**
 * `pnpm bench`: the booking hot paths through the real HTTP API, each beside the same SQL
 * issued through a plain `pg.Pool` (no HTTP, no auth, no domain code) in the same run.
 * Its own PostgreSQL database (dropped at the end), the API in-process on 127.0.0.1.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism } from 'node:os';
import { createUnitOfWork, type Database } from '@travelops/db';
import { createTestDatabase } from '@travelops/db/testing';
import { newId } from '@travelops/domain';
import pg from 'pg';
import { tokenCreate, workspaceCreate } from '../src/cli/commands.js';
import { createApi, systemClock } from '../src/compose.js';
import { loadConfig } from '../src/config.js';
import { runLoad } from './http-load.js';
import { closedLoop, type Measurement, raceRounds, round, type Sample, summarize } from './measure.js';

const positive = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
};

const settings = {
  /** Measured seconds per case and side (HTTP, baseline), after short warm-ups. */
  seconds: positive('BENCH_SECONDS', 3),
  /** Each side's seconds are split into this many slices, HTTP and baseline alternating. */
  slices: positive('BENCH_SLICES', 3),
  /** Concurrent clients for the reads; the API's knex pool and the baseline pool both hold 10. */
  readClients: positive('BENCH_READ_CLIENTS', 10),
  /** Concurrent clients racing for one departure. */
  raceClients: positive('BENCH_RACE_CLIENTS', 50),
  /** Seats on each race round's fresh departure; every client asks twice per round. */
  raceCapacity: positive('BENCH_RACE_CAPACITY', 50),
  bookings: positive('BENCH_BOOKINGS', 5000),
  pageSize: 25,
  pageDepth: positive('BENCH_PAGE_DEPTH', 100),
  poolSize: 10,
};

// ---------------------------------------------------------------- the run

async function main() {
  const db = await createTestDatabase();
  const logged = { errors: 0 };
  const silent = {
    info: () => {},
    warn: () => {},
    error: () => void logged.errors++,
  };
  const config = loadConfig({
    DATABASE_URL: db.url,
    REDIS_URL: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
    HOST: '127.0.0.1',
    // The benchmark measures the service, not its rate limiter's 429s: the limits are lifted
    // (each check still runs, one Redis operation per request, as in production).
    RATE_LIMIT_PER_TOKEN: '100000000',
    RATE_LIMIT_PER_IP: '100000000',
    REDIS_KEY_PREFIX: `bench-${process.pid}:`,
  });
  const api = await createApi(config, silent);
  const server: Server = api.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const port = (server.address() as AddressInfo).port;
  const baseline = new pg.Pool({ connectionString: db.url, max: settings.poolSize });

  try {
    const deps = { uow: createUnitOfWork(api.database.knex), clock: systemClock };
    const workspace = await workspaceCreate(deps, { slug: 'bench', name: 'Bench' });
    if (!workspace.ok) throw new Error(workspace.error.message);
    const ws = workspace.value.workspaceId;
    const created = await tokenCreate(deps, { workspace: ws, role: 'ADMIN', name: 'bench' });
    if (!created.ok) throw new Error(created.error.message);
    const token = created.value.token;
    /** Set-up calls (not measured) from the main thread. */
    const call = async (method: string, path: string, body?: unknown, expected = 200) => {
      const res = await fetch(`http://127.0.0.1:${port}${path}`, {
        method,
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      if (res.status !== expected) throw new Error(`${method} ${path}: ${res.status} ${text}`);
      return JSON.parse(text);
    };

    process.stderr.write(`seeding ${settings.bookings} bookings...\n`);
    const tour = await call(
      'POST',
      `/workspaces/${ws}/tours`,
      { name: 'Bench Tour', durationMinutes: 60, basePrice: 2500, currency: 'EUR', capacity: 50 },
      201,
    );
    const tourId: string = tour.data.id;
    const startsAt = new Date(Date.now() + 30 * 86_400_000).toISOString();
    const newDeparture = async (capacity: number): Promise<string> =>
      (await call('POST', `/workspaces/${ws}/availability`, { tourId, startsAt, capacity }, 201)).data.id;
    const seeded = await newDeparture(settings.bookings);
    const customer = await call(
      'POST',
      `/workspaces/${ws}/customers`,
      { name: 'Bench Customer', email: 'bench@example.com' },
      201,
    );
    const customerId: string = customer.data.id;
    const bookingIds = await seedBookings(api.database.knex, {
      workspaceId: ws,
      customerId,
      availabilityId: seeded,
      tourId,
      startsAt,
    });

    const cases: Case[] = [];
    const slice = settings.seconds / settings.slices;
    const load = { port, token, clients: settings.readClients, seconds: slice };
    const sqlLoop = (send: () => Promise<string>) => () => closedLoop(settings.readClients, slice, send);

    // (a) getBooking, a random one of the seeded bookings each time
    process.stderr.write('getBooking...\n');
    const bookingPaths = bookingIds.map((id) => `/workspaces/${ws}/bookings/${id}`);
    const pick = () => bookingIds[Math.floor(Math.random() * bookingIds.length)] as string;
    cases.push(
      await compare(
        'getBooking',
        settings.readClients,
        () => runLoad({ kind: 'get', ...load, paths: bookingPaths }),
        sqlLoop(async () => {
          const res = await baseline.query(
            'select * from "bookings" where "workspace_id" = $1 and "id" = $2 limit $3',
            [ws, pick(), 1],
          );
          return res.rowCount === 1 ? 'row' : 'missing';
        }),
      ),
    );

    // (b) listBookings: page 1, and page `pageDepth` of the cursor chain (keyset: both should cost the same)
    process.stderr.write(`listBookings: walking ${settings.pageDepth} pages...\n`);
    const listPath = `/workspaces/${ws}/bookings?limit=${settings.pageSize}`;
    let cursor: string | null = null;
    let lastOfPrevious: { createdAt: string; id: string } | null = null;
    for (let page = 1; page < settings.pageDepth; page++) {
      const body: ListReply = await call(
        'GET',
        cursor ? `${listPath}&cursor=${encodeURIComponent(cursor)}` : listPath,
      );
      cursor = body.pagination.nextCursor;
      lastOfPrevious = body.data.at(-1) ?? null;
      if (!cursor || !lastOfPrevious) throw new Error(`the cursor chain ended at page ${page}`);
    }
    const deepPath = `${listPath}&cursor=${encodeURIComponent(cursor as string)}`;
    const deepPage: ListReply = await call('GET', deepPath);
    const keyset = lastOfPrevious as { createdAt: string; id: string };
    const keysetSql = `select * from "bookings" where "workspace_id" = $1 and (created_at, id) < ($2::timestamptz, $3)
      order by "created_at" desc, "id" desc limit $4`;
    const keysetArgs = [ws, keyset.createdAt, keyset.id, settings.pageSize + 1];
    const { rows: deepRows } = await baseline.query(keysetSql, keysetArgs);
    if (deepRows[0]?.id !== deepPage.data[0]?.id)
      throw new Error('the baseline keyset query is not that page');
    const fullPage = (rows: number | null) => (rows === settings.pageSize + 1 ? 'page' : 'short');

    cases.push(
      await compare(
        'listBookings page 1',
        settings.readClients,
        () => runLoad({ kind: 'get', ...load, paths: [listPath] }),
        sqlLoop(async () => {
          const res = await baseline.query(
            'select * from "bookings" where "workspace_id" = $1 order by "created_at" desc, "id" desc limit $2',
            [ws, settings.pageSize + 1],
          );
          return fullPage(res.rowCount);
        }),
      ),
    );
    cases.push(
      await compare(
        `listBookings page ${settings.pageDepth}`,
        settings.readClients,
        () => runLoad({ kind: 'get', ...load, paths: [deepPath] }),
        sqlLoop(async () => fullPage((await baseline.query(keysetSql, keysetArgs)).rowCount)),
      ),
    );

    // (c) createBooking: raceClients clients racing for one departure, a fresh one per round
    process.stderr.write('createBooking race...\n');
    const race = { clients: settings.raceClients, seconds: slice };
    cases.push(
      await compare(
        'createBooking race',
        settings.raceClients,
        () =>
          runLoad({
            kind: 'race',
            ...load,
            ...race,
            workspaceId: ws,
            tourId,
            startsAt,
            capacity: settings.raceCapacity,
          }),
        () =>
          raceRounds({
            ...race,
            prepare: () => newDeparture(settings.raceCapacity),
            attempt: (availabilityId) =>
              reserveWithPlainSql(baseline, { ws, availabilityId, customerId, tourId }),
          }),
      ),
    );

    report(cases, logged.errors);
    if (cases.some((c) => c.race && !(c.race.http.exact && c.race.baseline.exact))) process.exitCode = 1;
  } finally {
    await baseline.end();
    await new Promise((resolve) => server.close(resolve));
    await api.close();
    await db.drop();
  }
}

interface ListReply {
  data: { createdAt: string; id: string }[];
  pagination: { nextCursor: string | null };
}

interface RaceRounds {
  rounds: number;
  /** Every round sold exactly its seats: no overbooking, no seat left while a request lost. */
  exact: boolean;
}

interface Case {
  name: string;
  clients: number;
  http: Measurement;
  baseline: Measurement;
  race?: { seatsPerRound: number; http: RaceRounds; baseline: RaceRounds };
}

/** Alternates HTTP and baseline slices, so background load on the machine weighs on both sides alike. */
async function compare(
  name: string,
  clients: number,
  http: () => Promise<Sample>,
  sql: () => Promise<Sample>,
): Promise<Case> {
  const httpSamples: Sample[] = [];
  const sqlSamples: Sample[] = [];
  for (let i = 0; i < settings.slices; i++) {
    httpSamples.push(await http());
    sqlSamples.push(await sql());
  }
  const rounds = (samples: Sample[]): RaceRounds => {
    const sold = samples.flatMap((s) => s.soldPerRound ?? []);
    const expected = Math.min(settings.raceCapacity, settings.raceClients * 2);
    return { rounds: sold.length, exact: sold.every((n) => n === expected) };
  };
  const raced = httpSamples[0]?.soldPerRound !== undefined;
  return {
    name,
    clients,
    http: summarize(httpSamples),
    baseline: summarize(sqlSamples),
    ...(raced && {
      race: { seatsPerRound: settings.raceCapacity, http: rounds(httpSamples), baseline: rounds(sqlSamples) },
    }),
  };
}

/** Bookings written straight to the table, one second apart, newest first by createdAt. */
async function seedBookings(
  knex: Database['knex'],
  ids: { workspaceId: string; customerId: string; availabilityId: string; tourId: string; startsAt: string },
) {
  const now = Date.now();
  const rows = Array.from({ length: settings.bookings }, (_, i) => ({
    id: newId('booking'),
    workspace_id: ids.workspaceId,
    customer_id: ids.customerId,
    availability_id: ids.availabilityId,
    tour_id: ids.tourId,
    starts_at: ids.startsAt,
    status: 'CONFIRMED',
    payment_status: 'UNPAID',
    payment_mode: 'MANUAL',
    total_amount: 2500,
    currency: 'EUR',
    participant_count: 1,
    participants: JSON.stringify([participant()]),
    public_token: newId('booking'),
    confirmed_at: new Date(now - i * 1000).toISOString(),
    created_at: new Date(now - i * 1000).toISOString(),
    updated_at: new Date(now - i * 1000).toISOString(),
  }));
  await knex.batchInsert('bookings', rows, 500);
  await knex('availability').where({ id: ids.availabilityId }).update({ booked_seats: settings.bookings });
  await knex.raw('analyze bookings');
  return rows.map((row) => row.id);
}

const participant = () => ({
  id: newId('participant'),
  name: 'Guest',
  ageBand: null,
  dietaryNotes: null,
  accessibilityNotes: null,
  emergencyContact: null,
  waiverSigned: false,
  checkedInAt: null,
});

/** The baseline for createBooking: lock the departure, take a seat, insert the booking. */
async function reserveWithPlainSql(
  pool: pg.Pool,
  ids: { ws: string; availabilityId: string; customerId: string; tourId: string },
): Promise<string> {
  const conn = await pool.connect();
  try {
    await conn.query('begin');
    const { rows } = await conn.query(
      'select capacity, booked_seats, starts_at from availability where workspace_id = $1 and id = $2 for update',
      [ids.ws, ids.availabilityId],
    );
    const departure = rows[0];
    if (!departure || departure.capacity - departure.booked_seats < 1) {
      await conn.query('rollback');
      return '409';
    }
    await conn.query(
      'update availability set booked_seats = booked_seats + 1, updated_at = now() where workspace_id = $1 and id = $2',
      [ids.ws, ids.availabilityId],
    );
    await conn.query(
      `insert into bookings (id, workspace_id, customer_id, availability_id, tour_id, starts_at, status,
         payment_status, payment_mode, total_amount, currency, participant_count, participants)
       values ($1, $2, $3, $4, $5, $6, 'PENDING', 'UNPAID', 'CHECKOUT', 2500, 'EUR', 1, $7)`,
      [
        newId('booking'),
        ids.ws,
        ids.customerId,
        ids.availabilityId,
        ids.tourId,
        departure.starts_at,
        JSON.stringify([participant()]),
      ],
    );
    await conn.query('commit');
    return '201';
  } catch (error) {
    await conn.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    conn.release();
  }
}

// ---------------------------------------------------------------- output

function report(cases: Case[], errors: number) {
  const outcomes = (m: Measurement) =>
    Object.entries(m.outcomes)
      .map(([key, count]) => `${key}:${count}`)
      .join(' ');
  const header = ['case', 'side', 'clients', 'requests', 'req/s', 'p50 ms', 'p99 ms', 'outcomes'];
  const rows: string[][] = [];
  for (const c of cases) {
    for (const [side, m] of [
      ['HTTP', c.http],
      ['pg baseline', c.baseline],
    ] as const) {
      rows.push([
        side === 'HTTP' ? c.name : '',
        side,
        String(c.clients),
        String(m.requests),
        String(m.requestsPerSecond),
        m.p50Ms.toFixed(2),
        m.p99Ms.toFixed(2),
        outcomes(m),
      ]);
    }
  }
  const ratios = cases.map((c) => ({
    name: c.name,
    throughput: round(c.http.requestsPerSecond / c.baseline.requestsPerSecond, 3),
    p50: round(c.http.p50Ms / c.baseline.p50Ms, 2),
    p99: round(c.http.p99Ms / c.baseline.p99Ms, 2),
  }));
  console.log(table(header, rows));
  console.log('');
  console.log(
    table(
      ['case', 'req/s HTTP / baseline', 'p50 HTTP / baseline', 'p99 HTTP / baseline'],
      ratios.map((r) => [r.name, r.throughput.toFixed(3), `${r.p50.toFixed(2)}x`, `${r.p99.toFixed(2)}x`]),
    ),
  );
  for (const c of cases) if (c.race) console.log(`\n${c.name} rounds: ${JSON.stringify(c.race)}`);
  console.log(`server errors logged: ${errors}`);
  console.log('');
  console.log(
    JSON.stringify(
      {
        node: process.version,
        cpus: availableParallelism(),
        settings,
        cases: cases.map((c, i) => ({ ...c, ratio: ratios[i] })),
        serverErrorsLogged: errors,
      },
      null,
      2,
    ),
  );
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
