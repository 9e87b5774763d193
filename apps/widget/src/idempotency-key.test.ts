import { expect, it } from 'vitest';
import { failureOf } from './api.js';
import { newIdempotencyKey } from './idempotency-key.js';

it('keys are RFC 4122 version 4 UUIDs, a new one each time', () => {
  const keys = Array.from({ length: 50 }, () => newIdempotencyKey());
  for (const key of keys)
    expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  expect(new Set(keys).size).toBe(50);
  expect(newIdempotencyKey((b) => b.fill(255))).toBe('ffffffff-ffff-4fff-bfff-ffffffffffff');
});

it('409 idempotency_key_in_use is the same attempt still running, not a sold-out departure', () => {
  const body = { error: { details: [{ field: 'Idempotency-Key', issue: 'idempotency_key_in_use' }] } };
  expect(failureOf(409, body, null)).toEqual({ kind: 'busy' });
});

it.each([
  [409, null, { kind: 'conflict' }],
  [429, '7', { kind: 'rate_limited', retryAfterSeconds: 7 }],
  [429, null, { kind: 'rate_limited', retryAfterSeconds: 1 }],
  [400, null, { kind: 'invalid', details: [{ field: 'customer.email', issue: 'invalid_email' }] }],
  [404, null, { kind: 'not_found' }],
  [503, null, { kind: 'server' }],
])('an answer %i means %j', (status, retryAfter, failure) => {
  const body = { error: { details: [{ field: 'customer.email', issue: 'invalid_email' }] } };
  expect(failureOf(status as number, body, retryAfter as string | null)).toEqual(failure);
});
