import { mkdtemp, rm } from 'node:fs/promises';
import { type ClientRequest, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createUnitOfWork } from '@travelops/db';
import { createTestDatabase, type TestDatabase } from '@travelops/db/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenCreate, workspaceCreate } from '../../src/cli/commands.js';
import { systemClock } from '../../src/compose.js';
import { tourInput } from '../support/fixtures.js';
import { TEST_REDIS_URL, testRedisEnv, unique } from '../support/harness.js';
import { freePort, startBuiltServer } from '../support/processes.js';

// Two API processes (the built server) sharing one database and one Redis: a credential's
// expensive requests (calendars, OCTO availability, manifests, schedule writes) hold at most
// EXPENSIVE_REQUESTS_PER_CREDENTIAL slots at once across both, OCTO and native alike.

let db: TestDatabase;
let cwd: string;
let servers: Awaited<ReturnType<typeof startBuiltServer>>[] = [];
let ports: number[] = [];
let workspaceId: string;
let tourId: string;
let departureId: string;
const tokens: string[] = [];
const tokenIds: string[] = [];
const redisEnv = testRedisEnv();
const redis = new Redis(TEST_REDIS_URL);

const DAY = 86_400_000;
const isoDay = (days: number) => new Date(Date.now() + days * DAY).toISOString().slice(0, 10);

async function call(instance: number, method: string, path: string, token: string, body?: unknown) {
  const res = await fetch(`http://127.0.0.1:${ports[instance]}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${token}`,
      ...(body !== undefined && { 'Content-Type': 'application/json' }),
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

/**
 * A POST whose body stays half sent until `finish()`: the request has been admitted and holds
 * its slot (slots are taken before the body is read) while the client is slow.
 */
function stalledPost(instance: number, path: string, token: string, body: unknown) {
  const text = JSON.stringify(body);
  const half = Math.floor(text.length / 2);
  let req: ClientRequest;
  const answered = new Promise<number>((resolve, reject) => {
    req = request(
      {
        host: '127.0.0.1',
        port: ports[instance],
        method: 'POST',
        path,
        headers: {
          Authorization: `Bearer ${token}`,
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(text),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.write(text.slice(0, half));
  });
  return {
    answered,
    finish: () => {
      req.end(text.slice(half));
      return answered;
    },
  };
}

const schedulesPath = () => `/workspaces/${workspaceId}/tours/${tourId}/schedules`;
const schedule = (time: string) => ({
  daysOfWeek: ['MON'],
  times: [time],
  startsOn: isoDay(30),
  endsOn: isoDay(36),
});
const manifestPath = () => `/workspaces/${workspaceId}/availability/${departureId}/manifest`;
const octoAvailability = () => ({
  productId: tourId,
  optionId: 'DEFAULT',
  localDateStart: isoDay(0),
  localDateEnd: isoDay(30),
});

async function until(condition: () => Promise<boolean>) {
  for (let i = 0; i < 200; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the condition never held');
}

beforeAll(async () => {
  db = await createTestDatabase();
  cwd = await mkdtemp(join(tmpdir(), 'travelops-expensive-'));
  const deps = { uow: createUnitOfWork(db.database.knex), clock: systemClock };
  const workspace = await workspaceCreate(deps, { slug: unique('slots'), name: 'Slots' });
  if (!workspace.ok) throw new Error(workspace.error.message);
  workspaceId = workspace.value.workspaceId;
  for (const name of ['first', 'second']) {
    const token = await tokenCreate(deps, { workspace: workspaceId, role: 'ADMIN', name });
    if (!token.ok) throw new Error(token.error.message);
    tokens.push(token.value.token);
    tokenIds.push(token.value.tokenId);
  }
  ports = [await freePort(), await freePort()];
  const env = {
    DATABASE_URL: db.url,
    ...redisEnv,
    EXPENSIVE_REQUESTS_PER_CREDENTIAL: '4',
    RATE_LIMIT_PER_TOKEN: '100000',
    RATE_LIMIT_PER_IP: '100000',
  };
  servers = await Promise.all(ports.map((port) => startBuiltServer({ ...env, PORT: String(port) }, cwd)));

  const [token] = tokens as [string];
  const tour = await call(
    0,
    'POST',
    `/workspaces/${workspaceId}/tours`,
    token,
    tourInput({ isPublic: true }),
  );
  expect(tour.status, JSON.stringify(tour.body)).toBe(201);
  tourId = tour.body.data.id;
  // A year of departures, four a day: the work an availability check and a calendar do.
  const year = await call(0, 'POST', schedulesPath(), token, {
    daysOfWeek: ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'],
    times: ['09:00', '11:00', '14:00', '17:00'],
    startsOn: isoDay(1),
    endsOn: isoDay(365),
  });
  expect(year.status, JSON.stringify(year.body)).toBe(201);
  const departures = await call(
    0,
    'GET',
    `/workspaces/${workspaceId}/availability?tourId=${tourId}&limit=1`,
    token,
  );
  departureId = departures.body.data[0].id;
}, 60_000);

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  redis.disconnect();
  await db?.drop();
  await rm(cwd, { recursive: true, force: true });
});

describe('at most 4 expensive requests at once per credential, across both instances', () => {
  it('four held (native and OCTO, on both instances): a fifth is 429 with Retry-After; other calls and other tokens go on; freed, it runs', async () => {
    const [token, other] = tokens as [string, string];
    const held = [
      stalledPost(0, schedulesPath(), token, schedule('08:00')),
      stalledPost(1, schedulesPath(), token, schedule('08:15')),
      stalledPost(0, '/octo/availability', token, octoAvailability()),
      stalledPost(1, '/octo/availability', token, octoAvailability()),
    ];
    // Each holds a lease in the shared Redis once admitted (a probe sent sooner could take a slot first).
    await until(
      async () => (await redis.zcard(`${redisEnv.REDIS_KEY_PREFIX}slots:tok:${tokenIds[0]}`)) === 4,
    );
    // The fifth, on either instance, native or OCTO: refused while the four hold their slots.
    const refused = await call(0, 'GET', manifestPath(), token);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.body.error).toMatchObject({ code: 'RATE_LIMITED' });
    expect(refused.body.error.message).toContain('At most 4 expensive requests');
    const octo = await call(1, 'POST', '/octo/availability', token, octoAvailability());
    expect(octo.status).toBe(429);
    expect(octo.headers.get('retry-after')).toBe('1');
    expect(octo.body).toMatchObject({ error: 'TOO_MANY_REQUESTS' });

    // Cheap calls of the same token, and another token's expensive ones, are not held back.
    expect((await call(0, 'GET', `/workspaces/${workspaceId}/tours/${tourId}`, token)).status).toBe(200);
    expect((await call(1, 'GET', manifestPath(), other)).status).toBe(200);

    const statuses = await Promise.all(held.map((request) => request.finish()));
    expect(statuses).toEqual([201, 201, 200, 200]);
    expect((await call(0, 'GET', manifestPath(), token)).status).toBe(200);
    expect((await call(1, 'POST', '/octo/availability', token, octoAvailability())).status).toBe(200);
  });

  it('/healthz stays quick while one token sends 8 expensive requests at a time (p99 under 1 s: 10x the 100 ms aim)', async () => {
    const [token] = tokens as [string];
    let running = true;
    const statuses = new Map<number, number>();
    const flood = async () => {
      while (running) {
        const res = await call(0, 'POST', '/octo/availability', token, octoAvailability());
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      }
    };
    const senders = Array.from({ length: 8 }, flood);
    const timings: number[] = [];
    for (let i = 0; i < 100; i++) {
      const started = performance.now();
      const res = await fetch(`http://127.0.0.1:${ports[0]}/healthz`);
      await res.arrayBuffer();
      timings.push(performance.now() - started);
      expect(res.status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    running = false;
    await Promise.all(senders);
    timings.sort((a, b) => a - b);
    const p99 = timings[Math.ceil(timings.length * 0.99) - 1] as number;
    expect(p99).toBeLessThan(1000);
    // The brake was met: some of the eight were refused, and the rest answered.
    expect(statuses.get(200) ?? 0).toBeGreaterThan(0);
    expect(statuses.get(429) ?? 0).toBeGreaterThan(0);
    expect([...statuses.keys()].sort()).toEqual([200, 429]);
  }, 60_000);
});
