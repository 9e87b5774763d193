import { describe, expect, it } from 'vitest';
import { aBooking } from '../test-fixtures.js';
import { checkCurrency } from './check-currency.js';

describe('checkCurrency', () => {
  it.each([
    // changing tour, booking currency, paid, tour currency -> allowed
    [false, 'EUR', 5000, 'USD', true],
    [true, 'EUR', 0, 'USD', true],
    [true, 'EUR', 5000, 'EUR', true],
    [true, 'EUR', 5000, 'USD', false],
    [true, 'EUR', 1, 'JPY', false],
  ] as const)(
    'changing tour %s, %s booking with %i paid, to a %s tour: allowed %s',
    (changing, currency, paid, to, allowed) => {
      const result = checkCurrency(aBooking({ currency, amountPaid: paid }), { currency: to }, changing);
      expect(result.ok ? true : result.error).toEqual(
        allowed
          ? true
          : {
              code: 'UNPROCESSABLE',
              message: `The booking was paid in ${currency}; that tour sells in ${to}.`,
              details: [{ field: 'availabilityId', issue: 'currency_differs' }],
            },
      );
    },
  );

  it('no tour read: nothing to compare', () => {
    expect(checkCurrency(aBooking({ amountPaid: 5000 }), null, true)).toEqual({ ok: true, value: true });
  });
});
