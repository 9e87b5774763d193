/**
 * Wall-clock time in an IANA time zone, with only the platform's `Intl` (the domain has no
 * date library). Dates are `YYYY-MM-DD`, times `HH:MM` (24 h).
 */

const DAY_MS = 86_400_000;

// Building a formatter is the slow part; a schedule converts thousands of starts in one zone.
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
      second: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The wall clock of `instant` (a whole second) in the zone, read as if it were UTC, from Intl itself. */
function intlWallClockMs(instant: number, timeZone: string): number {
  const parts: Record<string, number> = {};
  for (const part of formatterOf(timeZone).formatToParts(new Date(instant))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return Date.UTC(
    parts.year as number,
    (parts.month as number) - 1,
    parts.day as number,
    parts.hour as number,
    parts.minute as number,
    parts.second as number,
  );
}

/**
 * One UTC day of a zone: the offset in force at its start (`before`) until `changeAt`, and
 * `after` from then on. Without a change `changeAt` is the next day's start, so `before`
 * holds all day.
 */
interface ZoneDay {
  before: number;
  changeAt: number;
  after: number;
}

/**
 * Offsets by zone and UTC day (days since 1970). `formatToParts` costs about 10 µs a call and
 * a calendar of a year reads thousands of starts: asking Intl once per zone and day (about
 * 18 times more for a day with a change), then adding, makes a local date cost a lookup.
 * This relies on a zone changing its offset at most once in a UTC day: in the tz database
 * (2025, backzone included) two changes are never closer than 95 hours (Freetown, 1939).
 */
const zoneDays = new Map<string, Map<number, ZoneDay>>();
/** Days kept per zone (about 55 years); past it, the zone's days are forgotten and asked again. */
const MAX_ZONE_DAYS = 20_000;

/** The last day asked for: departures come in order, several a day. */
let last: { timeZone: string; day: number; entry: ZoneDay } | undefined;

function zoneDayOf(day: number, timeZone: string): ZoneDay {
  if (last && last.day === day && last.timeZone === timeZone) return last.entry;
  const entry = cachedZoneDayOf(day, timeZone);
  last = { timeZone, day, entry };
  return entry;
}

function cachedZoneDayOf(day: number, timeZone: string): ZoneDay {
  const days = zoneDays.get(timeZone);
  const known = days?.get(day);
  if (known) return known;
  const start = day * DAY_MS;
  const end = start + DAY_MS;
  // A neighbour's edge is this day's edge: a run of days asks Intl once a day.
  const before = days?.get(day - 1)?.after ?? intlWallClockMs(start, timeZone) - start;
  const after = days?.get(day + 1)?.before ?? intlWallClockMs(end, timeZone) - end;
  let changeAt = end;
  if (after !== before) {
    // The one change is in (start, end], on a whole second (the tz database has no finer):
    // bisect on seconds, keeping `before` in force at `low` and not at `high`.
    let low = start;
    let high = end;
    while (high - low > 1000) {
      const middle = low + Math.floor((high - low) / 2000) * 1000;
      if (intlWallClockMs(middle, timeZone) - middle === before) low = middle;
      else high = middle;
    }
    changeAt = high;
  }
  const entry = { before, changeAt, after };
  if (!days) zoneDays.set(timeZone, new Map([[day, entry]]));
  else {
    if (days.size >= MAX_ZONE_DAYS) days.clear();
    days.set(day, entry);
  }
  return entry;
}

/** The zone's offset from UTC at `instant`, in milliseconds (Europe/Berlin in July: +2 h). */
function offsetAt(instant: number, timeZone: string): number {
  const { before, changeAt, after } = zoneDayOf(Math.floor(instant / DAY_MS), timeZone);
  return instant < changeAt ? before : after;
}

/** The wall clock of `instant` in the zone, to the second, read as if it were UTC (milliseconds). */
function wallClockMs(instant: number, timeZone: string): number {
  // Offsets are whole seconds, and changes happen on whole seconds.
  return Math.floor(instant / 1000) * 1000 + offsetAt(instant, timeZone);
}

/** `YYYY-MM-DD` + `HH:MM` read as UTC, in milliseconds. */
function asUtcMs(date: string, time: string): number {
  return Date.parse(`${date}T${time}:00.000Z`);
}

/**
 * The instant at which clocks in `timeZone` show `time` on `date`.
 *
 * Two days of a year in zones with daylight saving need a rule, the one of RFC 5545 (§3.3.5)
 * and of Temporal's `disambiguation: 'compatible'`:
 * - a time that does not exist (the spring-forward gap: 02:30 on the last Sunday of March in
 *   Europe/Berlin) is read with the offset in force before the gap, so it moves forward by the
 *   gap's length (02:30 becomes 03:30 CEST, 01:30Z);
 * - a time that happens twice (the fall-back overlap: 02:30 on the last Sunday of October)
 *   is the first, earlier occurrence (02:30 CEST, 00:30Z).
 */
export function localTimeToUtc(date: string, time: string, timeZone: string): Date {
  const wall = asUtcMs(date, time);
  // Zones change offset at most once in any two days: the offsets a day either side are the
  // ones in force before and after any change near this wall time.
  const before = offsetAt(wall - DAY_MS, timeZone);
  const after = offsetAt(wall + DAY_MS, timeZone);
  const candidates = [wall - before, wall - after].filter(
    (instant) => wallClockMs(instant, timeZone) === wall,
  );
  if (candidates.length === 0) return new Date(wall - before);
  return new Date(Math.min(...candidates));
}

/** The calendar date clocks in `timeZone` show at `instant`. */
export function localDateOf(instant: Date, timeZone: string): string {
  return new Date(wallClockMs(instant.getTime(), timeZone)).toISOString().slice(0, 10);
}

/**
 * The local date of `instant` (epoch milliseconds) in `timeZone`, as a day number (days since
 * 1970-01-01): what `localDateOf` answers, for code that counts days rather than prints them.
 */
export function localDayOf(instant: number, timeZone: string): number {
  return Math.floor(wallClockMs(instant, timeZone) / DAY_MS);
}

/** The day number (days since 1970-01-01) of `YYYY-MM-DD`. */
export function dayNumberOf(date: string): number {
  return Math.round(asUtcMs(date, '00:00') / DAY_MS);
}

/**
 * `YYYY-MM-DD` of a day number (days since 1970-01-01), years 0 to 9999. Arithmetic (the
 * proleptic Gregorian calendar in 400-year eras, as in Howard Hinnant's `civil_from_days`):
 * a calendar prints hundreds of dates per answer, and a `Date` with `toISOString` for each
 * cost more than the rest of its work.
 */
export function dateOfDayNumber(day: number): string {
  const shifted = day + 719_468; // days since 0000-03-01: leap days fall at the end of a year
  const era = Math.floor(shifted / 146_097);
  const dayOfEra = shifted - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1460) +
      Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) /
      365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthFromMarch = Math.floor((5 * dayOfYear + 2) / 153);
  const dayOfMonth = dayOfYear - Math.floor((153 * monthFromMarch + 2) / 5) + 1;
  const month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  return `${String(year).padStart(4, '0')}-${month < 10 ? '0' : ''}${month}-${dayOfMonth < 10 ? '0' : ''}${dayOfMonth}`;
}

/** The wall clock in `timeZone` at `instant`: its date `YYYY-MM-DD` and time `HH:MM`. */
export function localDateTime(instant: string | Date, timeZone: string): { date: string; time: string } {
  const wall = new Date(wallClockMs(new Date(instant).getTime(), timeZone)).toISOString();
  return { date: wall.slice(0, 10), time: wall.slice(11, 16) };
}

/**
 * `instant` as the zone's clocks show it, with the offset in force then, to the second:
 * `2031-03-14T19:30:00+01:00` (RFC 3339; `+00:00` in UTC).
 */
export function localIsoDateTime(instant: string | Date, timeZone: string): string {
  const ms = Math.floor(new Date(instant).getTime() / 1000) * 1000;
  const offsetMinutes = Math.round(offsetAt(ms, timeZone) / 60_000);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const hours = String(Math.floor(Math.abs(offsetMinutes) / 60)).padStart(2, '0');
  const minutes = String(Math.abs(offsetMinutes) % 60).padStart(2, '0');
  return `${new Date(ms + offsetMinutes * 60_000).toISOString().slice(0, 19)}${sign}${hours}:${minutes}`;
}

/** Calendar days from `from` to `to` (0 when equal, negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((asUtcMs(to, '00:00') - asUtcMs(from, '00:00')) / DAY_MS);
}

/** `date` plus `days` calendar days. */
export function addDays(date: string, days: number): string {
  return new Date(asUtcMs(date, '00:00') + days * DAY_MS).toISOString().slice(0, 10);
}

/** `date` plus `months` calendar months; a day the month lacks becomes its last (31 Aug + 6 -> 28 Feb). */
export function addMonths(date: string, months: number): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const first = new Date(Date.UTC(year, month - 1 + months, 1));
  const lastDay = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  first.setUTCDate(Math.min(day, lastDay));
  return first.toISOString().slice(0, 10);
}

/** 0 = Sunday ... 6 = Saturday, as `Date#getUTCDay`. */
export function dayOfWeek(date: string): number {
  return new Date(asUtcMs(date, '00:00')).getUTCDay();
}
