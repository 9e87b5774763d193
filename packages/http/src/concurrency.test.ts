import { describe, expect, it } from 'vitest';
import { createLocalConcurrencyLimiter } from './concurrency.js';

describe('createLocalConcurrencyLimiter', () => {
  it('gives each key `limit` slots; a release frees one, once, and only for its key', async () => {
    const limiter = createLocalConcurrencyLimiter(2);
    const first = await limiter.acquire('a');
    const second = await limiter.acquire('a');
    expect(first).toBeTypeOf('function');
    expect(second).toBeTypeOf('function');
    expect(await limiter.acquire('a')).toBeNull();
    expect(await limiter.acquire('b')).toBeTypeOf('function');

    first?.();
    first?.();
    const third = await limiter.acquire('a');
    expect(third).toBeTypeOf('function');
    // The double release above freed one slot, not two.
    expect(await limiter.acquire('a')).toBeNull();
    second?.();
    third?.();
    expect(await limiter.acquire('a')).toBeTypeOf('function');
    expect(await limiter.acquire('a')).toBeTypeOf('function');
    expect(await limiter.acquire('a')).toBeNull();
  });
});
