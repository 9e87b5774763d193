import type { AddressInfo } from 'node:net';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app.js';
import { clientKey } from './rate-limit.js';
import { defineRoute } from './route.js';
import { createCountingRateLimiter, createUnitTestDeps } from './test-deps.js';

describe('clientKey', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['::FFFF:10.0.0.1', '10.0.0.1'],
    ['2001:db8:85a3:1:2:3:4:5', '2001:db8:85a3:1::/64'],
    ['2001:db8:85a3:1:ffff::1', '2001:db8:85a3:1::/64'],
    ['2001:0db8:0000:0001::', '2001:db8:0:1::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    [undefined, 'unknown'],
  ])('%s counts as %s', (ip, key) => {
    expect(clientKey(ip)).toBe(key);
  });

  it('puts every address of one /64 in one bucket and neighbours in others', () => {
    expect(clientKey('2001:db8:1:2::a')).toBe(clientKey('2001:db8:1:2:ffff:ffff:ffff:ffff'));
    expect(clientKey('2001:db8:1:2::a')).not.toBe(clientKey('2001:db8:1:3::a'));
  });
});

describe('rate limit headers and 429', () => {
  const limiter = createCountingRateLimiter(3);
  const app = createApp(createUnitTestDeps([], { rateLimiter: limiter }));
  let base = '';
  let server: ReturnType<typeof app.listen>;
  beforeAll(async () => {
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const headers = (res: Response) => ({
    limit: res.headers.get('x-ratelimit-limit'),
    remaining: res.headers.get('x-ratelimit-remaining'),
    reset: res.headers.get('x-ratelimit-reset'),
  });

  it('health probes report the IP budget without spending it', async () => {
    limiter.counts.clear();
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${base}/healthz`);
      expect(res.status).toBe(200);
      expect(headers(res)).toEqual({ limit: '3', remaining: '3', reset: '60' });
    }
  });

  it('counts a 401, a 404 and the document per IP, then answers 429 with Retry-After', async () => {
    limiter.counts.clear();
    const unauthenticated = await fetch(`${base}/workspaces/ws_a/tours`);
    expect(unauthenticated.status).toBe(401);
    expect(headers(unauthenticated)).toEqual({ limit: '3', remaining: '2', reset: '60' });
    const unknown = await fetch(`${base}/nope`);
    expect(unknown.status).toBe(404);
    expect(headers(unknown).remaining).toBe('1');
    const document = await fetch(`${base}/openapi.json`);
    expect(document.status).toBe(200);
    expect(headers(document).remaining).toBe('0');
    const refused = await fetch(`${base}/workspaces/ws_a/tours`);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('60');
    expect(headers(refused)).toEqual({ limit: '3', remaining: '0', reset: '60' });
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('RATE_LIMITED');
    expect([...limiter.counts.keys()]).toEqual(['ip:127.0.0.1']);
  });

  it('an undecodable path still carries the headers', async () => {
    limiter.counts.clear();
    const res = await fetch(`${base}/workspaces/%E0%A4%A/tours`);
    expect(res.status).toBe(404);
    expect(headers(res).limit).toBe('3');
  });
});

describe('a fault of the service', () => {
  const broken = defineRoute({
    operationId: 'listBroken',
    method: 'get',
    path: '/public/{workspaceSlug}/broken',
    summary: 'Throws',
    tags: ['Public'],
    access: 'public',
    params: v.object({ workspaceSlug: v.string() }),
    success: { status: 200, description: 'never', schema: v.object({}) },
    errors: [],
    async handle() {
      throw new Error('a bug');
    },
  });
  const app = createApp(createUnitTestDeps([], { rateLimiter: createCountingRateLimiter(5) }), {
    routes: [broken],
  });

  it('answers 500 INTERNAL_ERROR with the rate limit headers', async () => {
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/public/x/broken`);
      expect(res.status).toBe(500);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('INTERNAL_ERROR');
      expect(res.headers.get('x-ratelimit-limit')).toBe('5');
      expect(res.headers.get('x-ratelimit-remaining')).toBe('4');
      expect(res.headers.get('x-ratelimit-reset')).toBe('60');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
