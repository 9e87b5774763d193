import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createUnitOfWork } from '@travelops/db';
import { createTestDatabase, type TestDatabase } from '@travelops/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memberCreate, workspaceCreate } from '../../src/cli/commands.js';
import { systemClock } from '../../src/compose.js';
import { sessionCookieOf, unique } from '../support/harness.js';
import { freePort, startBuiltServer, startRedis } from '../support/processes.js';

// Two API processes (the built server, as deployed) on different ports, sharing one
// PostgreSQL database and one Redis: limits, revocation and sessions hold across both.
const TOKEN_LIMIT = 12;

let db: TestDatabase;
let cwd: string;
let redisPort: number;
let redis: ReturnType<typeof startRedis>;
let servers: Awaited<ReturnType<typeof startBuiltServer>>[] = [];
let ports: number[] = [];
let workspaceId: string;
let workspaceSlug: string;
let member: { email: string; password: string };

beforeAll(async () => {
  db = await createTestDatabase();
  cwd = await mkdtemp(join(tmpdir(), 'travelops-instances-'));
  redisPort = await freePort();
  redis = startRedis(redisPort);
  await redis.ready;
  const deps = { uow: createUnitOfWork(db.database.knex), clock: systemClock };
  const workspace = await workspaceCreate(deps, { slug: unique('two'), name: 'Two instances' });
  if (!workspace.ok) throw new Error(workspace.error.message);
  workspaceId = workspace.value.workspaceId;
  workspaceSlug = workspace.value.slug;
  member = { email: `${unique('admin')}@example.com`, password: 'a long enough password' };
  const created = await memberCreate(deps, { workspace: workspaceId, role: 'ADMIN', ...member });
  if (!created.ok) throw new Error(created.error.message);

  ports = [await freePort(), await freePort()];
  const env = {
    DATABASE_URL: db.url,
    REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    REDIS_KEY_PREFIX: `${unique('instances')}:`,
    RATE_LIMIT_PER_TOKEN: String(TOKEN_LIMIT),
    RATE_LIMIT_PER_IP: '100000',
  };
  servers = await Promise.all(ports.map((port) => startBuiltServer({ ...env, PORT: String(port) }, cwd)));
});

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  await redis?.stop();
  await db?.drop();
  await rm(cwd, { recursive: true, force: true });
});

async function call(
  port: number,
  method: string,
  path: string,
  options: { token?: string; cookie?: string; csrf?: string; body?: unknown } = {},
) {
  const headers: Record<string, string> = {};
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  if (options.cookie) headers.Cookie = options.cookie;
  if (options.csrf) headers['X-CSRF-Token'] = options.csrf;
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(`http://127.0.0.1:${port}${path}`, {
    method,
    headers,
    ...(options.body !== undefined && { body: JSON.stringify(options.body) }),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

const [A, B] = [0, 1];
const port = (instance: number) => ports[instance] as number;

async function signIn(instance: number) {
  const res = await call(port(instance), 'POST', '/auth/login', { body: member });
  expect(res.status).toBe(200);
  return { cookie: sessionCookieOf(res as never), csrf: res.body.data.csrfToken as string };
}

describe('two API processes sharing PostgreSQL and Redis', () => {
  it('share one rate limit per token: requests alternating between them spend one budget', async () => {
    const { cookie, csrf } = await signIn(A);
    const key = await call(port(A), 'POST', `/workspaces/${workspaceId}/api-keys`, {
      cookie,
      csrf,
      body: { name: 'shared budget', role: 'READ_ONLY' },
    });
    expect(key.status).toBe(201);
    const remaining: number[] = [];
    for (let i = 0; i < TOKEN_LIMIT; i++) {
      const res = await call(port(i % 2), 'GET', `/workspaces/${workspaceId}/tours`, {
        token: key.body.data.secret,
      });
      expect(res.status).toBe(200);
      remaining.push(Number(res.headers.get('x-ratelimit-remaining')));
    }
    expect(remaining).toEqual(Array.from({ length: TOKEN_LIMIT }, (_, i) => TOKEN_LIMIT - 1 - i));
    for (const instance of [A, B]) {
      const refused = await call(port(instance), 'GET', `/workspaces/${workspaceId}/tours`, {
        token: key.body.data.secret,
      });
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });

  it('a key revoked through one is refused by the other at once', async () => {
    const { cookie, csrf } = await signIn(A);
    const key = await call(port(A), 'POST', `/workspaces/${workspaceId}/api-keys`, {
      cookie,
      csrf,
      body: { name: 'revoked on A', role: 'READ_ONLY' },
    });
    const secret = key.body.data.secret as string;
    expect((await call(port(B), 'GET', `/workspaces/${workspaceId}/tours`, { token: secret })).status).toBe(
      200,
    );
    const revoked = await call(port(A), 'DELETE', `/workspaces/${workspaceId}/api-keys/${key.body.data.id}`, {
      cookie,
      csrf,
    });
    expect(revoked.status).toBe(200);
    const refused = await call(port(B), 'GET', `/workspaces/${workspaceId}/tours`, { token: secret });
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('UNAUTHENTICATED');
  });

  it('a session made on one works on the other (CSRF included), and ended on one is dead on the other', async () => {
    const { cookie, csrf } = await signIn(A);
    const write = await call(port(B), 'POST', `/workspaces/${workspaceId}/customers`, {
      cookie,
      csrf,
      body: { name: 'Made on B', email: `${unique('c')}@example.com` },
    });
    expect(write.status).toBe(201);
    expect((await call(port(B), 'GET', '/auth/session', { cookie })).status).toBe(200);
    expect((await call(port(A), 'POST', '/auth/logout', { cookie, csrf })).status).toBe(200);
    expect((await call(port(B), 'GET', '/auth/session', { cookie })).status).toBe(401);
    expect((await call(port(B), 'GET', `/workspaces/${workspaceId}/tours`, { cookie })).status).toBe(401);
  });

  it('a Redis restart during load across both loses no request to a 5xx, and the headers stay', async () => {
    const statuses: number[] = [];
    let withoutHeaders = 0;
    let running = true;
    const client = async (instance: number) => {
      while (running) {
        // Public reads: counted per IP (a budget this test does not exhaust), answered from the database.
        const res = await fetch(`http://127.0.0.1:${port(instance)}/public/${workspaceSlug}/tours`);
        await res.arrayBuffer();
        statuses.push(res.status);
        if (!res.headers.get('x-ratelimit-remaining')) withoutHeaders++;
      }
    };
    const until = async (count: number) => {
      const deadline = Date.now() + 10_000;
      while (statuses.length < count) {
        if (Date.now() > deadline) throw new Error(`only ${statuses.length} answers`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    const load = Promise.all([A, B, A, B].map(client));
    try {
      await until(20);
      await redis.stop();
      await until(statuses.length + 40);
      redis = startRedis(redisPort);
      await redis.ready;
      // ioredis reconnects within about two seconds; keep the load on past that.
      await new Promise((resolve) => setTimeout(resolve, 2500));
      await until(statuses.length + 20);
    } finally {
      running = false;
      await load;
    }
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    expect(withoutHeaders).toBe(0);
    for (const server of servers) {
      const log = server.output().stdout;
      expect(log).toContain('rate limits fall back');
      expect(log).toContain('rate limits are back on Redis');
    }
  });
});
