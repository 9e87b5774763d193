import type { AddressInfo } from 'node:net';
import { hashTokenSecret } from '@travelops/auth';
import type { ApiTokenRecord } from '@travelops/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app.js';
import { octoRoutes } from './octo/routes.js';
import { toExpressPath } from './register.js';
import { createUnitTestDeps } from './test-deps.js';

const secret = 'tops_unitTestSecretValue0123456789abcdefghijk';
const token: ApiTokenRecord = {
  id: 'tok_1',
  workspaceId: 'ws_a',
  role: 'READ_ONLY',
  name: 'unit',
  prefix: secret.slice(0, 12),
  secretHash: hashTokenSecret(secret),
  expiresAt: null,
  revokedAt: null,
  lastUsedAt: null,
  createdAt: new Date(),
};

const app = createApp(
  createUnitTestDeps([token], {
    readiness: {
      database: async () => {},
      redis: async () => {
        throw new Error('connection refused');
      },
    },
  }),
);
let base = '';
let server: ReturnType<typeof app.listen>;
beforeAll(async () => {
  server = app.listen(0);
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

interface Layer {
  route?: { path: string; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
  /** Where a router is mounted (`/octo`), `/` for the app's own. */
  rawPath?: unknown;
}

/** Every `method path` the app serves, a mounted router's under its mount path. */
function servedRoutes(stack: Layer[], prefix = ''): string[] {
  return stack.flatMap((layer) => {
    if (layer.route) return Object.keys(layer.route.methods).map((m) => `${m} ${prefix}${layer.route?.path}`);
    const mount = typeof layer.rawPath === 'string' && layer.rawPath !== '/' ? layer.rawPath : '';
    return layer.handle?.stack ? servedRoutes(layer.handle.stack, `${prefix}${mount}`) : [];
  });
}

describe('createApp', () => {
  it('documents every route it serves in /openapi.json, and serves every documented one', async () => {
    const doc = (await (await fetch(`${base}/openapi.json`)).json()) as { paths: Record<string, object> };
    const documented = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((key) => key !== 'parameters')
        .map((method) => `${method} ${toExpressPath(path)}`),
    );
    const served = servedRoutes((app as unknown as { router: { stack: Layer[] } }).router.stack).filter(
      (route) => !route.split(' ')[1]?.startsWith('/octo/'),
    );
    expect(served.length).toBeGreaterThan(10);
    expect(new Set(served)).toEqual(new Set(documented));
  });

  it("serves under /octo exactly the OCTO route table, which OCTO's own document describes (docs/octo.md)", () => {
    const served = servedRoutes((app as unknown as { router: { stack: Layer[] } }).router.stack).filter(
      (route) => route.split(' ')[1]?.startsWith('/octo/'),
    );
    const table = octoRoutes.map((route) => `${route.method} /octo${toExpressPath(route.path)}`);
    expect(served.length).toBeGreaterThanOrEqual(13);
    expect(new Set(served)).toEqual(new Set(table));
  });

  it('answers an unknown route with the 404 envelope and a request id', async () => {
    const res = await fetch(`${base}/nope`);
    expect(res.status).toBe(404);
    const requestId = res.headers.get('x-request-id');
    expect(requestId).toMatch(/^req_/);
    expect(await res.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'No such route.', requestId } });
  });

  it('echoes a safe caller request id and replaces an unsafe one', async () => {
    const kept = await fetch(`${base}/healthz`, { headers: { 'X-Request-Id': 'trace-123' } });
    expect(kept.headers.get('x-request-id')).toBe('trace-123');
    const replaced = await fetch(`${base}/healthz`, { headers: { 'X-Request-Id': 'bad id <script>' } });
    expect(replaced.headers.get('x-request-id')).toMatch(/^req_/);
  });

  it('reports an unreachable dependency on /readyz with 503', async () => {
    const res = await fetch(`${base}/readyz`);
    expect(res.status).toBe(503);
    const body = (await res.json()) as { error: { code: string; details: unknown } };
    expect(body.error.code).toBe('INTERNAL_ERROR');
    expect(body.error.details).toEqual([{ field: 'redis', issue: 'unreachable' }]);
  });

  it.each([
    ['no header', {}],
    ['a wrong scheme', { Authorization: `Basic ${secret}` }],
    ['an unknown token', { Authorization: 'Bearer tops_unknownunknownunknownunknown000000000000' }],
  ])('answers %s with 401 UNAUTHENTICATED before looking at the body', async (_name, headers) => {
    const res = await fetch(`${base}/workspaces/ws_a/customers`, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: '{not json',
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('UNAUTHENTICATED');
  });

  it('answers another workspace in the path with 403, and a weak role with 403', async () => {
    const headers = { Authorization: `Bearer ${secret}` };
    const other = await fetch(`${base}/workspaces/ws_b/tours`, { headers });
    expect(other.status).toBe(403);
    expect(((await other.json()) as { error: { code: string } }).error.code).toBe('FORBIDDEN');
    const write = await fetch(`${base}/workspaces/ws_a/tours`, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(write.status).toBe(403);
  });

  it('serves a human-readable reference at /docs', async () => {
    const res = await fetch(`${base}/docs`);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    const html = await res.text();
    expect(html).toContain('createCustomer');
    expect(html).toContain('/workspaces/{workspaceId}/availability');
  });
});
