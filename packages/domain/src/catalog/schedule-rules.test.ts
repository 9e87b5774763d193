import { describe, expect, it } from 'vitest';
import type { ScheduleDeparture } from './ports.js';
import {
  checkScheduleRange,
  planScheduleCancel,
  planScheduleChange,
  type SchedulePattern,
  scheduleStarts,
} from './schedule-rules.js';

const iso = (dates: Date[]) => dates.map((d) => d.toISOString());

describe('scheduleStarts', () => {
  const now = new Date('2026-01-01T00:00:00.000Z');

  it.each<[string, SchedulePattern, string, string[]]>([
    [
      'every listed weekday and time, in time order (Mon 2026-03-02 .. Sun 2026-03-08, UTC)',
      { daysOfWeek: ['SUN', 'MON'], times: ['14:30', '09:00'], startsOn: '2026-03-02', endsOn: '2026-03-08' },
      'UTC',
      [
        '2026-03-02T09:00:00.000Z',
        '2026-03-02T14:30:00.000Z',
        '2026-03-08T09:00:00.000Z',
        '2026-03-08T14:30:00.000Z',
      ],
    ],
    [
      'startsOn and endsOn are both included',
      { daysOfWeek: ['WED'], times: ['10:00'], startsOn: '2026-03-04', endsOn: '2026-03-11' },
      'UTC',
      ['2026-03-04T10:00:00.000Z', '2026-03-11T10:00:00.000Z'],
    ],
    [
      'Europe/Berlin across spring forward: 09:00 is 08:00Z before, 07:00Z after',
      { daysOfWeek: ['SAT', 'SUN'], times: ['09:00'], startsOn: '2026-03-28', endsOn: '2026-03-29' },
      'Europe/Berlin',
      ['2026-03-28T08:00:00.000Z', '2026-03-29T07:00:00.000Z'],
    ],
    [
      'Europe/Berlin across fall back: 09:00 is 07:00Z before, 08:00Z after',
      { daysOfWeek: ['SAT', 'SUN'], times: ['09:00'], startsOn: '2026-10-24', endsOn: '2026-10-25' },
      'Europe/Berlin',
      ['2026-10-24T07:00:00.000Z', '2026-10-25T08:00:00.000Z'],
    ],
    [
      'America/New_York across spring forward: 09:00 is 14:00Z before, 13:00Z after',
      { daysOfWeek: ['SAT', 'SUN'], times: ['09:00'], startsOn: '2026-03-07', endsOn: '2026-03-08' },
      'America/New_York',
      ['2026-03-07T14:00:00.000Z', '2026-03-08T13:00:00.000Z'],
    ],
    [
      'the day of the gap: 02:30 moves to 03:30 and meets the 03:30 start, which is made once',
      {
        daysOfWeek: ['SUN'],
        times: ['03:30', '02:30', '02:45'],
        startsOn: '2026-03-29',
        endsOn: '2026-03-29',
      },
      'Europe/Berlin',
      ['2026-03-29T01:30:00.000Z', '2026-03-29T01:45:00.000Z'],
    ],
    [
      'a day of the week the range does not contain makes nothing',
      { daysOfWeek: ['FRI'], times: ['09:00'], startsOn: '2026-03-02', endsOn: '2026-03-05' },
      'UTC',
      [],
    ],
  ])('%s', (_rule, pattern, timeZone, expected) => {
    expect(iso(scheduleStarts(pattern, timeZone, now))).toEqual(expected);
  });

  it('starts at or before now are not made; days before today are not visited', () => {
    const pattern: SchedulePattern = {
      daysOfWeek: ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'],
      times: ['09:00', '18:00'],
      startsOn: '2000-01-01',
      endsOn: '2026-03-03',
    };
    expect(iso(scheduleStarts(pattern, 'UTC', new Date('2026-03-02T09:00:00.000Z')))).toEqual([
      '2026-03-02T18:00:00.000Z',
      '2026-03-03T09:00:00.000Z',
      '2026-03-03T18:00:00.000Z',
    ]);
  });

  it("today is the zone's today: at 23:30Z on 2 March it is already 3 March in Tokyo", () => {
    const pattern: SchedulePattern = {
      daysOfWeek: ['TUE'],
      times: ['09:00'],
      startsOn: '2026-03-03',
      endsOn: '2026-03-03',
    };
    expect(iso(scheduleStarts(pattern, 'Asia/Tokyo', new Date('2026-03-02T23:30:00.000Z')))).toEqual([
      '2026-03-03T00:00:00.000Z',
    ]);
  });
});

describe('checkScheduleRange', () => {
  const now = new Date('2026-01-15T12:00:00.000Z');

  it.each([
    ['a range within the horizon', '2026-02-01', '2027-07-15', 'UTC', null],
    ['one day: startsOn equals endsOn', '2026-02-01', '2026-02-01', 'UTC', null],
    ['endsOn exactly 18 months after today', '2026-01-15', '2027-07-15', 'UTC', null],
    [
      'endsOn a day past 18 months: 422 too_far_ahead',
      '2026-01-15',
      '2027-07-16',
      'UTC',
      ['UNPROCESSABLE', 'too_far_ahead'],
    ],
    [
      'startsOn after endsOn: 400 before_starts_on',
      '2026-03-01',
      '2026-02-28',
      'UTC',
      ['VALIDATION_ERROR', 'before_starts_on'],
    ],
    // 12:00Z on 15 January is already 16 January in Kiritimati (+14): its horizon is a day later.
    ["today is the tour zone's today", '2026-01-16', '2027-07-16', 'Pacific/Kiritimati', null],
  ])('%s', (_rule, startsOn, endsOn, timeZone, expected) => {
    const result = checkScheduleRange({ startsOn, endsOn }, now, timeZone);
    if (expected === null) {
      expect(result.ok).toBe(true);
      return;
    }
    expect(result).toMatchObject({
      ok: false,
      error: { code: expected[0], details: [{ field: 'endsOn', issue: expected[1] }] },
    });
  });
});

const departure = (
  id: string,
  startsAt: string,
  extra: Partial<ScheduleDeparture['departure']> = {},
  booked = false,
): ScheduleDeparture => ({
  departure: { id, startsAt, capacity: 10, status: 'SCHEDULED', ...extra },
  booked,
});

describe('planScheduleChange', () => {
  const at = (hour: number) => `2026-06-01T${String(hour).padStart(2, '0')}:00:00.000Z`;

  it.each<[string, ScheduleDeparture[], number[], number, Record<string, unknown>]>([
    [
      'nothing to do when departures match the pattern',
      [departure('a', at(9))],
      [9],
      10,
      { create: [], resize: [], remove: [], left: [] },
    ],
    [
      'a start the schedule lacks is created',
      [departure('a', at(9))],
      [9, 14],
      10,
      { create: [at(14)], resize: [], remove: [], left: [] },
    ],
    [
      'an unbooked departure off the pattern is removed',
      [departure('a', at(9))],
      [14],
      10,
      { create: [at(14)], remove: ['a'], left: [] },
    ],
    [
      'a booked departure off the pattern is left, and the new start is still made',
      [departure('a', at(9), {}, true)],
      [14],
      10,
      { create: [at(14)], remove: [], left: ['a'] },
    ],
    [
      'an unbooked departure at a start of the pattern takes the new capacity',
      [departure('a', at(9))],
      [9],
      16,
      { create: [], resize: ['a'], left: [] },
    ],
    [
      'a booked departure keeps its capacity and is reported',
      [departure('a', at(9), {}, true)],
      [9],
      16,
      { create: [], resize: [], left: ['a'] },
    ],
    [
      'a booked departure that matches the pattern is not reported',
      [departure('a', at(9), {}, true)],
      [9],
      10,
      { left: [] },
    ],
    [
      'a DELAYED departure follows the pattern like a SCHEDULED one',
      [departure('a', at(9), { status: 'DELAYED' })],
      [14],
      10,
      { remove: ['a'], left: [] },
    ],
    [
      "a BOARDING departure is no longer the schedule's to change",
      [departure('a', at(9), { status: 'BOARDING' })],
      [14],
      10,
      { remove: [], left: ['a'] },
    ],
  ])('%s', (_rule, current, wantedHours, capacity, expected) => {
    const wanted = wantedHours.map((hour) => new Date(at(hour)));
    const plan = planScheduleChange(current, wanted, capacity);
    expect({ ...plan, create: iso(plan.create) }).toMatchObject(expected);
  });
});

describe('planScheduleCancel', () => {
  it.each<[string, ScheduleDeparture, 'cancel' | 'left']>([
    ['an unbooked SCHEDULED departure is cancelled', departure('a', '2026-06-01T09:00:00.000Z'), 'cancel'],
    [
      'an unbooked DELAYED departure is cancelled',
      departure('a', '2026-06-01T09:00:00.000Z', { status: 'DELAYED' }),
      'cancel',
    ],
    ['a booked departure is left', departure('a', '2026-06-01T09:00:00.000Z', {}, true), 'left'],
    [
      'a DEPARTED departure cannot be cancelled and is left',
      departure('a', '2026-06-01T09:00:00.000Z', { status: 'DEPARTED' }),
      'left',
    ],
  ])('%s', (_rule, current, outcome) => {
    const plan = planScheduleCancel([current]);
    expect(plan[outcome]).toEqual(['a']);
  });
});
