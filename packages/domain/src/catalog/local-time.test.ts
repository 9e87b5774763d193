import { describe, expect, it } from 'vitest';
import {
  addMonths,
  dateOfDayNumber,
  dayNumberOf,
  localDateOf,
  localDateTime,
  localDayOf,
  localIsoDateTime,
  localTimeToUtc,
} from './local-time.js';

describe('localTimeToUtc', () => {
  it.each([
    // Europe/Berlin: CET (+1) in winter, CEST (+2) from the last Sunday of March 02:00 to the last Sunday of October 03:00.
    ['Europe/Berlin', 'winter', '2026-01-15', '09:00', '2026-01-15T08:00:00.000Z'],
    ['Europe/Berlin', 'summer', '2026-07-15', '09:00', '2026-07-15T07:00:00.000Z'],
    ['Europe/Berlin', 'the day before spring forward', '2026-03-28', '09:00', '2026-03-28T08:00:00.000Z'],
    [
      'Europe/Berlin',
      'spring-forward day, after the change',
      '2026-03-29',
      '09:00',
      '2026-03-29T07:00:00.000Z',
    ],
    [
      'Europe/Berlin',
      'spring-forward day, before the change',
      '2026-03-29',
      '01:59',
      '2026-03-29T00:59:00.000Z',
    ],
    [
      'Europe/Berlin',
      'the gap: 02:30 does not exist, moves forward to 03:30 CEST',
      '2026-03-29',
      '02:30',
      '2026-03-29T01:30:00.000Z',
    ],
    [
      'Europe/Berlin',
      'the gap: 02:00 does not exist, becomes 03:00 CEST',
      '2026-03-29',
      '02:00',
      '2026-03-29T01:00:00.000Z',
    ],
    ['Europe/Berlin', 'the first minute after the gap', '2026-03-29', '03:00', '2026-03-29T01:00:00.000Z'],
    ['Europe/Berlin', 'fall-back day, before the change', '2026-10-25', '01:30', '2026-10-24T23:30:00.000Z'],
    [
      'Europe/Berlin',
      'the overlap: 02:30 happens twice, the first (CEST) is taken',
      '2026-10-25',
      '02:30',
      '2026-10-25T00:30:00.000Z',
    ],
    [
      'Europe/Berlin',
      'the overlap: 02:00 happens twice, the first (CEST) is taken',
      '2026-10-25',
      '02:00',
      '2026-10-25T00:00:00.000Z',
    ],
    ['Europe/Berlin', 'fall-back day, after the change', '2026-10-25', '09:00', '2026-10-25T08:00:00.000Z'],
    ['Europe/Berlin', 'midnight', '2026-07-01', '00:00', '2026-06-30T22:00:00.000Z'],
    ['Europe/Berlin', 'the last minute of the day', '2026-12-31', '23:59', '2026-12-31T22:59:00.000Z'],
    // America/New_York: EST (-5), EDT (-4) from the second Sunday of March 02:00 to the first Sunday of November 02:00.
    ['America/New_York', 'winter', '2026-01-15', '09:00', '2026-01-15T14:00:00.000Z'],
    ['America/New_York', 'summer', '2026-07-15', '09:00', '2026-07-15T13:00:00.000Z'],
    [
      'America/New_York',
      'spring-forward day, after the change',
      '2026-03-08',
      '09:00',
      '2026-03-08T13:00:00.000Z',
    ],
    [
      'America/New_York',
      'the gap: 02:30 does not exist, moves forward to 03:30 EDT',
      '2026-03-08',
      '02:30',
      '2026-03-08T07:30:00.000Z',
    ],
    [
      'America/New_York',
      'the overlap: 01:30 happens twice, the first (EDT) is taken',
      '2026-11-01',
      '01:30',
      '2026-11-01T05:30:00.000Z',
    ],
    [
      'America/New_York',
      'fall-back day, after the change',
      '2026-11-01',
      '09:00',
      '2026-11-01T14:00:00.000Z',
    ],
    [
      'America/New_York',
      'late evening: the UTC date is the next day',
      '2026-07-15',
      '22:00',
      '2026-07-16T02:00:00.000Z',
    ],
    // Southern hemisphere: daylight saving in January, the gap in October.
    ['Australia/Sydney', 'summer (AEDT, +11)', '2026-01-15', '09:00', '2026-01-14T22:00:00.000Z'],
    [
      'Australia/Sydney',
      'the gap: 02:30 on the first Sunday of October',
      '2026-10-04',
      '02:30',
      '2026-10-03T16:30:00.000Z',
    ],
    // No daylight saving at all.
    ['Asia/Tokyo', 'any day (+9)', '2026-03-29', '09:00', '2026-03-29T00:00:00.000Z'],
    ['Asia/Tokyo', 'another season, the same offset', '2026-10-25', '02:30', '2026-10-24T17:30:00.000Z'],
    ['Asia/Kolkata', 'a half-hour offset (+5:30)', '2026-07-15', '09:00', '2026-07-15T03:30:00.000Z'],
    ['UTC', 'UTC itself', '2026-03-29', '02:30', '2026-03-29T02:30:00.000Z'],
    // Australia/Lord_Howe: daylight saving of half an hour (+10:30, +11 in summer).
    ['Australia/Lord_Howe', 'summer (+11)', '2030-01-15', '09:00', '2030-01-14T22:00:00.000Z'],
    [
      'Australia/Lord_Howe',
      'the gap: 02:15 on the first Sunday of October moves forward to 02:45',
      '2030-10-06',
      '02:15',
      '2030-10-05T15:45:00.000Z',
    ],
    [
      'Australia/Lord_Howe',
      'the overlap: 01:45 on the first Sunday of April happens twice, the first (+11) is taken',
      '2030-04-07',
      '01:45',
      '2030-04-06T14:45:00.000Z',
    ],
    ['Australia/Lord_Howe', 'after falling back (+10:30)', '2030-04-07', '09:00', '2030-04-06T22:30:00.000Z'],
    // Offsets changed for good, once: Samoa skipped 30 December 2011 (-10 to +14),
    // Venezuela moved from -4:30 to -4, Moscow from +4 to +3.
    ['Pacific/Apia', 'the last day at -10', '2011-12-29', '09:00', '2011-12-29T19:00:00.000Z'],
    [
      'Pacific/Apia',
      'a time of the skipped day is read with the offset before it',
      '2011-12-30',
      '09:00',
      '2011-12-30T19:00:00.000Z',
    ],
    ['Pacific/Apia', 'the first day at +14', '2011-12-31', '09:00', '2011-12-30T19:00:00.000Z'],
    [
      'America/Caracas',
      'the gap of 1 May 2016: 02:45 moves forward to 03:15',
      '2016-05-01',
      '02:45',
      '2016-05-01T07:15:00.000Z',
    ],
    ['America/Caracas', 'after it (-4)', '2016-05-01', '09:00', '2016-05-01T13:00:00.000Z'],
    [
      'Europe/Moscow',
      'the overlap of 26 October 2014: 01:30 happens twice, the first (+4) is taken',
      '2014-10-26',
      '01:30',
      '2014-10-25T21:30:00.000Z',
    ],
    ['Europe/Moscow', 'after it (+3)', '2014-10-26', '09:00', '2014-10-26T06:00:00.000Z'],
  ])('%s, %s: %s %s -> %s', (timeZone, _case, date, time, expected) => {
    expect(localTimeToUtc(date, time, timeZone).toISOString()).toBe(expected);
  });
});

describe('localDateOf', () => {
  it.each([
    ['2026-07-15T21:59:59.000Z', 'Europe/Berlin', '2026-07-15'],
    ['2026-07-15T22:00:00.000Z', 'Europe/Berlin', '2026-07-16'],
    ['2026-07-16T03:00:00.000Z', 'America/New_York', '2026-07-15'],
    ['2026-07-15T15:00:00.000Z', 'Asia/Tokyo', '2026-07-16'],
    ['2026-07-15T23:59:59.999Z', 'UTC', '2026-07-15'],
  ])('%s in %s is %s', (instant, timeZone, expected) => {
    expect(localDateOf(new Date(instant), timeZone)).toBe(expected);
  });
});

describe('addMonths', () => {
  it.each([
    ['2026-01-15', 18, '2027-07-15'],
    ['2026-08-31', 18, '2028-02-29'],
    ['2026-08-31', 6, '2027-02-28'],
    ['2026-12-01', 1, '2027-01-01'],
    ['2024-02-29', 12, '2025-02-28'],
  ])('%s + %i months is %s', (date, months, expected) => {
    expect(addMonths(date, months)).toBe(expected);
  });
});

const intlFormats = new Map<string, Intl.DateTimeFormat>();

/** The wall clock straight from Intl, to the second: what the cached offsets must agree with. */
function intlWallClock(instant: number, timeZone: string) {
  const format =
    intlFormats.get(timeZone) ??
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      timeZoneName: 'longOffset',
    });
  intlFormats.set(timeZone, format);
  const parts = Object.fromEntries(
    format.formatToParts(new Date(instant)).map((part) => [part.type, part.value]),
  );
  return {
    date: `${parts.year}-${parts.month}-${parts.day}`,
    time: `${parts.hour}:${parts.minute}`,
    // `GMT+05:45`, `GMT-00:44:30`, `GMT` (UTC).
    offset: parts.timeZoneName === 'GMT' ? '+00:00' : String(parts.timeZoneName).slice(3),
  };
}

/** Offset changes (the first instant of the new offset) and the zone's offsets either side. */
const CHANGES: [string, string, string, string][] = [
  ['Europe/Berlin', '2030-03-31T01:00:00.000Z', '+01:00', '+02:00'],
  ['Europe/Berlin', '2030-10-27T01:00:00.000Z', '+02:00', '+01:00'],
  ['America/New_York', '2030-03-10T07:00:00.000Z', '-05:00', '-04:00'],
  ['America/New_York', '2030-11-03T06:00:00.000Z', '-04:00', '-05:00'],
  ['Australia/Lord_Howe', '2030-04-06T15:00:00.000Z', '+11:00', '+10:30'],
  ['Australia/Lord_Howe', '2030-10-05T15:30:00.000Z', '+10:30', '+11:00'],
  ['Pacific/Apia', '2011-12-30T10:00:00.000Z', '-10:00', '+14:00'],
  ['America/Caracas', '2016-05-01T07:00:00.000Z', '-04:30', '-04:00'],
  ['Europe/Moscow', '2014-10-25T22:00:00.000Z', '+04:00', '+03:00'],
  // Liberia left its mean time of -0:44:30 (an offset with seconds) for UTC.
  ['Africa/Monrovia', '1972-01-07T00:44:30.000Z', '-00:44:30', '+00:00'],
];

/** A fixed shuffle (the offsets are cached per day: the order of questions must not matter). */
function shuffled<T>(items: T[]): T[] {
  const out = [...items];
  let seed = 7;
  for (let i = out.length - 1; i > 0; i--) {
    seed = (seed * 48_271) % 2_147_483_647;
    const j = seed % (i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

describe('local dates and times around offset changes agree with Intl', () => {
  it.each(CHANGES)('%s at %s: %s, then %s', (timeZone, at, before, after) => {
    const change = Date.parse(at);
    expect(intlWallClock(change - 1000, timeZone).offset).toBe(before);
    expect(intlWallClock(change, timeZone).offset).toBe(after);
    const instants = [change - 1000, change - 1, change, change + 1, change + 999, change + 1000];
    // Every 7 minutes and 13 seconds for two days either side, crossing many local midnights.
    for (let t = change - 2 * 86_400_000; t < change + 2 * 86_400_000; t += 433_000) instants.push(t);
    for (const instant of shuffled(instants)) {
      const expected = intlWallClock(instant, timeZone);
      const seen = {
        ...localDateTime(new Date(instant), timeZone),
        day: localDateOf(new Date(instant), timeZone),
      };
      expect(seen, new Date(instant).toISOString()).toEqual({
        date: expected.date,
        time: expected.time,
        day: expected.date,
      });
      expect(dateOfDayNumber(localDayOf(instant, timeZone))).toBe(expected.date);
      if (expected.offset.length === 6) {
        expect(localIsoDateTime(new Date(instant), timeZone)).toBe(
          `${expected.date}T${expected.time}:${new Date(instant).toISOString().slice(17, 19)}${expected.offset}`,
        );
      }
    }
  });
});

describe('day numbers', () => {
  it.each([
    ['1970-01-01', 0],
    ['1969-12-31', -1],
    ['2000-02-29', 11_016],
    ['2030-12-31', 22_279],
    ['1900-03-01', -25_508],
    ['0001-01-01', -719_162],
  ])('%s is day %i', (date, day) => {
    expect(dayNumberOf(date)).toBe(day);
    expect(dateOfDayNumber(day)).toBe(date);
  });

  it('prints every day from 1900 to 2100 as Date does', () => {
    for (let day = dayNumberOf('1900-01-01'); day <= dayNumberOf('2100-12-31'); day++) {
      const expected = new Date(day * 86_400_000).toISOString().slice(0, 10);
      if (dateOfDayNumber(day) !== expected) expect(dateOfDayNumber(day)).toBe(expected);
    }
  });
});
