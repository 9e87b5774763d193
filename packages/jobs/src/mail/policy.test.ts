import { DEFAULT_RETRY_POLICY } from '@travelops/webhooks';
import { describe, expect, it } from 'vitest';
import { decideAfterSend } from './policy.js';

const createdAt = new Date('2030-01-01T00:00:00.000Z');
const now = new Date('2030-01-01T00:10:00.000Z');
const half = () => 0.5; // no jitter: exactly the step

describe('decideAfterSend', () => {
  it.each([
    ['taken by the server: SENT', { ok: true } as const, 1, now, { status: 'SENT', nextAttemptAt: null }],
    [
      'recipient refused for good (5xx): FAILED at once',
      { ok: false, error: 'EENVELOPE RCPT TO 550', permanent: true } as const,
      1,
      now,
      { status: 'FAILED', nextAttemptAt: null },
    ],
    [
      'server down, first attempt: again in 30 s',
      { ok: false, error: 'ECONNECTION CONN', permanent: false } as const,
      1,
      now,
      { status: 'PENDING', nextAttemptAt: new Date(now.getTime() + 30_000) },
    ],
    [
      'server down, fourth attempt: again in 4 min',
      { ok: false, error: 'ETIMEDOUT', permanent: false } as const,
      4,
      now,
      { status: 'PENDING', nextAttemptAt: new Date(now.getTime() + 240_000) },
    ],
    [
      'still failing as the three-day window closes: FAILED',
      { ok: false, error: 'EAUTH 535', permanent: false } as const,
      30,
      new Date(createdAt.getTime() + DEFAULT_RETRY_POLICY.windowMs - 60_000),
      { status: 'FAILED', nextAttemptAt: null },
    ],
  ])('%s', (_name, outcome, attempts, at, expected) => {
    expect(decideAfterSend({ outcome, attempts, createdAt, now: at, random: half })).toEqual(expected);
  });
});
