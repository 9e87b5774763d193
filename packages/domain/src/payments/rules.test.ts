import { describe, expect, it } from 'vitest';
import type { BookingStatus } from '../shared/enums.js';
import type { PaymentRecord } from './ports.js';
import { holdWaitsOn, moneyToReturn, recordedRefundIds } from './rules.js';

describe('moneyToReturn', () => {
  it.each([
    // status, total, paid (after recording), received -> returned
    ['CONFIRMED', 10_000, 10_000, 10_000, 0],
    ['CONFIRMED', 10_000, 2_000, 2_000, 0],
    ['CONFIRMED', 10_000, 20_000, 10_000, 10_000],
    ['CONFIRMED', 10_000, 12_000, 10_000, 2_000],
    ['COMPLETED', 10_000, 10_000, 10_000, 0],
    ['CANCELLED', 10_000, 10_000, 10_000, 10_000],
    ['CANCELLED', 10_000, 12_000, 2_000, 2_000],
  ] as const)(
    '%s, total %i, paid %i, just received %i: returns %i',
    (status, total, paid, received, back) => {
      expect(moneyToReturn({ status, totalAmount: total, amountPaid: paid }, received)).toBe(back);
    },
  );
});

describe('holdWaitsOn', () => {
  const session = { id: 'ps_1' };
  it.each([
    ['PENDING', 0, 'ps_1', true],
    ['PENDING', 0, 'ps_2', false],
    ['PENDING', 500, 'ps_1', false],
    ['PENDING', 0, null, false],
    ['CONFIRMED', 0, 'ps_1', false],
    ['CANCELLED', 0, 'ps_1', false],
  ] as const)('%s, paid %i, current session %s: %s', (status, paid, current, waits) => {
    const booking = { status: status as BookingStatus, amountPaid: paid, paymentIntentId: current };
    expect(holdWaitsOn(booking, session)).toBe(waits);
  });
});

describe('recordedRefundIds', () => {
  const record = (kind: PaymentRecord['kind'], providerReference: string | null) =>
    ({ kind, providerReference }) as PaymentRecord;
  it('reads single and space-separated refund ids of REFUND records only', () => {
    const ids = recordedRefundIds([
      record('PAYMENT', 'pi_1'),
      record('REFUND', 're_1'),
      record('REFUND', 're_2 re_3'),
      record('REFUND', null),
    ]);
    expect([...ids].sort()).toEqual(['re_1', 're_2', 're_3']);
  });
});
