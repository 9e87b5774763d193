/** Calendar days and wall-clock times in a tour's time zone (IANA), from UTC instants. */

const DAY_MS = 86_400_000;

// Building a formatter is slow and a calendar of a year asks thousands of times: one per zone.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The wall clock in `timeZone` at `instant`: its date `YYYY-MM-DD` and time `HH:MM`. */
export function localDateTime(instant: string | Date, timeZone: string): { date: string; time: string } {
  const parts: Record<string, string> = {};
  for (const part of formatterOf(timeZone).formatToParts(new Date(instant))) parts[part.type] = part.value;
  return { date: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}` };
}

/** The calendar day in `timeZone` on which `instant` falls. */
export function localDay(instant: string | Date, timeZone: string): string {
  return localDateTime(instant, timeZone).date;
}

/** `YYYY-MM-DD` plus `days` (negative goes back). */
export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00.000Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Days from `from` to `to` (0 when equal, negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00.000Z`) - Date.parse(`${from}T00:00:00.000Z`)) / DAY_MS);
}
