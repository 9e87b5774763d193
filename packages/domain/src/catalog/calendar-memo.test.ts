import { describe, expect, it } from 'vitest';
import type { DepartureStatus } from '../shared/enums.js';
import { type CalendarDeparture, calendarValidUntil } from './calendar.js';
import { type CalendarMemoEntry, createCalendarMemo, isCalendarMemoTimely } from './calendar-memo.js';

const NOW = Date.parse('2030-01-10T12:00:00.000Z');
const HOUR = 3_600_000;

const departure = (
  status: DepartureStatus,
  startsAtMs: number,
  bookingCutoffAtMs: number | null = null,
): CalendarDeparture => ({
  count: 1,
  status,
  startsAtMs,
  bookingCutoffAtMs,
  capacity: 10,
  seatsRemaining: 3,
  prices: [],
});

describe('calendarValidUntil: the first instant the clock alone changes the calendar', () => {
  it.each<[string, CalendarDeparture[], number]>([
    ['no departures: never', [], Number.POSITIVE_INFINITY],
    ['an open departure without cutoff: its start', [departure('SCHEDULED', NOW + 5 * HOUR)], NOW + 5 * HOUR],
    [
      'a cutoff before the start: the cutoff',
      [departure('DELAYED', NOW + 5 * HOUR, NOW + 2 * HOUR)],
      NOW + 2 * HOUR,
    ],
    [
      'the earliest of several',
      [departure('SCHEDULED', NOW + 9 * HOUR), departure('SCHEDULED', NOW + 30 * HOUR, NOW + 3 * HOUR)],
      NOW + 3 * HOUR,
    ],
    [
      'a cutoff already passed: closed for good, it never changes',
      [departure('SCHEDULED', NOW + HOUR, NOW - 1), departure('SCHEDULED', NOW + 7 * HOUR)],
      NOW + 7 * HOUR,
    ],
    [
      'started, cancelled or boarding departures never reopen with time',
      [
        departure('SCHEDULED', NOW),
        departure('CANCELLED', NOW + HOUR),
        departure('BOARDING', NOW + HOUR),
        departure('COMPLETED', NOW - HOUR),
      ],
      Number.POSITIVE_INFINITY,
    ],
    ['a start 1 ms ahead: 1 ms', [departure('SCHEDULED', NOW + 1)], NOW + 1],
  ])('%s', (_, departures, expected) => {
    expect(calendarValidUntil(departures, new Date(NOW))).toBe(expected);
  });
});

const entry = (overrides: Partial<CalendarMemoEntry> = {}): CalendarMemoEntry => ({
  version: 'v',
  range: { from: '2030-01-10', to: '2030-02-09' },
  today: '2030-01-10',
  timeZone: 'America/New_York',
  computedAtMs: NOW,
  validUntilMs: NOW + 30 * HOUR,
  days: [],
  ...overrides,
});

describe('isCalendarMemoTimely', () => {
  it.each<[string, Partial<CalendarMemoEntry>, number, boolean]>([
    ['at once', {}, NOW, true],
    ['1 ms before validUntil', { today: null }, NOW + 30 * HOUR - 1, true],
    ['at validUntil', { today: null }, NOW + 30 * HOUR, false],
    ['a clock set back before it was computed', {}, NOW - 1, false],
    // 2030-01-11 00:00 in New York is 05:00Z.
    ['the last ms of the tour’s day', {}, Date.parse('2030-01-11T04:59:59.999Z'), true],
    ['the tour’s next day, for a range from today', {}, Date.parse('2030-01-11T05:00:00.000Z'), false],
    [
      'the next day, for a range from a given date',
      { today: null },
      Date.parse('2030-01-11T05:00:00.000Z'),
      true,
    ],
  ])('%s', (_, overrides, now, expected) => {
    expect(isCalendarMemoTimely(entry(overrides), new Date(now))).toBe(expected);
  });
});

describe('createCalendarMemo', () => {
  it('keeps at most its bound, dropping the entry stored longest ago', () => {
    const memo = createCalendarMemo(2);
    memo.set('a', entry({ version: 'a' }));
    memo.set('b', entry({ version: 'b' }));
    memo.set('a', entry({ version: 'a2' }));
    memo.set('c', entry({ version: 'c' }));
    expect(memo.get('b')).toBeUndefined();
    expect(memo.get('a')?.version).toBe('a2');
    expect(memo.get('c')?.version).toBe('c');
    memo.delete('a');
    expect(memo.get('a')).toBeUndefined();
  });
});
