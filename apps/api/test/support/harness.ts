import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createUnitOfWork } from '@travelops/db';
import { createTestDatabase, type TestDatabase } from '@travelops/db/testing';
import type { Role, TokenRole } from '@travelops/domain/shared';
import type { Redis } from 'ioredis';
import { type CommandDeps, memberCreate, tokenCreate, workspaceCreate } from '../../src/cli/commands.js';
import { type Api, createApi, createHttpServer, systemClock } from '../../src/compose.js';
import { loadConfig } from '../../src/config.js';

export interface TestResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

/** A signed-in browser: its cookie, and the CSRF token unsafe methods need. */
export interface TestSession {
  cookie: string;
  csrfToken: string;
  /** The sign-in answer's `data`. */
  data: any;
}

export interface RequestOptions {
  token?: string;
  /** Sends the session cookie, and its CSRF token on unsafe methods. */
  session?: TestSession;
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
  /** The unit of work and clock the operator CLI commands take, on this API's database. */
  commandDeps: CommandDeps;
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<TestResponse<T>>;
  /** A link the API handed out (checkout, payment link), pointed at this test server. */
  local(url: string): string;
  /** A new workspace and a token of the given role in it. */
  createWorkspace(
    role?: TokenRole,
    slug?: string,
  ): Promise<{ workspaceId: string; slug: string; token: string; tokenId: string }>;
  createToken(workspaceId: string, role: TokenRole): Promise<{ token: string; tokenId: string }>;
  /** A member (CLI `member:create`) with a password of its own; the e-mail is unique unless given. */
  createMember(
    workspaceId: string,
    role: Role,
    options?: { email?: string; password?: string },
  ): Promise<{ memberId: string; email: string; password: string }>;
  /** POST /auth/login; throws unless it answers 200. */
  signIn(email: string, password: string): Promise<TestSession>;
  /** A new member of the role in the workspace, signed in. */
  memberSession(workspaceId: string, role: Role): Promise<TestSession & { memberId: string; email: string }>;
  close(): Promise<void>;
}

let counter = 0;
export const unique = (prefix: string) => `${prefix}-${process.pid}-${Date.now().toString(36)}-${counter++}`;

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** The shared test Redis under a key prefix of this test's own, so runs never share counters. */
export const testRedisEnv = () => ({ REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: `${unique('test')}:` });

/** Removes what a test left under its prefix (counters expire anyway; this keeps Redis tidy). */
async function deleteRedisKeys(redis: Redis | null, prefix: string): Promise<void> {
  if (redis?.status !== 'ready') return;
  const keys = await redis.keys(`${prefix}*`).catch(() => []);
  if (keys.length) await redis.del(...keys).catch(() => {});
}

const appsDir = join(import.meta.dirname, '..', '..', '..');

/**
 * The browser apps' builds the API serves, named as `pnpm start` names them. Files, not
 * imports: turbo builds both before these tests (apps/api/turbo.json).
 */
const servedFilesEnv = {
  CONSOLE_DIR: join(appsDir, 'console', 'dist'),
  WIDGET_SCRIPT: join(appsDir, 'widget', 'dist', 'widget.js'),
};

/**
 * The real API, in-process on port 0, against a PostgreSQL database of its own (dropped
 * on close) and the real Redis. `env` may be worked out from that database's URL (to reach it
 * through a pooler).
 */
export async function startTestApi(
  settings: Record<string, string> | ((databaseUrl: string) => Record<string, string>) = {},
): Promise<TestApi> {
  const database = await createTestDatabase();
  const env = typeof settings === 'function' ? settings(database.url) : settings;
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
    ...servedFilesEnv,
    // Tests of other rules send hundreds of requests from one address; rate limit tests set their own.
    RATE_LIMIT_PER_TOKEN: '100000',
    RATE_LIMIT_PER_IP: '100000',
    LOGIN_LIMIT_PER_ACCOUNT: '100000',
    LOGIN_LIMIT_PER_IP: '100000',
    // Tests book as guests many times from one address; the holds test sets its own limit.
    PUBLIC_HOLDS_PER_CLIENT: '100000',
    // Races send many expensive requests from one token at once; the slots test sets its own.
    EXPENSIVE_REQUESTS_PER_CREDENTIAL: '100000',
    ...env,
  });
  const api = await createApi(config, logger);
  // Port 0 (any free one) unless the test needs to know it first (links built on PUBLIC_BASE_URL).
  const server: Server = createHttpServer(api.app, config.timeouts).listen(
    config.port === 3000 && !env.PORT ? 0 : config.port,
    '127.0.0.1',
  );
  await new Promise((resolve) => server.once('listening', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const deps = { uow: createUnitOfWork(api.database.knex), clock: systemClock };

  const createToken = async (workspaceId: string, role: TokenRole) => {
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
    request,
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
    createMember,
    signIn,
    async memberSession(workspaceId, role) {
      const member = await createMember(workspaceId, role);
      return {
        ...(await signIn(member.email, member.password)),
        memberId: member.memberId,
        email: member.email,
      };
    },
    async close() {
      await new Promise((resolve) => server.close(resolve));
      await deleteRedisKeys(api.redis, config.redisKeyPrefix);
      await api.close();
      await database.drop();
    },
  };

  async function request<T = any>(
    method: string,
    path: string,
    options: RequestOptions = {},
  ): Promise<TestResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.Authorization = `Bearer ${options.token}`;
    if (options.session) {
      headers.Cookie = options.session.cookie;
      if (!['GET', 'HEAD'].includes(method)) headers['X-CSRF-Token'] ??= options.session.csrfToken;
    }
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
  }

  async function createMember(
    workspaceId: string,
    role: Role,
    options: { email?: string; password?: string } = {},
  ) {
    const email = options.email ?? `${unique('member')}@example.com`;
    const password = options.password ?? `pw-${unique('secret')}`;
    const created = await memberCreate(deps, { workspace: workspaceId, email, password, role });
    if (!created.ok) throw new Error(created.error.message);
    return { memberId: created.value.memberId, email, password };
  }

  async function signIn(email: string, password: string): Promise<TestSession> {
    const res = await request('POST', '/auth/login', { body: { email, password } });
    if (res.status !== 200) throw new Error(`sign in: ${res.status} ${JSON.stringify(res.body)}`);
    return { cookie: sessionCookieOf(res), csrfToken: res.body.data.csrfToken, data: res.body.data };
  }
}

/** The `tops_session=...` pair a response sets. */
export function sessionCookieOf(res: TestResponse): string {
  const cookie = res.headers.getSetCookie().find((value) => value.startsWith('tops_session='));
  if (!cookie) throw new Error('no session cookie was set');
  return cookie.split(';')[0] as string;
}
