import { describe, expect, it } from 'vitest';
import type { PaymentMode } from '../../shared/enums.js';
import { NATIVE_CHANNEL, publicChannel, resellerChannel } from '../channel-policy.js';
import { choosePaymentMode } from './choose-payment-mode.js';

const native = NATIVE_CHANNEL;
const guest = publicChannel();
const reseller = resellerChannel(30);

describe('choosePaymentMode', () => {
  it.each([
    ['native', native, undefined, 'CHECKOUT'],
    ['native', native, 'CHECKOUT', 'CHECKOUT'],
    ['native', native, 'DEPOSIT', 'DEPOSIT'],
    ['native', native, 'PAYMENT_LINK', 'PAYMENT_LINK'],
    ['native', native, 'MANUAL', 'MANUAL'],
    ['public', guest, undefined, 'CHECKOUT'],
    ['public', guest, 'CHECKOUT', 'CHECKOUT'],
    ['public', guest, 'DEPOSIT', 'DEPOSIT'],
    ['public', guest, 'PAYMENT_LINK', null],
    ['public', guest, 'MANUAL', null],
    ['reseller', reseller, 'MANUAL', 'MANUAL'],
    ['reseller', reseller, undefined, null],
    ['reseller', reseller, 'CHECKOUT', null],
  ] as const)('%s channel, %s asked: %s', (_channel, policy, asked, chosen) => {
    const result = choosePaymentMode(asked as PaymentMode | undefined, policy);
    if (chosen) {
      expect(result).toEqual({ ok: true, value: chosen });
    } else {
      expect(result.ok ? null : result.error).toMatchObject({
        code: 'UNPROCESSABLE',
        details: [{ field: 'paymentMode', issue: 'not_allowed' }],
      });
    }
  });

  it("a guest's refusal says how guests pay", () => {
    const result = choosePaymentMode('MANUAL', guest);
    expect(result.ok ? null : result.error.message).toBe('Guests pay online: use CHECKOUT or DEPOSIT.');
  });
});
