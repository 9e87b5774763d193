import { minorUnitDigits } from '@travelops/client';

/**
 * Dates and money for the guest: the browser's locale, the tour's currency and time zone.
 * `locale` undefined means the browser's own.
 */

const moneyFormats = new Map<string, Intl.NumberFormat>();

/**
 * Minor units as money in `currency`: 12500 EUR -> "€125.00"; 1500 JPY -> "¥1,500". The digits
 * are the server's (its table, through the client), not the browser's currency data.
 */
export function formatMoney(amount: number, currency: string, locale?: string): string {
  const key = `${locale ?? ''}|${currency}`;
  const digits = minorUnitDigits(currency);
  let format = moneyFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, {
      style: 'currency',
      currency,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    });
    moneyFormats.set(key, format);
  }
  return format.format(amount / 10 ** digits);
}

/** `2031-03-14T18:30:00Z` in `Europe/Berlin` -> `2031-03-14` (the local calendar day). */
export function localDateOf(iso: string, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(new Date(iso));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}`;
}

/** A local time of day in the tour's zone: "19:30" or "7:30 PM" as the locale writes it. */
export const formatTime = (iso: string, timeZone: string, locale?: string): string =>
  new Intl.DateTimeFormat(locale, { timeZone, hour: 'numeric', minute: '2-digit' }).format(new Date(iso));

/** A calendar day (`YYYY-MM-DD`, already local) written out: "Friday, 14 March 2031". */
export const formatDay = (date: string, locale?: string): string =>
  new Intl.DateTimeFormat(locale, {
    timeZone: 'UTC',
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
  }).format(new Date(`${date}T00:00:00Z`));

/** The month's name and year for a calendar's heading: "March 2031". */
export const formatMonth = (month: string, locale?: string): string =>
  new Intl.DateTimeFormat(locale, { timeZone: 'UTC', month: 'long', year: 'numeric' }).format(
    new Date(`${month}-01T00:00:00Z`),
  );

/** Short weekday names Monday to Sunday in the locale ("Mon", "Tue", ...). */
export function weekdayNames(locale?: string): { short: string; long: string }[] {
  const short = new Intl.DateTimeFormat(locale, { timeZone: 'UTC', weekday: 'short' });
  const long = new Intl.DateTimeFormat(locale, { timeZone: 'UTC', weekday: 'long' });
  // 2024-01-01 was a Monday.
  return Array.from({ length: 7 }, (_, i) => {
    const day = new Date(Date.UTC(2024, 0, 1 + i));
    return { short: short.format(day), long: long.format(day) };
  });
}

/** The time zone's short name at that instant ("CET", "GMT+2"), to say which clock times are in. */
export function zoneName(iso: string, timeZone: string, locale?: string): string {
  const parts = new Intl.DateTimeFormat(locale, { timeZone, timeZoneName: 'short' }).formatToParts(
    new Date(iso),
  );
  return parts.find((p) => p.type === 'timeZoneName')?.value ?? timeZone;
}

/**
 * A "from" price worth showing: the lowest seat price that costs something. A free seat (an
 * infant) is not what a day or a tour costs, so a zero shows no price at all.
 */
export function fromPriceText(amount: number | null, currency: string, locale?: string): string | null {
  return amount !== null && amount > 0 ? formatMoney(amount, currency, locale) : null;
}

/** The lowest of prices that cost something, for "from" labels; null when every seat is free. */
export function lowestPaid(prices: readonly number[]): number | null {
  const paid = prices.filter((price) => price > 0);
  return paid.length ? Math.min(...paid) : null;
}
