import { minorUnitDigits } from '@travelops/client';
import { expect, it } from 'vitest';
import { formatMoney, fromPriceText, localDateOf, lowestPaid } from './format.js';

it.each([
  [12_500, 'EUR', '€125.00'],
  [1_500, 'JPY', '¥1,500'],
  [1_234, 'BHD', 'BHD 1.234'],
  // ISO 4217's minor unit, the server's table: the browser's CLDR data shows these with none.
  [1_500, 'IQD', 'IQD 1.500'],
  [150_000, 'IDR', 'IDR 1,500.00'],
])('%i minor units of %s read %s', (amount, currency, text) => {
  expect(formatMoney(amount, currency, 'en-US').replace(/\u00a0/g, ' ')).toBe(text);
});

it("shows every code the API accepts with the server's digits", () => {
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  const codes = [...letters].flatMap((a) => [...letters].flatMap((b) => [...letters].map((c) => a + b + c)));
  const off = codes.filter((currency) => {
    const shown = formatMoney(1_234_567, currency, 'en-US');
    return (
      (/\.(\d+)/.exec(shown)?.[1] ?? '').length !== minorUnitDigits(currency) ||
      shown.replace(/\D/g, '') !== '1234567'
    );
  });
  expect(off).toEqual([]);
});

it("a departure's local day is the tour's, not UTC's", () => {
  expect(localDateOf('2031-03-14T23:30:00.000Z', 'Europe/Berlin')).toBe('2031-03-15');
  expect(localDateOf('2031-03-14T23:30:00.000Z', 'America/New_York')).toBe('2031-03-14');
});

it('"from" prices leave free seats out', () => {
  expect(lowestPaid([0, 2_000, 4_000])).toBe(2_000);
  expect(lowestPaid([0])).toBeNull();
  expect(fromPriceText(0, 'EUR', 'en-US')).toBeNull();
  expect(fromPriceText(1_500, 'EUR', 'en-US')).toBe('€15.00');
});
