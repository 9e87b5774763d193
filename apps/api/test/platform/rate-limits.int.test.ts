import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, type TestWorkspace } from '../support/fixtures.js';
import { startTestApi, TEST_REDIS_URL, type TestApi, type TestResponse } from '../support/harness.js';

const TOKEN_LIMIT = 5;
const IP_LIMIT = 4;
const LIMITS = {
  RATE_LIMIT_PER_TOKEN: String(TOKEN_LIMIT),
  RATE_LIMIT_PER_IP: String(IP_LIMIT),
  RATE_LIMIT_WINDOW_SECONDS: '60',
};

let t: TestApi;
let ws: TestWorkspace;
let redis: Redis;
let address = 0;
/** A client address of its own (the test API trusts loopback proxies), so tests never share a budget. */
const newClient = () => ({ 'X-Forwarded-For': `198.51.100.${++address}` });

beforeAll(async () => {
  t = await startTestApi({ ...LIMITS, TRUST_PROXY: 'loopback' });
  ws = await t.createWorkspace('ADMIN');
  redis = new Redis(TEST_REDIS_URL);
});
afterAll(async () => {
  redis.disconnect();
  await t.close();
});

const limits = (res: TestResponse) => ({
  limit: Number(res.headers.get('x-ratelimit-limit')),
  remaining: Number(res.headers.get('x-ratelimit-remaining')),
  reset: Number(res.headers.get('x-ratelimit-reset')),
});

function expectHeaders(res: TestResponse, limit: number, remaining: number) {
  const seen = limits(res);
  expect(seen).toMatchObject({ limit, remaining });
  expect(seen.reset).toBeGreaterThanOrEqual(1);
  expect(seen.reset).toBeLessThanOrEqual(60);
}

describe('per token on authenticated routes', () => {
  it('every answer carries the headers; past the limit 429 RATE_LIMITED with Retry-After', async () => {
    const { token } = await t.createToken(ws.workspaceId, 'ADMIN');
    const path = `/workspaces/${ws.workspaceId}`;
    const answers = [
      await t.request('GET', `${path}/tours`, { token }),
      await t.request('GET', `${path}/tours/tour_${'0'.repeat(22)}`, { token }),
      await t.request('POST', `${path}/customers`, { token, body: { name: '' } }),
      await t.request('GET', `/workspaces/ws_${'0'.repeat(22)}/tours`, { token }),
      await t.request('GET', `${path}/customers`, { token }),
    ];
    expect(answers.map((res) => res.status)).toEqual([200, 404, 400, 403, 200]);
    answers.forEach((res, i) => {
      expectHeaders(res, TOKEN_LIMIT, TOKEN_LIMIT - 1 - i);
    });

    const refused = await t.request('GET', `${path}/tours`, { token });
    expectError(refused, 429, 'RATE_LIMITED');
    expectHeaders(refused, TOKEN_LIMIT, 0);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBe(limits(refused).reset);
  });

  it('each token has its own budget, and token requests do not spend the IP budget', async () => {
    const first = await t.createToken(ws.workspaceId, 'READ_ONLY');
    const second = await t.createToken(ws.workspaceId, 'READ_ONLY');
    const client = newClient();
    const path = `/workspaces/${ws.workspaceId}/tours`;
    for (let i = 0; i < TOKEN_LIMIT; i++) {
      expect((await t.request('GET', path, { token: first.token, headers: client })).status).toBe(200);
    }
    expect((await t.request('GET', path, { token: first.token, headers: client })).status).toBe(429);
    const other = await t.request('GET', path, { token: second.token, headers: client });
    expect(other.status).toBe(200);
    expectHeaders(other, TOKEN_LIMIT, TOKEN_LIMIT - 1);
    const anonymous = await t.request('GET', `/public/${ws.slug}/tours`, { headers: client });
    expectHeaders(anonymous, IP_LIMIT, IP_LIMIT - 1);
  });

  it('reads counted beside their work (the token had room) still stop at the limit, sending no data past it', async () => {
    const { token } = await t.createToken(ws.workspaceId, 'READ_ONLY');
    const path = `/workspaces/${ws.workspaceId}/tours`;
    // One read leaves room: the next reads of this token run beside their count.
    expect((await t.request('GET', path, { token })).status).toBe(200);
    const burst = await Promise.all(
      Array.from({ length: 3 * TOKEN_LIMIT }, () => t.request('GET', path, { token })),
    );
    const served = burst.filter((res) => res.status === 200);
    const refused = burst.filter((res) => res.status === 429);
    expect(served).toHaveLength(TOKEN_LIMIT - 1);
    expect(refused).toHaveLength(2 * TOKEN_LIMIT + 1);
    for (const res of refused) {
      expectError(res, 429, 'RATE_LIMITED');
      expect(res.body).not.toHaveProperty('data');
      expectHeaders(res, TOKEN_LIMIT, 0);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    // 429 before 403: a refused count wins over the wrong workspace, as before.
    expectError(
      await t.request('GET', `/workspaces/ws_${'0'.repeat(22)}/tours`, { token }),
      429,
      'RATE_LIMITED',
    );
  });

  it('the counters live in Redis under the configured prefix', async () => {
    const { token, tokenId } = await t.createToken(ws.workspaceId, 'READ_ONLY');
    await t.request('GET', `/workspaces/${ws.workspaceId}/tours`, { token });
    const keys = await redis.keys(`*rl:credential:tok:${tokenId}`);
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatch(/^test-/);
    expect(await redis.get(keys[0] as string)).toBe('1');
    expect(await redis.ttl(keys[0] as string)).toBeGreaterThan(0);
  });
});

describe('per IP', () => {
  it('on /public/, including unknown slugs and records', async () => {
    const client = newClient();
    const answers = [
      await t.request('GET', `/public/${ws.slug}/tours`, { headers: client }),
      await t.request('GET', '/public/no-such-workspace/tours', { headers: client }),
      await t.request('GET', `/public/bookings/${'x'.repeat(32)}`, { headers: client }),
      await t.request('GET', `/public/${ws.slug}/tours`, { headers: client }),
    ];
    expect(answers.map((res) => res.status)).toEqual([200, 404, 404, 200]);
    answers.forEach((res, i) => {
      expectHeaders(res, IP_LIMIT, IP_LIMIT - 1 - i);
    });
    const refused = await t.request('GET', `/public/${ws.slug}/tours`, { headers: client });
    expectError(refused, 429, 'RATE_LIMITED');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });

  it('a request that fails authentication is counted per IP: a flood of bad tokens ends in 429', async () => {
    const client = newClient();
    const path = `/workspaces/${ws.workspaceId}/tours`;
    for (let i = 0; i < IP_LIMIT; i++) {
      const res = await t.request('GET', path, {
        token: `tops_${String(i).padStart(43, 'x')}`,
        headers: client,
      });
      expectError(res, 401, 'UNAUTHENTICATED');
      expectHeaders(res, IP_LIMIT, IP_LIMIT - 1 - i);
    }
    expectError(await t.request('GET', path, { headers: client }), 429, 'RATE_LIMITED');
    // A valid token from the same address is counted by its token, not the exhausted IP.
    const res = await t.request('GET', path, { token: ws.token, headers: client });
    expect(res.status).toBe(200);
  });

  it('unknown routes, the document, /docs and sandbox pages are counted; health probes only report', async () => {
    const client = newClient();
    const health = await t.request('GET', '/healthz', { headers: client });
    expectHeaders(health, IP_LIMIT, IP_LIMIT);
    const answers = [
      await t.request('GET', '/no-such-route', { headers: client }),
      await t.request('GET', '/openapi.json', { headers: client }),
      await t.request('GET', '/docs', { headers: client }),
      await t.request('GET', `/sandbox/pay/${'y'.repeat(32)}`, { headers: client }),
    ];
    expect(answers.map((res) => res.status)).toEqual([404, 200, 200, 404]);
    answers.forEach((res, i) => {
      expectHeaders(res, IP_LIMIT, IP_LIMIT - 1 - i);
    });
    const ready = await t.request('GET', '/readyz', { headers: client });
    expect(ready.status).toBe(200);
    expectHeaders(ready, IP_LIMIT, 0);
    expectError(await t.request('GET', '/no-such-route', { headers: client }), 429, 'RATE_LIMITED');
  });
});

describe('client address behind proxies (TRUST_PROXY)', () => {
  it('X-Forwarded-For from a trusted proxy names the client: each address has its own budget', async () => {
    for (const client of [newClient(), newClient()]) {
      const res = await t.request('GET', `/public/${ws.slug}/tours`, { headers: client });
      expectHeaders(res, IP_LIMIT, IP_LIMIT - 1);
      const keys = await redis.keys(`*rl:ip:${client['X-Forwarded-For']}`);
      expect(keys).toHaveLength(1);
    }
  });

  it('X-Forwarded-For from an untrusted peer is ignored: forged addresses share the peer budget', async () => {
    const direct = await startTestApi({ ...LIMITS });
    try {
      const own = await direct.createWorkspace('ADMIN');
      const statuses: number[] = [];
      for (let i = 0; i <= IP_LIMIT; i++) {
        const res = await direct.request('GET', `/public/${own.slug}/tours`, {
          headers: { 'X-Forwarded-For': `203.0.113.${i}` },
        });
        statuses.push(res.status);
      }
      expect(statuses).toEqual([200, 200, 200, 200, 429]);
    } finally {
      await direct.close();
    }
  });
});

describe('without Redis', () => {
  it('REDIS_URL unset: the limits hold in-process, with the same headers', async () => {
    const local = await startTestApi({ ...LIMITS, REDIS_URL: '' });
    try {
      expect(local.logs.join('\n')).toContain('REDIS_URL is unset');
      const own = await local.createWorkspace('ADMIN');
      const answers: TestResponse[] = [];
      for (let i = 0; i <= IP_LIMIT; i++)
        answers.push(await local.request('GET', `/public/${own.slug}/tours`));
      expect(answers.map((res) => res.status)).toEqual([200, 200, 200, 200, 429]);
      expectHeaders(answers[0] as TestResponse, IP_LIMIT, IP_LIMIT - 1);
    } finally {
      await local.close();
    }
  });

  it('Redis unreachable: requests are served at once with the headers (in-process fallback), logged once', async () => {
    // Port 1 on loopback: nothing listens, so every connection attempt is refused.
    const broken = await startTestApi({ ...LIMITS, REDIS_URL: 'redis://127.0.0.1:1' });
    try {
      const own = await broken.createWorkspace('ADMIN');
      const started = Date.now();
      const answers: TestResponse[] = [];
      for (let i = 0; i < 3; i++) {
        answers.push(
          await broken.request('GET', `/workspaces/${own.workspaceId}/tours`, { token: own.token }),
        );
      }
      expect(Date.now() - started).toBeLessThan(3000);
      expect(answers.map((res) => res.status)).toEqual([200, 200, 200]);
      answers.forEach((res, i) => {
        expectHeaders(res, TOKEN_LIMIT, TOKEN_LIMIT - 1 - i);
      });
      const fallbacks = broken.logs.filter((line) => line.includes('rate limits fall back'));
      expect(fallbacks).toHaveLength(1);
    } finally {
      await broken.close();
    }
  });
});
