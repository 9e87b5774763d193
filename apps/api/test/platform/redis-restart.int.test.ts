import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestWorkspace } from '../support/fixtures.js';
import { startTestApi, type TestApi, type TestResponse } from '../support/harness.js';
import { freePort, startRedis } from '../support/processes.js';

let port: number;
let redis: ReturnType<typeof startRedis>;
let t: TestApi;
let ws: TestWorkspace;

beforeAll(async () => {
  port = await freePort();
  redis = startRedis(port);
  await redis.ready;
  t = await startTestApi({ REDIS_URL: `redis://127.0.0.1:${port}` });
  ws = await t.createWorkspace('ADMIN');
});
afterAll(async () => {
  redis?.resume();
  await t?.close();
  await redis?.stop();
});

async function until(condition: () => boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('a Redis restart during load', () => {
  it('loses no request to a 5xx, keeps the headers, logs the fallback once and returns to Redis', async () => {
    const answers: TestResponse[] = [];
    let running = true;
    const client = async (n: number) => {
      while (running) {
        const res =
          n % 2 === 0
            ? await t.request('GET', `/workspaces/${ws.workspaceId}/tours`, { token: ws.token })
            : await t.request('GET', `/public/${ws.slug}/tours`);
        answers.push(res);
      }
    };
    const load = Promise.all([0, 1, 2, 3].map(client));

    await until(() => answers.length >= 50, 10_000);
    await redis.stop();
    const stoppedAt = answers.length;
    await until(() => answers.length >= stoppedAt + 100, 10_000);
    redis = startRedis(port);
    await redis.ready;
    await until(() => t.logs.some((line) => line.includes('rate limits are back on Redis')), 10_000);
    const recoveredAt = answers.length;
    await until(() => answers.length >= recoveredAt + 50, 10_000);
    running = false;
    await load;

    expect(answers.filter((res) => res.status !== 200).map((res) => res.status)).toEqual([]);
    for (const res of answers) {
      expect(res.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
      expect(res.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
      expect(res.headers.get('x-ratelimit-reset')).toMatch(/^\d+$/);
    }
    const text = t.logs.join('\n');
    expect(text.match(/rate limits fall back/g)).toHaveLength(1);
    expect(text.match(/rate limits are back on Redis/g)).toHaveLength(1);

    // The restarted Redis holds the counters again.
    const fresh = new Redis(port, '127.0.0.1');
    try {
      expect((await fresh.keys('*rl:credential:*')).length).toBe(1);
    } finally {
      fresh.disconnect();
    }
  });
});

describe('a Redis that hangs', () => {
  it('costs at most the command timeout: every request is answered fast with the headers', async () => {
    const path = `/workspaces/${ws.workspaceId}/customers`;
    expect((await t.request('GET', path, { token: ws.token })).status).toBe(200);
    redis.pause();
    try {
      const started = Date.now();
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => t.request('GET', path, { token: ws.token })),
      );
      // Redis' command timeout is 500 ms; nothing waits on a silent Redis longer than that.
      expect(Date.now() - started).toBeLessThan(1500);
      expect(answers.map((res) => res.status)).toEqual(answers.map(() => 200));
      for (const res of answers) expect(res.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
    } finally {
      redis.resume();
    }
  });
});
