import type { CalendarDay, CalendarRange } from './calendar.js';
import { localDateOf } from './local-time.js';

/**
 * One computed calendar, kept while what it was computed from is unchanged: `version` names
 * the state of every row it read (the store's, compared on each request, never trusted by age)
 * and `validUntilMs` (`calendarValidUntil`) the first instant the clock alone could change it.
 */
export interface CalendarMemoEntry {
  version: string;
  range: CalendarRange;
  /** The tour's local date the default range was taken from; null when `from` was given. */
  today: string | null;
  timeZone: string;
  /** When it was computed: a clock set back before it does not reuse it. */
  computedAtMs: number;
  validUntilMs: number;
  /** Shared by every answer from this entry: callers must not change it. */
  days: CalendarDay[];
}

/** Computed calendars by request (slugs and query as asked), at most `maxEntries`. */
export interface CalendarMemo {
  get(key: string): CalendarMemoEntry | undefined;
  set(key: string, entry: CalendarMemoEntry): void;
  delete(key: string): void;
}

/**
 * A bounded map: the entry stored longest ago goes first. No timers: an old entry just waits.
 * A year's calendar is about 36 kB of JSON plus its rows: 200 entries stay under about 15 MB.
 */
export function createCalendarMemo(maxEntries = 200): CalendarMemo {
  const entries = new Map<string, CalendarMemoEntry>();
  return {
    get: (key) => entries.get(key),
    delete: (key) => void entries.delete(key),
    set(key, entry) {
      entries.delete(key);
      entries.set(key, entry);
      if (entries.size > maxEntries) {
        const oldest = entries.keys().next();
        if (!oldest.done) entries.delete(oldest.value);
      }
    },
  };
}

export function calendarMemoKey(
  workspaceSlug: string,
  tourSlug: string,
  query: { from?: string; to?: string },
): string {
  return [workspaceSlug, tourSlug, query.from ?? '', query.to ?? ''].join(' ');
}

/**
 * Whether the clock still allows the entry at `now`: before `validUntilMs`, and, for a range
 * taken from today, on the same local day of the tour (compared as dates, so a midnight a
 * daylight-saving change skips or repeats needs no instant of its own).
 */
export function isCalendarMemoTimely(entry: CalendarMemoEntry, now: Date): boolean {
  const nowMs = now.getTime();
  if (nowMs < entry.computedAtMs || nowMs >= entry.validUntilMs) return false;
  return entry.today === null || localDateOf(now, entry.timeZone) === entry.today;
}
