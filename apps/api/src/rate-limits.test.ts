import { describe, expect, it } from 'vitest';
import { createRateLimiter, type RateLimitRules } from './rate-limits.js';

const rules: RateLimitRules = {
  credential: { points: 3, windowSeconds: 60 },
  ip: { points: 2, windowSeconds: 30 },
  'login-account': { points: 1, windowSeconds: 900 },
  'login-ip': { points: 5, windowSeconds: 900 },
};
const silent = { info: () => {}, warn: () => {}, error: () => {} };

describe('createRateLimiter in-process (no Redis)', () => {
  it('counts per policy and key, then refuses with the seconds until the window resets', async () => {
    const limiter = createRateLimiter({ rules, redis: null, keyPrefix: 'unit:', logger: silent });
    expect(await limiter.consume('ip', 'a')).toEqual({
      allowed: true,
      limit: 2,
      remaining: 1,
      resetSeconds: 30,
    });
    expect(await limiter.consume('ip', 'a')).toMatchObject({ allowed: true, remaining: 0 });
    const refused = await limiter.consume('ip', 'a');
    expect(refused).toMatchObject({ allowed: false, limit: 2, remaining: 0 });
    expect(refused.resetSeconds).toBeGreaterThanOrEqual(1);
    expect(refused.resetSeconds).toBeLessThanOrEqual(30);
    expect(await limiter.consume('ip', 'b')).toMatchObject({ allowed: true, remaining: 1 });
    expect(await limiter.consume('credential', 'a')).toMatchObject({ allowed: true, limit: 3, remaining: 2 });
  });

  it('peek reports without counting; reset forgets the key', async () => {
    const limiter = createRateLimiter({ rules, redis: null, keyPrefix: 'unit:', logger: silent });
    expect(await limiter.peek('login-account', 'k')).toEqual({
      allowed: true,
      limit: 1,
      remaining: 1,
      resetSeconds: 900,
    });
    await limiter.consume('login-account', 'k');
    expect(await limiter.peek('login-account', 'k')).toMatchObject({ allowed: false, remaining: 0 });
    expect(await limiter.peek('login-account', 'k')).toMatchObject({ allowed: false, remaining: 0 });
    await limiter.reset('login-account', 'k');
    expect(await limiter.consume('login-account', 'k')).toMatchObject({ allowed: true, remaining: 0 });
  });
});
