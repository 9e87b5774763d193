import { describe, expect, it } from 'vitest';
import type { CancellationPolicy } from '../catalog/index.js';
import type { BookingStatus } from '../shared/enums.js';
import {
  cancellationCutoff,
  checkChosenRefund,
  checkGuestCancel,
  extendHoldExpiry,
  isGuestCancellable,
  policyRefund,
} from './policy-rules.js';

const now = new Date('2026-06-01T12:00:00.000Z');
const FULL: CancellationPolicy = { cutoffHours: 24, refund: 'FULL', refundPercent: null };

describe('cancellationCutoff', () => {
  it.each([
    ['2026-06-03T09:00:00.000Z', 24, '2026-06-02T09:00:00.000Z'],
    ['2026-06-03T09:00:00.000Z', 0, '2026-06-03T09:00:00.000Z'],
    ['2026-06-03T09:00:00.000Z', 48, '2026-06-01T09:00:00.000Z'],
    ['2026-06-03T09:30:00.000Z', 1, '2026-06-03T08:30:00.000Z'],
  ] as const)(
    'a departure at %s with cutoffHours %i closes guest cancels at %s',
    (startsAt, hours, cutoff) => {
      expect(cancellationCutoff(startsAt, { cutoffHours: hours }).toISOString()).toBe(cutoff);
    },
  );
});

describe('a guest may cancel: PENDING or CONFIRMED, strictly before the cutoff', () => {
  const cases: Array<[BookingStatus, string, boolean, string | null]> = [
    ['PENDING', '2026-06-03T12:00:00.000Z', true, null],
    ['CONFIRMED', '2026-06-03T12:00:00.000Z', true, null],
    // One millisecond before the cutoff is still in time; the cutoff itself is not.
    ['CONFIRMED', '2026-06-02T12:00:00.001Z', true, null],
    ['CONFIRMED', '2026-06-02T12:00:00.000Z', false, 'cancellation_cutoff_passed'],
    ['CONFIRMED', '2026-06-02T11:00:00.000Z', false, 'cancellation_cutoff_passed'],
    ['PENDING', '2026-06-01T09:00:00.000Z', false, 'cancellation_cutoff_passed'],
    ['CANCELLED', '2026-06-03T12:00:00.000Z', false, 'invalid_state'],
    ['COMPLETED', '2026-06-03T12:00:00.000Z', false, 'invalid_state'],
    ['NO_SHOW', '2026-06-03T12:00:00.000Z', false, 'invalid_state'],
    // A booking past its cutoff that is also cancelled names the state first.
    ['CANCELLED', '2026-06-01T09:00:00.000Z', false, 'invalid_state'],
  ];
  it.each(cases)('%s starting %s: cancellable %s (%s)', (status, startsAt, cancellable, issue) => {
    const booking = { status, startsAt, cancellationPolicy: FULL };
    expect(isGuestCancellable(booking, now)).toBe(cancellable);
    const checked = checkGuestCancel(booking, now);
    if (issue === null) expect(checked).toEqual({ ok: true, value: true });
    else {
      const field = issue === 'invalid_state' ? 'status' : 'cancellationCutoffAt';
      expect(checked.ok ? null : checked.error).toMatchObject({
        code: 'UNPROCESSABLE',
        details: [{ field, issue }],
      });
    }
  });
});

describe('policyRefund: what a guest cancel gives back', () => {
  const policy = (refund: CancellationPolicy['refund'], refundPercent: number | null = null) => ({
    cutoffHours: 24,
    refund,
    refundPercent,
  });
  it.each([
    ['FULL of all paid', policy('FULL'), 10_000, 0, 10_000],
    ['FULL after a partial refund', policy('FULL'), 10_000, 2_500, 7_500],
    ['FULL of a deposit', policy('FULL'), 2_000, 0, 2_000],
    ['FULL of nothing paid', policy('FULL'), 0, 0, 0],
    ['PARTIAL 50 %', policy('PARTIAL', 50), 10_000, 0, 5_000],
    ['PARTIAL rounds down to the minor unit', policy('PARTIAL', 33), 9_999, 0, 3_299],
    ['PARTIAL 1 % of 99 is 0', policy('PARTIAL', 1), 99, 0, 0],
    ['PARTIAL 100 %', policy('PARTIAL', 100), 10_001, 0, 10_001],
    ['PARTIAL 0 %', policy('PARTIAL', 0), 10_000, 0, 0],
    ['PARTIAL never above what is left', policy('PARTIAL', 80), 10_000, 5_000, 5_000],
    ['PARTIAL of nothing paid', policy('PARTIAL', 50), 0, 0, 0],
    ['NONE', policy('NONE'), 10_000, 0, 0],
    ['FULL when all was refunded already', policy('FULL'), 10_000, 10_000, 0],
  ] as const)('%s: paid %i, refunded %i -> %i', (_label, p, paid, refunded, expected) => {
    expect(policyRefund(p, { amountPaid: paid, amountRefunded: refunded })).toBe(expected);
  });
});

describe("checkChosenRefund: an operator's refund on cancel", () => {
  it.each([
    [0, 10_000, 0, true],
    [10_000, 10_000, 0, true],
    [7_500, 10_000, 2_500, true],
    [7_501, 10_000, 2_500, false],
    [1, 0, 0, false],
  ] as const)('%i of paid %i (refunded %i): allowed %s', (amount, paid, refunded, allowed) => {
    const checked = checkChosenRefund(amount, { amountPaid: paid, amountRefunded: refunded });
    if (allowed) expect(checked).toEqual({ ok: true, value: amount });
    else
      expect(checked.ok ? null : checked.error.details).toEqual([
        { field: 'refundAmount', issue: 'exceeds_refundable' },
      ]);
  });
});

describe('extendHoldExpiry: expiresAt + minutes, at most 60 minutes past now, never shorter', () => {
  const pending = (expiresAt: string | null) => ({ status: 'PENDING' as const, expiresAt });
  it.each([
    ['20 min left, +15', '2026-06-01T12:20:00.000Z', 15, '2026-06-01T12:35:00.000Z'],
    ['20 min left, +40: exactly the cap', '2026-06-01T12:20:00.000Z', 40, '2026-06-01T13:00:00.000Z'],
    ['20 min left, +60: capped at now + 60', '2026-06-01T12:20:00.000Z', 60, '2026-06-01T13:00:00.000Z'],
    ['1 ms left, +1', '2026-06-01T12:00:00.001Z', 1, '2026-06-01T12:01:00.001Z'],
    ['59 min left, +30: capped', '2026-06-01T12:59:00.000Z', 30, '2026-06-01T13:00:00.000Z'],
    ['already at the cap: unchanged', '2026-06-01T13:00:00.000Z', 10, '2026-06-01T13:00:00.000Z'],
    ['24 h payment-link hold: never shortened', '2026-06-02T12:00:00.000Z', 5, '2026-06-02T12:00:00.000Z'],
  ] as const)('%s', (_label, expiresAt, minutes, expected) => {
    expect(extendHoldExpiry(pending(expiresAt), minutes, now)).toEqual({
      ok: true,
      value: new Date(expected),
    });
  });

  it.each([
    ['expired a minute ago', pending('2026-06-01T11:59:00.000Z'), 'expiresAt', 'hold_expired'],
    ['expiring exactly now', pending('2026-06-01T12:00:00.000Z'), 'expiresAt', 'hold_expired'],
    ['a MANUAL booking without expiry', pending(null), 'expiresAt', 'no_hold'],
    ['CONFIRMED', { status: 'CONFIRMED' as const, expiresAt: null }, 'status', 'invalid_state'],
    [
      'CANCELLED with an old expiry',
      { status: 'CANCELLED' as const, expiresAt: '2026-06-01T12:20:00.000Z' },
      'status',
      'invalid_state',
    ],
  ] as const)('%s: 422 %s %s', (_label, booking, field, issue) => {
    const result = extendHoldExpiry(booking, 10, now);
    expect(result.ok ? null : result.error).toMatchObject({
      code: 'UNPROCESSABLE',
      details: [{ field, issue }],
    });
  });
});
