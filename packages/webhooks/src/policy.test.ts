import { describe, expect, it } from 'vitest';
import { backoffDelay, DEFAULT_RETRY_POLICY, decideAfterAttempt, parseRetryAfter } from './policy.js';

const now = new Date('2026-06-01T12:00:00.000Z');
const created = new Date('2026-06-01T11:59:00.000Z');
const half = () => 0.5;

describe('decideAfterAttempt', () => {
  it.each([200, 201, 204, 299])('%i succeeds', (statusCode) => {
    expect(
      decideAfterAttempt({ outcome: { statusCode }, attempts: 1, eventCreatedAt: created, now }).status,
    ).toBe('SUCCEEDED');
  });

  it.each([301, 302, 400, 401, 404, 500, 502])('%i is retried later', (statusCode) => {
    const decision = decideAfterAttempt({
      outcome: { statusCode },
      attempts: 1,
      eventCreatedAt: created,
      now,
      random: half,
    });
    expect(decision).toEqual({
      status: 'PENDING',
      nextAttemptAt: new Date(now.getTime() + 30_000),
      disableEndpoint: false,
    });
  });

  it('no answer at all (timeout, refused) is retried', () => {
    expect(
      decideAfterAttempt({ outcome: {}, attempts: 3, eventCreatedAt: created, now, random: half }).status,
    ).toBe('PENDING');
  });

  it('410 Gone gives up and disables the endpoint', () => {
    expect(
      decideAfterAttempt({ outcome: { statusCode: 410 }, attempts: 1, eventCreatedAt: created, now }),
    ).toEqual({
      status: 'FAILED',
      nextAttemptAt: null,
      disableEndpoint: true,
    });
  });

  it.each([429, 503])('%i waits as long as Retry-After asks', (statusCode) => {
    const decision = decideAfterAttempt({
      outcome: { statusCode, retryAfter: '120' },
      attempts: 1,
      eventCreatedAt: created,
      now,
    });
    expect(decision.nextAttemptAt).toEqual(new Date(now.getTime() + 120_000));
  });

  it('Retry-After on another status is ignored', () => {
    const decision = decideAfterAttempt({
      outcome: { statusCode: 500, retryAfter: '3600' },
      attempts: 1,
      eventCreatedAt: created,
      now,
      random: half,
    });
    expect(decision.nextAttemptAt).toEqual(new Date(now.getTime() + 30_000));
  });

  it('gives up once the next attempt would fall outside the three-day window', () => {
    const old = new Date(now.getTime() - DEFAULT_RETRY_POLICY.windowMs + 1000);
    expect(
      decideAfterAttempt({
        outcome: { statusCode: 500 },
        attempts: 20,
        eventCreatedAt: old,
        now,
        random: half,
      }),
    ).toEqual({
      status: 'FAILED',
      nextAttemptAt: null,
      disableEndpoint: false,
    });
  });

  it('keeps retrying for about three days in all', () => {
    let at = created.getTime();
    let attempts = 0;
    for (;;) {
      attempts++;
      const d = decideAfterAttempt({
        outcome: { statusCode: 500 },
        attempts,
        eventCreatedAt: created,
        now: new Date(at),
        random: half,
      });
      if (d.status !== 'PENDING') break;
      at = d.nextAttemptAt.getTime();
    }
    const days = (at - created.getTime()) / 86_400_000;
    expect(days).toBeGreaterThan(2.5);
    expect(days).toBeLessThanOrEqual(3);
    expect(attempts).toBeGreaterThan(10);
  });
});

describe('backoffDelay', () => {
  it('doubles per attempt up to the cap, jittered between 0.5x and 1.5x', () => {
    expect(backoffDelay(1, DEFAULT_RETRY_POLICY, () => 0)).toBe(15_000);
    expect(backoffDelay(2, DEFAULT_RETRY_POLICY, half)).toBe(60_000);
    expect(backoffDelay(40, DEFAULT_RETRY_POLICY, () => 0.999)).toBeLessThanOrEqual(
      1.5 * DEFAULT_RETRY_POLICY.maxDelayMs,
    );
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates, caps at a day, refuses garbage', () => {
    expect(parseRetryAfter('5', now)).toBe(5000);
    expect(parseRetryAfter(new Date(now.getTime() + 60_000).toUTCString(), now)).toBe(60_000);
    expect(parseRetryAfter('999999', now)).toBe(86_400_000);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(undefined, now)).toBeNull();
  });
});
