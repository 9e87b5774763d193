import { describe, expect, it } from 'vitest';
import { addMonths, localDateOf, localTimeToUtc } from './local-time.js';

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
