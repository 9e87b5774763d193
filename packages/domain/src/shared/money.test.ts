import { describe, expect, it } from 'vitest';
import { formatMoney, localMoneyFormat, minorUnitDigits } from './money.js';

/** Every code CurrencySchema accepts (`^[A-Z]{3}$`). */
const EVERY_CODE = (() => {
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  return [...letters].flatMap((a) => [...letters].flatMap((b) => [...letters].map((c) => a + b + c)));
})();

describe('the minor unit of a currency (ISO 4217)', () => {
  it.each([
    ['EUR', 2],
    ['JPY', 0],
    ['KWD', 3],
    ['BHD', 3],
    ['CLF', 4],
    ['UYW', 4],
    // Where the runtime's CLDR data shows fewer digits, ISO's minor unit is kept.
    ['IQD', 3],
    ['IDR', 2],
    ['HUF', 2],
    ['MGA', 2],
    ['LAK', 2],
    ['COP', 2],
    // Not a currency with a minor unit in ISO (gold), and not a code at all: 2.
    ['XAU', 2],
    ['ZZZ', 2],
  ])('%s has %i digits', (currency, digits) => {
    expect(minorUnitDigits(currency)).toBe(digits);
  });
});

describe('money as text', () => {
  it.each([
    [12_500, 'EUR', '125.00 EUR'],
    [5_000, 'JPY', '5000 JPY'],
    [1_234, 'KWD', '1.234 KWD'],
    [1_500, 'IQD', '1.500 IQD'],
    [150_000, 'IDR', '1500.00 IDR'],
  ])('%i %s is "%s" (no locale: statements, the sandbox)', (amount, currency, text) => {
    expect(formatMoney(amount, currency)).toBe(text);
  });

  it.each([
    [12_500, 'EUR', 'en-US', '€125.00'],
    [1_500, 'JPY', 'en-US', '¥1,500'],
    [1_234, 'BHD', 'en-US', 'BHD 1.234'],
    [1_500, 'IQD', 'en-US', 'IQD 1.500'],
    [150_000, 'HUF', 'en-US', 'HUF 1,500.00'],
    [12_500, 'EUR', 'de-DE', '125,00 €'],
  ])('%i %s in %s reads "%s" (pages, e-mails)', (amount, currency, locale, text) => {
    expect(localMoneyFormat(currency, locale)(amount).replace(/\u00a0/g, ' ')).toBe(text);
  });

  it("shows every accepted code with the table's digits, whatever the runtime's CLDR says", () => {
    const disagreeing = EVERY_CODE.filter((currency) => {
      const shown = localMoneyFormat(currency, 'en-US')(1_234_567);
      const fraction = /\.(\d+)/.exec(shown)?.[1] ?? '';
      return fraction.length !== minorUnitDigits(currency) || shown.replace(/\D/g, '') !== '1234567';
    });
    expect(disagreeing).toEqual([]);
  });
});
