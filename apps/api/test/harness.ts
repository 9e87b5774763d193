import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createStores } from '@travelops/db';
import { createTestDatabase, type TestDatabase } from '@travelops/db/testing';
import type { Role } from '@travelops/domain';
import type { Redis } from 'ioredis';
import { type CommandDeps, tokenCreate, workspaceCreate } from '../src/cli/commands.js';
import { type Api, createApi, systemClock } from '../src/compose.js';
import { loadConfig } from '../src/config.js';

export interface TestResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface RequestOptions {
  token?: string;
  body?: unknown;
  /** Sent as is, without JSON encoding. */
  rawBody?: string;
  headers?: Record<string, string>;
}

export interface TestApi {
  baseUrl: string;
  api: Api;
  database: TestDatabase;
  logs: string[];
  /** The stores and clock the operator CLI commands take, on this API's database. */
  commandDeps: CommandDeps;
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<TestResponse<T>>;
  /** A link the API handed out (checkout, payment link), pointed at this test server. */
  local(url: string): string;
  /** A new workspace and a token of the given role in it. */
  createWorkspace(
    role?: Role,
    slug?: string,
  ): Promise<{ workspaceId: string; slug: string; token: string; tokenId: string }>;
  createToken(workspaceId: string, role: Role): Promise<{ token: string; tokenId: string }>;
  close(): Promise<void>;
}

let counter = 0;
export const unique = (prefix: string) => `${prefix}-${process.pid}-${Date.now().toString(36)}-${counter++}`;

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** The shared test Redis under a key prefix of this test's own, so runs never share counters. */
export const testRedisEnv = () => ({ REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: `${unique('test')}:` });

/** Removes what a test left under its prefix (counters expire anyway; this keeps Redis tidy). */
export async function deleteRedisKeys(redis: Redis | null, prefix: string): Promise<void> {
  if (!redis || redis.status !== 'ready') return;
  const keys = await redis.keys(`${prefix}*`).catch(() => []);
  if (keys.length) await redis.del(...keys).catch(() => {});
}

/**
 * The real API, in-process on port 0, against a PostgreSQL database of its own (dropped
 * on close) and the real Redis.
 */
export async function startTestApi(env: Record<string, string> = {}): Promise<TestApi> {
  const database = await createTestDatabase();
  const logs: string[] = [];
  const logger = {
    info: (fields: object, msg?: string) => void logs.push(JSON.stringify({ level: 'info', msg, ...fields })),
    warn: (fields: object, msg?: string) => void logs.push(JSON.stringify({ level: 'warn', msg, ...fields })),
    error: (fields: object, msg?: string) =>
      void logs.push(JSON.stringify({ level: 'error', msg, ...fields })),
  };
  const config = loadConfig({
    DATABASE_URL: database.url,
    ...testRedisEnv(),
    // Tests of other rules send hundreds of requests from one address; rate limit tests set their own.
    RATE_LIMIT_PER_TOKEN: '100000',
    RATE_LIMIT_PER_IP: '100000',
    LOGIN_LIMIT_PER_ACCOUNT: '100000',
    LOGIN_LIMIT_PER_IP: '100000',
    ...env,
  });
  const api = await createApi(config, logger);
  const server: Server = api.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const deps = { stores: createStores(api.database.knex), clock: systemClock };

  const createToken = async (workspaceId: string, role: Role) => {
    const created = await tokenCreate(deps, { workspace: workspaceId, role, name: `test ${role}` });
    if (!created.ok) throw new Error(created.error.message);
    return { token: created.value.token, tokenId: created.value.tokenId };
  };

  return {
    baseUrl,
    api,
    database,
    logs,
    commandDeps: deps,
    async request(method, path, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      if (options.token) headers.Authorization = `Bearer ${options.token}`;
      let body: string | undefined = options.rawBody;
      if (options.body !== undefined) {
        body = JSON.stringify(options.body);
        headers['Content-Type'] ??= 'application/json';
      }
      const res = await fetch(`${baseUrl}${path}`, { method, headers, body });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        // Not JSON (the /docs page): the text is the body.
      }
      return { status: res.status, headers: res.headers, body: parsed as never };
    },
    local(url: string) {
      const parsed = new URL(url);
      return `${baseUrl}${parsed.pathname}${parsed.search}`;
    },
    async createWorkspace(role = 'ADMIN', slug = unique('ws')) {
      const created = await workspaceCreate(deps, { slug, name: `Workspace ${slug}` });
      if (!created.ok) throw new Error(created.error.message);
      return { ...created.value, ...(await createToken(created.value.workspaceId, role)) };
    },
    createToken,
    async close() {
      await new Promise((resolve) => server.close(resolve));
      await deleteRedisKeys(api.redis, config.redisKeyPrefix);
      await api.close();
      await database.drop();
    },
  };
}
