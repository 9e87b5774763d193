/**
 * ISO 4217 currencies with a minor unit other than 2 (cents); the rest use 2. This table is
 * the one answer to "how many digits is a minor unit" for every amount the service stores,
 * shows, mails, sends to OCTO resellers or (through @travelops/client) the browser apps show.
 *
 * ISO 4217 is the reference, not the runtime's CLDR data: `Intl` shows some currencies with
 * fewer digits than their minor unit (IQD, IDR, HUF, MGA, LAK, COP, PKR... with none) and
 * would read a stored 1500 IQD as "IQD 1,500" where ISO's three digits make it 1.500 dinars.
 * Decided per currency, ISO's digits kept: IQD 3, and IDR, HUF, MGA, LAK (and every other
 * currency CLDR rounds for display) 2. CLF and UYW (4) are ISO's too. A code ISO does not
 * list (withdrawn, a test code, or no minor unit, such as XAU) counts as 2. Every display
 * passes these digits to `Intl` explicitly, so no runtime's data can disagree with them.
 */
const MINOR_UNIT_EXCEPTIONS: Record<string, number> = {
  BHD: 3,
  BIF: 0,
  CLF: 4,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  IQD: 3,
  ISK: 0,
  JOD: 3,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  PYG: 0,
  RWF: 0,
  TND: 3,
  UGX: 0,
  UYI: 0,
  UYW: 4,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
};

/** Digits after the decimal point of the currency's minor unit (EUR 2, JPY 0, KWD 3). */
export function minorUnitDigits(currency: string): number {
  return MINOR_UNIT_EXCEPTIONS[currency] ?? 2;
}

/** Minor units as plain text with the code, no locale: 12500 EUR -> "125.00 EUR", 5000 JPY -> "5000 JPY". */
export function formatMoney(amount: number, currency: string): string {
  const digits = minorUnitDigits(currency);
  return `${(amount / 10 ** digits).toFixed(digits)} ${currency}`;
}

/**
 * Minor units as a person in `locale` reads money (`undefined`: the runtime's own): Intl's
 * symbol, grouping and separators, the table's digits. 12500 EUR in en -> "€125.00".
 */
export function localMoneyFormat(currency: string, locale?: string): (amount: number) => string {
  const digits = minorUnitDigits(currency);
  const format = new Intl.NumberFormat(locale, {
    style: 'currency',
    currency,
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
  return (amount) => format.format(amount / 10 ** digits);
}

/** A share of an amount in whole percent, rounded half up to the minor unit. */
export function percentOf(amount: number, percent: number): number {
  return Math.floor((amount * percent + 50) / 100);
}
