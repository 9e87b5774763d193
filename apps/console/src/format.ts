import { minorUnitDigits } from '@travelops/client';

// Money and times as the operator reads them: in the tour's currency and time zone. A minor
// unit has the digits the server counts (its table, through the client), never the browser's
// own currency data, which shows some currencies (HUF, IDR, IQD...) with fewer.

/** Minor units to text in the currency (12500 EUR -> €125.00; JPY has no minor unit). */
export function formatMoney(minor: number, currency: string, locale?: string): string {
  const digits = minorUnitDigits(currency);
  const format = new Intl.NumberFormat(locale, {
    style: 'currency',
    currency,
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
  return format.format(minor / 10 ** digits);
}

/** Text typed by a person (12.5, "12,50") to minor units; null when it is not an amount. */
export function parseMoney(text: string, currency: string): number | null {
  const cleaned = text.trim().replace(',', '.');
  if (!/^\d+(\.\d+)?$/.test(cleaned)) return null;
  return Math.round(Number(cleaned) * 10 ** minorUnitDigits(currency));
}

/** Minor units as a plain number for an input (12500 -> "125.00"). */
export function moneyInput(minor: number, currency: string): string {
  const digits = minorUnitDigits(currency);
  return (minor / 10 ** digits).toFixed(digits);
}

const parts = (date: Date, timeZone: string) => {
  const values: Record<string, string> = {};
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  for (const part of format.formatToParts(date)) values[part.type] = part.value;
  return values as Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second', string>;
};

/** The calendar day (`YYYY-MM-DD`) of an instant in a time zone. */
export function localDate(instant: string | Date, timeZone: string): string {
  const p = parts(new Date(instant), timeZone);
  return `${p.year}-${p.month}-${p.day}`;
}

/** The wall-clock time (`HH:MM`) of an instant in a time zone. */
export function localTime(instant: string | Date, timeZone: string): string {
  const p = parts(new Date(instant), timeZone);
  return `${p.hour}:${p.minute}`;
}

/** "Mon 3 Jun, 09:30" in the zone, with the zone's short name when asked. */
export function formatDateTime(
  instant: string | Date,
  timeZone: string,
  options: { zone?: boolean; locale?: string } = {},
): string {
  return new Intl.DateTimeFormat(options.locale, {
    timeZone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    ...(options.zone && { timeZoneName: 'short' }),
  }).format(new Date(instant));
}

/** "Monday 3 June 2030" for a `YYYY-MM-DD` day. */
export function formatDay(day: string, locale?: string, style: 'long' | 'short' = 'long'): string {
  return new Intl.DateTimeFormat(locale, {
    timeZone: 'UTC',
    weekday: style,
    day: 'numeric',
    month: style,
    ...(style === 'long' && { year: 'numeric' }),
  }).format(new Date(`${day}T00:00:00Z`));
}

/** Offset of the zone from UTC at an instant, in minutes (Berlin in summer: 120). */
function offsetMinutes(instant: Date, timeZone: string): number {
  const p = parts(instant, timeZone);
  const asUtc = Date.UTC(+p.year, +p.month - 1, +p.day, +p.hour, +p.minute, +p.second);
  return Math.round((asUtc - Math.floor(instant.getTime() / 1000) * 1000) / 60_000);
}

/**
 * A local day and time in a zone to the instant. A time in the spring-forward gap moves
 * forward by the gap, and one that happens twice is the first, as the server's schedules do.
 */
export function zonedToUtc(day: string, time: string, timeZone: string): Date {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const [hour, minute] = time.split(':').map(Number) as [number, number];
  const wall = Date.UTC(year, month - 1, date, hour, minute);
  const before = offsetMinutes(new Date(wall - 86_400_000), timeZone);
  const after = offsetMinutes(new Date(wall + 86_400_000), timeZone);
  // The earlier reading first (an overlap's first occurrence); a gap takes the later offset's shift.
  for (const offset of [before, after]) {
    const candidate = new Date(wall - offset * 60_000);
    if (localTime(candidate, timeZone) === time && localDate(candidate, timeZone) === day) return candidate;
  }
  return new Date(wall - before * 60_000);
}

/** `YYYY-MM-DD` plus days. */
export function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** The Monday of the week a day is in. */
export function startOfWeek(day: string): string {
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
  return addDays(day, -((weekday + 6) % 7));
}

/** The browser's own zone, for days that belong to no tour (the calendar's "today"). */
export const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;
