import type { AddressInfo } from 'node:net';
import { hashTokenSecret } from '@travelops/auth';
import type { ApiTokenRecord } from '@travelops/domain/access';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app.js';
import { cspHash } from './csp.js';
import { homePage } from './home-page.js';
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
    // Served for people, not integrators, so outside the contract.
    const notInContract = ['get /', 'get /docs/:tag'];
    expect(new Set(served)).toEqual(new Set([...documented, ...notInContract]));
  });

  it('serves a mounted router under its path, after the routes and before the 404', async () => {
    const router = express.Router();
    router.get('/ping', (_req, res) => {
      res.json({ pong: true });
    });
    const mounted = createApp(createUnitTestDeps([]), { mounts: [{ path: '/probe', router }] });
    const served = servedRoutes((mounted as unknown as { router: { stack: Layer[] } }).router.stack);
    expect(served).toContain('get /probe/ping');
    const other = mounted.listen(0);
    await new Promise((resolve) => other.once('listening', resolve));
    try {
      const url = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
      expect(await (await fetch(`${url}/probe/ping`)).json()).toEqual({ pong: true });
      expect((await fetch(`${url}/probe/nope`)).status).toBe(404);
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
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

  it('serves /docs and a page per tag as plain HTML: no script at all, its one style by hash', async () => {
    for (const path of ['/docs', '/docs/bookings']) {
      const res = await fetch(`${base}${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      const html = await res.text();
      expect(html).not.toMatch(/<script|style="/i);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("script-src 'none'");
      expect(csp).toContain(`style-src ${cspHash(/<style>([^<]*)<\/style>/.exec(html)?.[1] ?? '')};`);
      expect(csp).not.toContain('unsafe');
    }
    const index = await (await fetch(`${base}/docs`)).text();
    expect(index).toContain('href="/docs/bookings"');
    expect(index).toContain('href="/docs/bookings#createBooking"');
    // An unknown tag is an unknown route.
    expect((await fetch(`${base}/docs/no-such-tag`)).status).toBe(404);
  });

  it('answers GET / with a small page linking the reference, the contract and health, under a strict CSP', async () => {
    const res = await fetch(`${base}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    for (const link of ['/docs', '/openapi.json', '/healthz', '/readyz']) {
      expect(html).toContain(`href="${link}"`);
    }
    expect(html).not.toMatch(/<script/i);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'none'");
    // The one inline style is allowed by its hash, never by 'unsafe-inline'.
    const style = /<style>([^<]*)<\/style>/.exec(html)?.[1] ?? '';
    expect(csp).toContain(cspHash(style));
    expect(csp).not.toContain('unsafe-inline');
    expect(res.headers.get('x-ratelimit-limit')).toBeTruthy();
  });

  it('serves no /metrics without a metrics token (METRICS_TOKEN unset)', async () => {
    const res = await fetch(`${base}/metrics`);
    expect(res.status).toBe(404);
  });

  it('escapes what the home page prints', () => {
    const { html } = homePage({ title: '<img src=x onerror=alert(1)>', version: '"2"' }, false);
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('&quot;2&quot;');
  });
});

describe('Content-Security-Policy and the scheme of PUBLIC_BASE_URL', () => {
  const policyOf = async (publicBaseUrl: string, path: string) => {
    const other = createApp(createUnitTestDeps([], { config: { publicBaseUrl } }));
    const server = other.listen(0);
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`);
      return res.headers.get('content-security-policy') ?? '';
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  };

  it.each(['/', '/healthz', '/nope'])(
    'over http, %s never upgrades requests (a form to its own http origin must still post)',
    async (path) => {
      const csp = await policyOf('http://192.168.1.20:3000', path);
      expect(csp).not.toContain('upgrade-insecure-requests');
      expect(csp).toContain("frame-ancestors 'none'");
    },
  );

  it('over https, requests are upgraded', async () => {
    expect(await policyOf('https://api.example.com', '/')).toContain('upgrade-insecure-requests');
  });
});

describe('security headers', () => {
  it("every answer carries helmet's headers and the strict Content-Security-Policy", async () => {
    for (const path of ['/healthz', '/no-such-route', '/workspaces/ws_a/tours']) {
      const res = await fetch(`${base}${path}`);
      await res.arrayBuffer();
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('strict-transport-security')).toMatch(/^max-age=\d+; includeSubDomains$/);
      expect(res.headers.get('cross-origin-opener-policy')).toBe('same-origin');
      expect(res.headers.get('cross-origin-resource-policy')).toBe('same-origin');
      expect(res.headers.get('origin-agent-cluster')).toBe('?1');
      expect(res.headers.get('x-dns-prefetch-control')).toBe('off');
      expect(res.headers.get('x-permitted-cross-domain-policies')).toBe('none');
      expect(res.headers.get('x-xss-protection')).toBe('0');
      expect(res.headers.get('x-powered-by')).toBeNull();
      expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    }
  });
});
