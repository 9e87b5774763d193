import { describe, expect, it } from 'vitest';
import type { PaymentMode } from '../../shared/enums.js';
import { NATIVE_CHANNEL, publicChannel, resellerChannel } from '../channel-policy.js';
import { aTour, NOW } from '../test-fixtures.js';
import { decideHold, holdUntil } from './decide-hold.js';

const tour = aTour({ publicHoldMinutes: 15, depositPercent: 20 });
const minutes = (n: number) => new Date(NOW.getTime() + n * 60_000);
const native = NATIVE_CHANNEL;
const guest = publicChannel();
const reseller = resellerChannel(45);

describe('decideHold', () => {
  it.each([
    // channel, mode, total -> status, hold (minutes from now), payment
    ['native', native, 'CHECKOUT', 5000, 'PENDING', 30, { amount: 5000, purpose: 'FULL' }],
    ['native', native, 'DEPOSIT', 5000, 'PENDING', 30, { amount: 1000, purpose: 'DEPOSIT' }],
    ['native', native, 'PAYMENT_LINK', 5000, 'PENDING', 24 * 60, { amount: 5000, purpose: 'FULL' }],
    ['native', native, 'MANUAL', 5000, 'PENDING', null, null],
    ['native', native, 'CHECKOUT', 0, 'CONFIRMED', null, null],
    ['native', native, 'MANUAL', 0, 'PENDING', null, null],
    ['public', guest, 'CHECKOUT', 5000, 'PENDING', 15, { amount: 5000, purpose: 'FULL' }],
    ['public', guest, 'DEPOSIT', 5000, 'PENDING', 15, { amount: 1000, purpose: 'DEPOSIT' }],
    ['public', guest, 'CHECKOUT', 0, 'CONFIRMED', null, null],
    ['reseller', reseller, 'MANUAL', 5000, 'PENDING', 45, null],
    ['reseller', reseller, 'MANUAL', 0, 'PENDING', 45, null],
  ] as const)(
    '%s, %s, total %i: %s, holding %s minutes, paying %j',
    (_c, policy, mode, total, status, hold, payment) => {
      expect(decideHold(mode as PaymentMode, total, tour, NOW, policy)).toEqual({
        status,
        expiresAt: hold === null ? null : minutes(hold),
        payment,
      });
    },
  );

  it('a deposit asks at least one minor unit', () => {
    expect(decideHold('DEPOSIT', 3, aTour({ depositPercent: 10 }), NOW, native).payment).toEqual({
      amount: 1,
      purpose: 'DEPOSIT',
    });
  });
});

describe('holdUntil', () => {
  it.each([
    [{ by: 'paymentMode' } as const, 'CHECKOUT', minutes(30)],
    [{ by: 'paymentMode' } as const, 'MANUAL', null],
    [{ by: 'tour' } as const, 'MANUAL', minutes(15)],
    [{ by: 'minutes', minutes: 5 } as const, 'CHECKOUT', minutes(5)],
  ])('%j with %s: %s', (rule, mode, until) => {
    expect(holdUntil(rule, mode as PaymentMode, tour, NOW)).toEqual(until);
  });
});
