import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createUnitOfWork } from '@travelops/db';
import { createTestDatabase } from '@travelops/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenCreate, workspaceCreate } from '../../src/cli/commands.js';
import { book, bookingInput, setStatus } from '../support/booking-fixtures.js';
import {
  collectPages,
  createDeparture,
  createTour,
  detail,
  expectError,
  ISO_MS,
  newestFirst,
  setDepartureColumns,
  type TestWorkspace,
  UNKNOWN_IDS,
} from '../support/fixtures.js';
import { startTestApi, type TestApi, type TestResponse, testRedisEnv } from '../support/harness.js';
import { freePort, startBuiltServer } from '../support/processes.js';

let t: TestApi;
let ws: TestWorkspace;
beforeAll(async () => {
  t = await startTestApi();
  ws = await t.createWorkspace('ADMIN');
});
afterAll(() => t.close());

const DAY = 86_400_000;

/** The UTC calendar date `days` from today. */
const utcDay = (days: number) => new Date(Date.now() + days * DAY).toISOString().slice(0, 10);
const addDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);
/** 0 = Sunday, as `getUTCDay`. */
const weekday = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay();

/** The first date at least `minDays` from today falling on `day` (0 = Sunday). */
function next(day: number, minDays: number): string {
  let date = utcDay(minDays);
  while (weekday(date) !== day) date = addDays(date, 1);
  return date;
}

/** `date` plus `months` calendar months, clamped to the month's last day. */
function addMonths(date: string, months: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const first = new Date(Date.UTC(y, m - 1 + months, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  first.setUTCDate(Math.min(d, last));
  return first.toISOString().slice(0, 10);
}

/** The `n`th Sunday of a month (n = -1: the last). */
function sunday(year: number, month: number, n: number): string {
  if (n < 0) {
    let date = new Date(Date.UTC(year, month, 0)).toISOString().slice(0, 10);
    while (weekday(date) !== 0) date = addDays(date, -1);
    return date;
  }
  let date = `${year}-${String(month).padStart(2, '0')}-01`;
  while (weekday(date) !== 0) date = addDays(date, 1);
  return addDays(date, 7 * (n - 1));
}

/** The next date (at least two days ahead) a yearly rule gives: always within a year, so within the horizon. */
function nextYearly(rule: (year: number) => string): string {
  const year = new Date().getUTCFullYear();
  const soon = utcDay(2);
  return [rule(year), rule(year + 1)].find((date) => date >= soon) as string;
}

const schedulesPath = (tourId: string, scheduleId?: string, workspace: TestWorkspace = ws) =>
  `/workspaces/${workspace.workspaceId}/tours/${tourId}/schedules${scheduleId ? `/${scheduleId}` : ''}`;

const postSchedule = (tourId: string, body: unknown, headers: Record<string, string> = {}) =>
  t.request('POST', schedulesPath(tourId), { token: ws.token, body, headers });

async function createSchedule(tourId: string, body: Record<string, unknown>) {
  const res = await postSchedule(tourId, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

const patchSchedule = (tourId: string, scheduleId: string, body: unknown) =>
  t.request('PATCH', schedulesPath(tourId, scheduleId), { token: ws.token, body });

const deleteSchedule = (tourId: string, scheduleId: string) =>
  t.request('DELETE', schedulesPath(tourId, scheduleId), { token: ws.token });

/** Every departure of the tour, by start time. */
async function departuresOf(tourId: string): Promise<any[]> {
  const { items } = await collectPages(
    t,
    `/workspaces/${ws.workspaceId}/availability?tourId=${tourId}`,
    ws.token,
    100,
  );
  return items;
}

const startsOf = (departures: any[]) => departures.map((d) => d.startsAt);
const idsOf = (departures: any[]) => departures.map((d) => d.id).sort();

describe('createSchedule', () => {
  it('makes every departure the pattern describes, in one go: MON and WED at 09:00 and 14:30 for two weeks is 8', async () => {
    const tour = await createTour(t, ws, { capacity: 9 });
    const monday = next(1, 7);
    const res = await postSchedule(tour.id, {
      daysOfWeek: ['WED', 'MON'],
      times: ['14:30', '09:00'],
      startsOn: monday,
      endsOn: addDays(monday, 13),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toEqual({
      data: {
        id: expect.stringMatching(/^sch_[0-9A-Za-z]{22}$/),
        tourId: tour.id,
        daysOfWeek: ['MON', 'WED'],
        times: ['09:00', '14:30'],
        startsOn: monday,
        endsOn: addDays(monday, 13),
        capacity: null,
        status: 'ACTIVE',
        cancelledAt: null,
        createdAt: expect.stringMatching(ISO_MS),
        updatedAt: expect.stringMatching(ISO_MS),
        departuresCreated: 8,
      },
    });
    const departures = await departuresOf(tour.id);
    const days = [monday, addDays(monday, 2), addDays(monday, 7), addDays(monday, 9)];
    expect(startsOf(departures)).toEqual(
      days.flatMap((day) => [`${day}T09:00:00.000Z`, `${day}T14:30:00.000Z`]),
    );
    for (const departure of departures) {
      expect(departure).toMatchObject({
        scheduleId: res.body.data.id,
        status: 'SCHEDULED',
        capacity: 9,
        seatsRemaining: 9,
        bookedSeats: 0,
        bookingCutoffAt: null,
      });
    }
  });

  it("a schedule's capacity is each departure's; without one, the tour's", async () => {
    const tour = await createTour(t, ws, { capacity: 9 });
    const day = utcDay(10);
    const made = await createSchedule(tour.id, {
      daysOfWeek: ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'],
      times: ['08:00'],
      startsOn: day,
      endsOn: addDays(day, 2),
      capacity: 4,
    });
    expect(made).toMatchObject({ capacity: 4, departuresCreated: 3 });
    for (const departure of await departuresOf(tour.id)) {
      expect(departure).toMatchObject({ capacity: 4, seatsRemaining: 4, bookedSeats: 0 });
    }
  });

  it('a hand-made departure keeps its start: the schedule skips it', async () => {
    const tour = await createTour(t, ws);
    const day = utcDay(12);
    const byHand = await createDeparture(t, ws, tour.id, { startsAt: `${day}T10:00:00.000Z` });
    const made = await createSchedule(tour.id, {
      daysOfWeek: ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'],
      times: ['10:00'],
      startsOn: day,
      endsOn: addDays(day, 1),
    });
    expect(made.departuresCreated).toBe(1);
    const departures = await departuresOf(tour.id);
    expect(departures.map((d) => [d.startsAt, d.scheduleId])).toEqual([
      [`${day}T10:00:00.000Z`, null],
      [`${addDays(day, 1)}T10:00:00.000Z`, made.id],
    ]);
    expect(departures[0].id).toBe(byHand.id);
  });

  it('only starts after now are made: a schedule that began last week makes none in the past', async () => {
    const tour = await createTour(t, ws);
    const before = Date.now();
    const made = await createSchedule(tour.id, {
      daysOfWeek: ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'],
      times: ['00:00', '06:00', '12:00', '18:00'],
      startsOn: utcDay(-7),
      endsOn: utcDay(1),
    });
    const departures = await departuresOf(tour.id);
    expect(departures.length).toBe(made.departuresCreated);
    expect(departures.length).toBeGreaterThanOrEqual(4);
    expect(departures.length).toBeLessThanOrEqual(8);
    for (const departure of departures) expect(Date.parse(departure.startsAt)).toBeGreaterThan(before);
  });

  describe('daylight saving: 09:00 local stays 09:00 local', () => {
    const daily = ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'];

    it.each([
      [
        'Europe/Berlin, spring forward (last Sunday of March): 08:00Z the day before, 07:00Z on the day; 02:30 does not exist and moves to 03:30 CEST',
        'Europe/Berlin',
        (year: number) => sunday(year, 3, -1),
        ['01:30', '08:00'],
        ['01:30', '07:00'],
        ['02:30', '09:00'],
      ],
      [
        'Europe/Berlin, fall back (last Sunday of October): 07:00Z the day before, 08:00Z on the day; 02:30 happens twice and the first (CEST) is taken',
        'Europe/Berlin',
        (year: number) => sunday(year, 10, -1),
        ['00:30', '07:00'],
        ['00:30', '08:00'],
        ['02:30', '09:00'],
      ],
      [
        'America/New_York, spring forward (second Sunday of March): 14:00Z the day before, 13:00Z on the day; 02:30 moves to 03:30 EDT',
        'America/New_York',
        (year: number) => sunday(year, 3, 2),
        ['07:30', '14:00'],
        ['07:30', '13:00'],
        ['02:30', '09:00'],
      ],
      [
        'America/New_York, fall back (first Sunday of November): 13:00Z the day before, 14:00Z on the day; 01:30 happens twice and the first (EDT) is taken',
        'America/New_York',
        (year: number) => sunday(year, 11, 1),
        ['05:30', '13:00'],
        ['05:30', '14:00'],
        ['01:30', '09:00'],
      ],
    ])('%s', async (_rule, timeZone, rule, dayBefore, onTheDay, times) => {
      const change = nextYearly(rule);
      const tour = await createTour(t, ws, { timeZone });
      const made = await createSchedule(tour.id, {
        daysOfWeek: daily,
        times,
        startsOn: addDays(change, -1),
        endsOn: change,
      });
      expect(made.departuresCreated).toBe(4);
      const before = addDays(change, -1);
      // The UTC date of an early local time can be the day before (New York 01:30 is 05:30Z, same day).
      expect(startsOf(await departuresOf(tour.id))).toEqual([
        `${before}T${dayBefore[0]}:00.000Z`,
        `${before}T${dayBefore[1]}:00.000Z`,
        `${change}T${onTheDay[0]}:00.000Z`,
        `${change}T${onTheDay[1]}:00.000Z`,
      ]);
    });

    it("a zone without daylight saving (Asia/Tokyo, +9): 09:00 is 00:00Z on both sides of Berlin's change", async () => {
      const change = nextYearly((year) => sunday(year, 3, -1));
      const tour = await createTour(t, ws, { timeZone: 'Asia/Tokyo' });
      await createSchedule(tour.id, {
        daysOfWeek: daily,
        times: ['09:00'],
        startsOn: addDays(change, -1),
        endsOn: change,
      });
      expect(startsOf(await departuresOf(tour.id))).toEqual([
        `${addDays(change, -1)}T00:00:00.000Z`,
        `${change}T00:00:00.000Z`,
      ]);
    });
  });

  describe('idempotent generation', () => {
    const body = () => {
      const day = utcDay(20);
      return {
        daysOfWeek: ['MON', 'THU', 'SAT'],
        times: ['10:00', '16:00'],
        startsOn: day,
        endsOn: addDays(day, 20),
      };
    };

    it('the same request twice makes no departure twice: the second schedule answers departuresCreated 0', async () => {
      const tour = await createTour(t, ws);
      const first = await createSchedule(tour.id, body());
      const second = await createSchedule(tour.id, body());
      expect(first.departuresCreated).toBeGreaterThan(5);
      expect(second.departuresCreated).toBe(0);
      const departures = await departuresOf(tour.id);
      expect(departures.length).toBe(first.departuresCreated);
      expect(new Set(startsOf(departures)).size).toBe(departures.length);
      expect(new Set(departures.map((d) => d.scheduleId))).toEqual(new Set([first.id]));
    });

    it('the same request twice at once makes no departure twice', async () => {
      const tour = await createTour(t, ws);
      const answers = await Promise.all([postSchedule(tour.id, body()), postSchedule(tour.id, body())]);
      expect(answers.map((r) => r.status)).toEqual([201, 201]);
      const counts = answers.map((r) => r.body.data.departuresCreated).sort();
      const departures = await departuresOf(tour.id);
      expect(counts).toEqual([0, departures.length]);
      expect(new Set(startsOf(departures)).size).toBe(departures.length);
    });

    it('with an Idempotency-Key the replay answers the first result and creates nothing', async () => {
      const tour = await createTour(t, ws);
      const key = crypto.randomUUID();
      const first = await postSchedule(tour.id, body(), { 'Idempotency-Key': key });
      const replay = await postSchedule(tour.id, body(), { 'Idempotency-Key': key });
      expect(first.status).toBe(201);
      expect(replay.status).toBe(201);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.body).toEqual(first.body);
      const list = await t.request('GET', schedulesPath(tour.id), { token: ws.token });
      expect(list.body.data.map((s: any) => s.id)).toEqual([first.body.data.id]);
      expect((await departuresOf(tour.id)).length).toBe(first.body.data.departuresCreated);
    });
  });

  describe('the 18-month horizon (today in the tour time zone)', () => {
    it('endsOn exactly 18 months after today: 201', async () => {
      const tour = await createTour(t, ws);
      const made = await createSchedule(tour.id, {
        daysOfWeek: ['SUN'],
        times: ['10:00'],
        startsOn: addDays(addMonths(utcDay(0), 18), -14),
        endsOn: addMonths(utcDay(0), 18),
      });
      expect(made.departuresCreated).toBe(2);
    });

    it('endsOn a day later: 422 too_far_ahead on endsOn, and nothing is made', async () => {
      const tour = await createTour(t, ws);
      const res = await postSchedule(tour.id, {
        daysOfWeek: ['SUN'],
        times: ['10:00'],
        startsOn: utcDay(1),
        endsOn: addDays(addMonths(utcDay(0), 18), 1),
      });
      expectError(res, 422, 'UNPROCESSABLE', [detail('endsOn', 'too_far_ahead')]);
      expect(await departuresOf(tour.id)).toEqual([]);
      expect((await t.request('GET', schedulesPath(tour.id), { token: ws.token })).body.data).toEqual([]);
    });
  });

  describe('bounded work: at most 2 000 departures a request, 20 active schedules a tour', () => {
    /** 20 times a day: `days` days from tomorrow make 20 x days departures. */
    const everyDay = (days: number) => ({
      daysOfWeek: ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'],
      times: Array.from({ length: 20 }, (_, i) => `${String(i + 2).padStart(2, '0')}:00`),
      startsOn: utcDay(1),
      endsOn: utcDay(days),
    });

    it('2 000 departures in one request: 201; 2 020: 422 too_many_departures naming the count, nothing made', async () => {
      const tour = await createTour(t, ws);
      const over = await postSchedule(tour.id, everyDay(101));
      expectError(over, 422, 'UNPROCESSABLE', [detail('endsOn', 'too_many_departures')]);
      expect(over.body.error.message).toContain('2 020 departures');
      expect(await departuresOf(tour.id)).toEqual([]);
      expect((await t.request('GET', schedulesPath(tour.id), { token: ws.token })).body.data).toEqual([]);

      const made = await createSchedule(tour.id, everyDay(100));
      expect(made.departuresCreated).toBe(2000);
    });

    it('a PATCH that would make more than 2 000 is refused and changes nothing', async () => {
      const tour = await createTour(t, ws);
      const made = await createSchedule(tour.id, everyDay(10));
      const res = await patchSchedule(tour.id, made.id, { endsOn: utcDay(111) });
      expectError(res, 422, 'UNPROCESSABLE', [detail('endsOn', 'too_many_departures')]);
      expect(res.body.error.message).toContain('2 020 departures');
      expect((await departuresOf(tour.id)).length).toBe(200);
      const stored = await t.request('GET', schedulesPath(tour.id, made.id), { token: ws.token });
      expect(stored.body.data.endsOn).toBe(utcDay(10));
    });

    /** A one-departure schedule at `time` a week from now. */
    const single = (time: string) => ({
      daysOfWeek: ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'],
      times: [time],
      startsOn: utcDay(7),
      endsOn: utcDay(7),
    });
    const timeOf = (i: number) =>
      `${String(Math.floor(i / 4)).padStart(2, '0')}:${String((i % 4) * 15).padStart(2, '0')}`;

    it('20 active schedules: the 21st is 422 too_many_schedules; six sent at once with 19 standing: exactly one lands', async () => {
      const tour = await createTour(t, ws);
      // Neither an ended schedule nor a deleted one counts.
      const ended = await createSchedule(tour.id, {
        ...single('23:45'),
        startsOn: utcDay(-10),
        endsOn: utcDay(-3),
      });
      expect(ended.departuresCreated).toBe(0);
      const deleted = await createSchedule(tour.id, single('23:30'));
      expect((await deleteSchedule(tour.id, deleted.id)).status).toBe(200);
      for (let i = 0; i < 19; i++) await createSchedule(tour.id, single(timeOf(i)));

      const answers = await Promise.all(
        Array.from({ length: 6 }, (_, i) => postSchedule(tour.id, single(timeOf(40 + i)))),
      );
      const statuses = answers.map((r) => r.status).sort();
      expect(statuses).toEqual([201, 422, 422, 422, 422, 422]);
      for (const refused of answers.filter((r) => r.status === 422)) {
        expectError(refused, 422, 'UNPROCESSABLE', [detail('tourId', 'too_many_schedules')]);
      }
      const { items } = await collectPages(t, schedulesPath(tour.id), ws.token, 100);
      expect(items.filter((s: any) => s.status === 'ACTIVE' && s.endsOn >= utcDay(0)).length).toBe(20);
      const open = (await departuresOf(tour.id)).filter((d) => d.status !== 'CANCELLED');
      expect(open.length).toBe(20);

      // Deleting one makes room for one.
      expect((await deleteSchedule(tour.id, items[0].id)).status).toBe(200);
      expect((await postSchedule(tour.id, single('12:15'))).status).toBe(201);
      expectError(await postSchedule(tour.id, single('12:30')), 422, 'UNPROCESSABLE', [
        detail('tourId', 'too_many_schedules'),
      ]);
    });
  });

  describe('bad input: 400 with the exact fields', () => {
    let tourId: string;
    beforeAll(async () => {
      tourId = (await createTour(t, ws)).id;
    });
    const valid = { daysOfWeek: ['MON'], times: ['09:00'], startsOn: utcDay(3), endsOn: utcDay(30) };

    it.each([
      ['a day that is not one', { daysOfWeek: ['MON', 'MONDAY'] }, [detail('daysOfWeek[1]', 'invalid_enum')]],
      ['a repeated day', { daysOfWeek: ['MON', 'TUE', 'MON'] }, [detail('daysOfWeek[2]', 'duplicate')]],
      ['no day', { daysOfWeek: [] }, [detail('daysOfWeek', 'too_short')]],
      [
        'times not HH:MM 24 h',
        { times: ['9:00', '24:00', '12:60', '09:00:00', '09h00'] },
        [0, 1, 2, 3, 4].map((i) => detail(`times[${i}]`, 'invalid_time')),
      ],
      ['a repeated time', { times: ['09:00', '14:30', '09:00'] }, [detail('times[2]', 'duplicate')]],
      ['no time', { times: [] }, [detail('times', 'too_short')]],
      [
        'more than 24 times',
        {
          times: Array.from(
            { length: 25 },
            (_, i) => `${String(Math.floor(i / 2)).padStart(2, '0')}:${i % 2 ? '30' : '00'}`,
          ),
        },
        [detail('times', 'too_long')],
      ],
      ['a day that does not exist', { startsOn: '2027-02-30' }, [detail('startsOn', 'invalid_date')]],
      [
        'a date-time where a date belongs',
        { endsOn: '2027-02-01T00:00:00Z' },
        [detail('endsOn', 'invalid_date')],
      ],
      [
        'endsOn before startsOn',
        { startsOn: utcDay(10), endsOn: utcDay(9) },
        [detail('endsOn', 'before_starts_on')],
      ],
      ['capacity 0', { capacity: 0 }, [detail('capacity', 'out_of_range')]],
      ['capacity not an integer', { capacity: 2.5 }, [detail('capacity', 'not_integer')]],
      ['an unknown field', { timeZone: 'Europe/Paris' }, [detail('timeZone', 'unknown_field')]],
      ['daysOfWeek not an array', { daysOfWeek: 'MON' }, [detail('daysOfWeek', 'invalid_type')]],
    ])('%s', async (_case, change, details) => {
      const res = await postSchedule(tourId, { ...valid, ...change });
      expectError(res, 400, 'VALIDATION_ERROR', details);
    });

    it('every missing field is named', async () => {
      expectError(await postSchedule(tourId, {}), 400, 'VALIDATION_ERROR', [
        detail('daysOfWeek', 'required'),
        detail('times', 'required'),
        detail('startsOn', 'required'),
        detail('endsOn', 'required'),
      ]);
    });

    it('nothing was made by any refused request', async () => {
      expect(await departuresOf(tourId)).toEqual([]);
    });
  });

  it("an unknown tour, or another workspace's: 404", async () => {
    const body = { daysOfWeek: ['MON'], times: ['09:00'], startsOn: utcDay(3), endsOn: utcDay(30) };
    expectError(await postSchedule(UNKNOWN_IDS.tour, body), 404, 'NOT_FOUND');
    const other = await t.createWorkspace('ADMIN');
    const foreign = await createTour(t, other);
    expectError(await postSchedule(foreign.id, body), 404, 'NOT_FOUND');
    expect(await t.api.database.knex('availability').where({ tour_id: foreign.id })).toEqual([]);
  });
});

describe('listSchedules and getSchedule', () => {
  it("lists the tour's schedules newest first, page by page, and no other tour's", async () => {
    const tour = await createTour(t, ws);
    const other = await createTour(t, ws);
    const made = [];
    for (let i = 0; i < 3; i++) {
      made.push(
        await createSchedule(tour.id, {
          daysOfWeek: ['TUE'],
          times: [`1${i}:00`],
          startsOn: utcDay(3),
          endsOn: utcDay(10),
        }),
      );
    }
    await createSchedule(other.id, {
      daysOfWeek: ['TUE'],
      times: ['09:00'],
      startsOn: utcDay(3),
      endsOn: utcDay(10),
    });
    const { items, pages } = await collectPages(t, schedulesPath(tour.id), ws.token, 2);
    expect(items.map((s) => s.id)).toEqual(newestFirst(made).map((s) => s.id));
    expect(pages.map((p) => p.count)).toEqual([2, 1]);
    const { departuresCreated: _count, ...shown } = made[0];
    expect(items.find((s) => s.id === shown.id)).toEqual(shown);
  });

  it("a cursor of one tour's list is refused on another's: 400 on cursor", async () => {
    const tour = await createTour(t, ws);
    const other = await createTour(t, ws);
    for (let i = 0; i < 2; i++) {
      await createSchedule(tour.id, {
        daysOfWeek: ['FRI'],
        times: [`0${i}:00`],
        startsOn: utcDay(3),
        endsOn: utcDay(10),
      });
    }
    const first = await t.request('GET', `${schedulesPath(tour.id)}?limit=1`, { token: ws.token });
    const cursor = first.body.pagination.nextCursor;
    expect(cursor).toEqual(expect.any(String));
    const res = await t.request('GET', `${schedulesPath(other.id)}?cursor=${encodeURIComponent(cursor)}`, {
      token: ws.token,
    });
    expectError(res, 400, 'VALIDATION_ERROR', [detail('cursor', 'invalid_cursor')]);
  });

  it('gets one schedule; under another tour, or unknown, it is 404; the list of an unknown tour is 404', async () => {
    const tour = await createTour(t, ws);
    const other = await createTour(t, ws);
    const made = await createSchedule(tour.id, {
      daysOfWeek: ['SAT'],
      times: ['09:00'],
      startsOn: utcDay(3),
      endsOn: utcDay(10),
    });
    const got = await t.request('GET', schedulesPath(tour.id, made.id), { token: ws.token });
    expect(got.status).toBe(200);
    const { departuresCreated: _count, ...shown } = made;
    expect(got.body.data).toEqual(shown);
    expectError(
      await t.request('GET', schedulesPath(other.id, made.id), { token: ws.token }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await t.request('GET', schedulesPath(tour.id, 'sch_unknown'), { token: ws.token }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await t.request('GET', schedulesPath(UNKNOWN_IDS.tour), { token: ws.token }),
      404,
      'NOT_FOUND',
    );
  });
});

/** A tour and a schedule of MON at 09:00 for three weeks: three departures. */
async function threeMondays(capacity = 6) {
  const tour = await createTour(t, ws, { capacity });
  const monday = next(1, 7);
  const schedule = await createSchedule(tour.id, {
    daysOfWeek: ['MON'],
    times: ['09:00'],
    startsOn: monday,
    endsOn: addDays(monday, 14),
  });
  expect(schedule.departuresCreated).toBe(3);
  const departures = await departuresOf(tour.id);
  return { tour, schedule, monday, departures };
}

describe('updateSchedule', () => {
  it('new times: unbooked departures are removed and the new starts made; a booked one is left, unchanged, and reported', async () => {
    const { tour, schedule, monday, departures } = await threeMondays();
    const [booked, ...free] = departures;
    await book(t, ws, booked.id, { participants: [{ name: 'A' }, { name: 'B' }] });

    const res = await patchSchedule(tour.id, schedule.id, { times: ['10:30'] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({
      id: schedule.id,
      times: ['10:30'],
      daysOfWeek: ['MON'],
      departuresCreated: 3,
      departuresUpdated: 0,
      departuresRemoved: 2,
      departuresLeft: [booked.id],
    });
    const after = await departuresOf(tour.id);
    expect(after.map((d) => [d.startsAt, d.bookedSeats])).toEqual([
      [`${monday}T09:00:00.000Z`, 2],
      [`${monday}T10:30:00.000Z`, 0],
      [`${addDays(monday, 7)}T10:30:00.000Z`, 0],
      [`${addDays(monday, 14)}T10:30:00.000Z`, 0],
    ]);
    expect(after[0]).toEqual({
      ...booked,
      bookedSeats: 2,
      heldSeats: 2,
      seatsRemaining: 4,
      updatedAt: expect.any(String),
    });
    for (const gone of free) expect(after.map((d) => d.id)).not.toContain(gone.id);
    for (const departure of after) expect(departure.scheduleId).toBe(schedule.id);
  });

  it('new capacity: unbooked departures take it; a booked one keeps its own and is reported', async () => {
    const { tour, schedule, departures } = await threeMondays();
    const [, booked] = departures;
    await book(t, ws, booked.id);
    const res = await patchSchedule(tour.id, schedule.id, { capacity: 10 });
    expect(res.body.data).toMatchObject({
      capacity: 10,
      departuresCreated: 0,
      departuresUpdated: 2,
      departuresRemoved: 0,
      departuresLeft: [booked.id],
    });
    const after = await departuresOf(tour.id);
    expect(after.map((d) => [d.id, d.capacity, d.seatsRemaining + d.bookedSeats])).toEqual(
      departures.map((d) => (d.id === booked.id ? [d.id, 6, 6] : [d.id, 10, 10])),
    );
    // Back to the tour's capacity.
    const back = await patchSchedule(tour.id, schedule.id, { capacity: null });
    expect(back.body.data).toMatchObject({ capacity: null, departuresUpdated: 2, departuresLeft: [] });
  });

  it('a departure whose only booking was cancelled still has a booking: it is left', async () => {
    const { tour, schedule, departures } = await threeMondays();
    const [once] = departures;
    const booking = await book(t, ws, once.id);
    expect((await setStatus(t, ws, booking.id, 'CANCELLED')).status).toBe(200);
    const res = await patchSchedule(tour.id, schedule.id, { times: ['11:00'] });
    expect(res.body.data).toMatchObject({ departuresRemoved: 2, departuresLeft: [once.id] });
    expect((await departuresOf(tour.id)).find((d) => d.id === once.id)).toMatchObject({
      startsAt: once.startsAt,
      bookedSeats: 0,
    });
  });

  it('fewer days: departures on the days dropped go, the rest stay as they were', async () => {
    const tour = await createTour(t, ws);
    const monday = next(1, 7);
    const schedule = await createSchedule(tour.id, {
      daysOfWeek: ['MON', 'TUE'],
      times: ['09:00'],
      startsOn: monday,
      endsOn: addDays(monday, 6),
    });
    const [mon, tue] = await departuresOf(tour.id);
    const res = await patchSchedule(tour.id, schedule.id, { daysOfWeek: ['TUE'] });
    expect(res.body.data).toMatchObject({ daysOfWeek: ['TUE'], departuresCreated: 0, departuresRemoved: 1 });
    expect(await departuresOf(tour.id)).toEqual([tue]);
    expect(mon.startsAt).toBe(`${monday}T09:00:00.000Z`);
  });

  it('a departure cancelled by hand stays cancelled: its start is not made again', async () => {
    const { tour, schedule, departures } = await threeMondays();
    const [cancelled] = departures;
    const res = await t.request('PATCH', `/workspaces/${ws.workspaceId}/availability/${cancelled.id}`, {
      token: ws.token,
      body: { status: 'CANCELLED' },
    });
    expect(res.status).toBe(200);
    const patched = await patchSchedule(tour.id, schedule.id, { capacity: 8 });
    expect(patched.body.data).toMatchObject({
      departuresCreated: 0,
      departuresUpdated: 2,
      departuresLeft: [],
    });
    const after = await departuresOf(tour.id);
    expect(after.map((d) => [d.id, d.status, d.capacity])).toEqual(
      departures.map((d) => (d.id === cancelled.id ? [d.id, 'CANCELLED', 6] : [d.id, 'SCHEDULED', 8])),
    );
  });

  it('past departures never change', async () => {
    const { tour, schedule, departures } = await threeMondays();
    const [past] = departures;
    const yesterday = new Date(Date.now() - DAY).toISOString();
    await setDepartureColumns(t, past.id, { starts_at: yesterday });
    const res = await patchSchedule(tour.id, schedule.id, { times: ['12:00'], capacity: 3 });
    expect(res.body.data).toMatchObject({ departuresRemoved: 2, departuresLeft: [] });
    expect((await departuresOf(tour.id)).find((d) => d.id === past.id)).toMatchObject({
      startsAt: yesterday,
      capacity: 6,
      status: 'SCHEDULED',
    });
  });

  it('a longer range makes the new starts only', async () => {
    const { tour, schedule, monday } = await threeMondays();
    const res = await patchSchedule(tour.id, schedule.id, { endsOn: addDays(monday, 28) });
    expect(res.body.data).toMatchObject({
      endsOn: addDays(monday, 28),
      departuresCreated: 2,
      departuresRemoved: 0,
    });
    expect((await departuresOf(tour.id)).length).toBe(5);
  });

  it('bad input: 400 on the exact field; the range is checked against the stored dates', async () => {
    const { tour, schedule, monday } = await threeMondays();
    expectError(
      await patchSchedule(tour.id, schedule.id, { endsOn: addDays(monday, -1) }),
      400,
      'VALIDATION_ERROR',
      [detail('endsOn', 'before_starts_on')],
    );
    expectError(
      await patchSchedule(tour.id, schedule.id, { times: ['09:00', '09:00'] }),
      400,
      'VALIDATION_ERROR',
      [detail('times[1]', 'duplicate')],
    );
    expectError(
      await patchSchedule(tour.id, schedule.id, { daysOfWeek: ['SUNDAY'], tourId: 'x' }),
      400,
      'VALIDATION_ERROR',
      [detail('daysOfWeek[0]', 'invalid_enum'), detail('tourId', 'unknown_field')],
    );
    expectError(
      await patchSchedule(tour.id, schedule.id, { endsOn: addDays(addMonths(utcDay(0), 18), 1) }),
      422,
      'UNPROCESSABLE',
      [detail('endsOn', 'too_far_ahead')],
    );
    expect((await departuresOf(tour.id)).length).toBe(3);
  });

  it('an unknown schedule, or one of another tour: 404; a deleted one: 422 schedule_cancelled', async () => {
    const { tour, schedule } = await threeMondays();
    const other = await createTour(t, ws);
    expectError(await patchSchedule(tour.id, 'sch_unknown', { capacity: 3 }), 404, 'NOT_FOUND');
    expectError(await patchSchedule(other.id, schedule.id, { capacity: 3 }), 404, 'NOT_FOUND');
    expect((await deleteSchedule(tour.id, schedule.id)).status).toBe(200);
    expectError(await patchSchedule(tour.id, schedule.id, { capacity: 3 }), 422, 'UNPROCESSABLE', [
      detail('status', 'schedule_cancelled'),
    ]);
  });
});

describe('deleteSchedule', () => {
  it('cancels the future unbooked departures, leaves booked ones open and reports them; the schedule is CANCELLED', async () => {
    const { tour, schedule, departures } = await threeMondays();
    const [, booked] = departures;
    await book(t, ws, booked.id);
    const res = await deleteSchedule(tour.id, schedule.id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({
      id: schedule.id,
      status: 'CANCELLED',
      cancelledAt: expect.stringMatching(ISO_MS),
      departuresCancelled: 2,
      departuresLeft: [booked.id],
    });
    const after = await departuresOf(tour.id);
    expect(after.map((d) => [d.id, d.status, d.scheduleId])).toEqual(
      departures.map((d) => [d.id, d.id === booked.id ? 'SCHEDULED' : 'CANCELLED', schedule.id]),
    );
    // The departure left open is still sold.
    await book(t, ws, booked.id);
    const got = await t.request('GET', schedulesPath(tour.id, schedule.id), { token: ws.token });
    expect(got.body.data).toMatchObject({ status: 'CANCELLED' });
  });

  it('a cancelled departure of the schedule is no longer bookable', async () => {
    const { tour, schedule, departures } = await threeMondays();
    await deleteSchedule(tour.id, schedule.id);
    const res = await t.request('POST', `/workspaces/${ws.workspaceId}/bookings`, {
      token: ws.token,
      body: bookingInput(departures[0].id),
    });
    expectError(res, 422, 'UNPROCESSABLE');
  });

  it('past departures never change', async () => {
    const { tour, schedule, departures } = await threeMondays();
    const [past] = departures;
    await setDepartureColumns(t, past.id, { starts_at: new Date(Date.now() - DAY) });
    const res = await deleteSchedule(tour.id, schedule.id);
    expect(res.body.data).toMatchObject({ departuresCancelled: 2, departuresLeft: [] });
    expect((await departuresOf(tour.id)).find((d) => d.id === past.id)?.status).toBe('SCHEDULED');
  });

  it('a second delete is 422 schedule_cancelled; an unknown schedule is 404', async () => {
    const { tour, schedule } = await threeMondays();
    expect((await deleteSchedule(tour.id, schedule.id)).status).toBe(200);
    expectError(await deleteSchedule(tour.id, schedule.id), 422, 'UNPROCESSABLE', [
      detail('status', 'schedule_cancelled'),
    ]);
    expectError(await deleteSchedule(tour.id, 'sch_unknown'), 404, 'NOT_FOUND');
  });
});

describe('schedule changes racing with bookings (real concurrent requests, PostgreSQL)', () => {
  /** The booking-side truth: seats held by each departure's non-cancelled bookings. */
  async function heldSeats(departureIds: string[]) {
    const rows = await t.api.database
      .knex('bookings')
      .whereIn('availability_id', departureIds)
      .whereNot({ status: 'CANCELLED' })
      .groupBy('availability_id')
      .select('availability_id', t.api.database.knex.raw('sum(participant_count)::int as seats'));
    return new Map<string, number>(rows.map((r: any) => [r.availability_id, r.seats]));
  }

  /** Seats add up on every departure of the tour, and match what bookings hold. */
  async function expectExactSeats(tourId: string, why: string) {
    const departures = await departuresOf(tourId);
    const held = await heldSeats(departures.map((d) => d.id));
    for (const d of departures) {
      expect(d.seatsRemaining + d.bookedSeats, why).toBe(d.capacity);
      expect(d.bookedSeats, why).toBe(held.get(d.id) ?? 0);
      expect(d.bookedSeats, why).toBeLessThanOrEqual(d.capacity);
    }
    return departures;
  }

  const unhandled = () => t.logs.filter((line) => line.includes('unhandled error') || /deadlock/i.test(line));

  /**
   * 60 one-seat bookings, six for each departure in turn, with `change` sent among them
   * after the first half: the first departures are booked before it, the last ones race it.
   */
  async function race(departureIds: string[], change: () => Promise<TestResponse>) {
    const bookings = Array.from({ length: 60 }, (_, i) => departureIds[Math.floor(i / 6)] as string);
    const send = (availabilityId: string) =>
      t.request('POST', `/workspaces/${ws.workspaceId}/bookings`, {
        token: ws.token,
        body: bookingInput(availabilityId, { paymentMode: 'MANUAL' }),
      });
    const first = bookings.slice(0, 30).map(send);
    const changing = change();
    // The second half leaves a moment later, while the first half and the change are in flight.
    await new Promise((resolve) => setTimeout(resolve, 10));
    const second = bookings.slice(30).map(send);
    const [changed, ...answers] = await Promise.all([changing, ...first, ...second]);
    return {
      changed: changed as TestResponse,
      booked: answers.map((res, i) => ({ res, availabilityId: bookings[i] as string })),
    };
  }

  async function tenDays(capacity: number, time: string) {
    const tour = await createTour(t, ws, { capacity });
    const day = utcDay(5);
    const schedule = await createSchedule(tour.id, {
      daysOfWeek: ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'],
      times: [time],
      startsOn: day,
      endsOn: addDays(day, 9),
    });
    const departures = await departuresOf(tour.id);
    expect(departures.length).toBe(10);
    return { tour, schedule, departures };
  }

  it('PATCH of the times: exactly the departures that got a booking are left, unchanged; no booking lands on a removed one', async () => {
    const { tour, schedule, departures } = await tenDays(4, '09:00');
    const { changed, booked } = await race(
      departures.map((d) => d.id),
      () => patchSchedule(tour.id, schedule.id, { times: ['11:00'] }),
    );
    const why = JSON.stringify(changed.body);
    expect(changed.status, why).toBe(200);
    for (const { res } of booked) expect([201, 409, 422], JSON.stringify(res.body)).toContain(res.status);
    const won = new Set(
      booked.filter(({ res }) => res.status === 201).map(({ availabilityId }) => availabilityId),
    );
    expect(new Set(changed.body.data.departuresLeft), why).toEqual(won);
    expect(changed.body.data.departuresRemoved, why).toBe(10 - won.size);
    expect(changed.body.data.departuresCreated, why).toBe(10);

    const after = await expectExactSeats(tour.id, why);
    const original = new Map(departures.map((d) => [d.id, d]));
    for (const d of after) {
      if (original.has(d.id)) {
        // A departure that survived is one that got a booking, exactly as it was.
        expect(won.has(d.id), why).toBe(true);
        expect(d, why).toMatchObject({
          startsAt: original.get(d.id).startsAt,
          capacity: 4,
          status: 'SCHEDULED',
        });
      } else {
        expect(d, why).toMatchObject({ bookedSeats: 0, scheduleId: schedule.id });
        expect(d.startsAt.slice(11), why).toBe('11:00:00.000Z');
      }
    }
    expect(unhandled()).toEqual([]);
  });

  it('PATCH of the capacity: a departure booked before the change keeps its capacity; seats stay exact', async () => {
    const { tour, schedule, departures } = await tenDays(3, '13:00');
    const { changed, booked } = await race(
      departures.map((d) => d.id),
      () => patchSchedule(tour.id, schedule.id, { capacity: 7 }),
    );
    const why = JSON.stringify(changed.body);
    expect(changed.status, why).toBe(200);
    for (const { res } of booked) expect([201, 409], JSON.stringify(res.body)).toContain(res.status);
    const left = new Set<string>(changed.body.data.departuresLeft);
    expect(changed.body.data.departuresUpdated + left.size, why).toBe(10);
    const after = await expectExactSeats(tour.id, why);
    for (const d of after) {
      expect(d.capacity, why).toBe(left.has(d.id) ? 3 : 7);
      if (left.has(d.id)) expect(d.bookedSeats, why).toBeGreaterThan(0);
    }
    // Every seat a departure could sell was sold or refused: 201s match the seats booked.
    const won = booked.filter(({ res }) => res.status === 201).length;
    expect(
      after.reduce((sum, d) => sum + d.bookedSeats, 0),
      why,
    ).toBe(won);
    expect(unhandled()).toEqual([]);
  });

  it('DELETE: exactly the departures that got a booking stay open; every other one is CANCELLED and none of those holds a seat', async () => {
    const { tour, schedule, departures } = await tenDays(4, '15:00');
    const { changed, booked } = await race(
      departures.map((d) => d.id),
      () => deleteSchedule(tour.id, schedule.id),
    );
    const why = JSON.stringify(changed.body);
    expect(changed.status, why).toBe(200);
    for (const { res } of booked) expect([201, 409, 422], JSON.stringify(res.body)).toContain(res.status);
    const won = new Set(
      booked.filter(({ res }) => res.status === 201).map(({ availabilityId }) => availabilityId),
    );
    expect(new Set(changed.body.data.departuresLeft), why).toEqual(won);
    expect(changed.body.data.departuresCancelled, why).toBe(10 - won.size);
    const after = await expectExactSeats(tour.id, why);
    expect(idsOf(after)).toEqual(idsOf(departures));
    for (const d of after) {
      expect(d.status, why).toBe(won.has(d.id) ? 'SCHEDULED' : 'CANCELLED');
      if (!won.has(d.id)) expect(d.bookedSeats, why).toBe(0);
    }
    expect(unhandled()).toEqual([]);
  });
});

describe('schedule changes racing with bookings across two API processes, random interleavings', () => {
  /** mulberry32: a failing interleaving replays from its seed (SCHEDULE_RACE_SEED). */
  function seededRandom(seed: number) {
    let state = seed >>> 0;
    return () => {
      state = (state + 0x6d2b79f5) >>> 0;
      let x = state;
      x = Math.imul(x ^ (x >>> 15), x | 1);
      x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
      return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
    };
  }

  it('PATCH then DELETE, each among 56 bookings of 1-2 seats split over both processes: booked departures are never changed, seats stay exact', async () => {
    const given = Number(process.env.SCHEDULE_RACE_SEED);
    const seed = Number.isInteger(given) && given > 0 ? given : Math.floor(Math.random() * 2 ** 31) + 1;
    const random = seededRandom(seed);
    const db = await createTestDatabase();
    const cwd = await mkdtemp(join(tmpdir(), 'travelops-schedules-'));
    const servers: Awaited<ReturnType<typeof startBuiltServer>>[] = [];
    try {
      const deps = { uow: createUnitOfWork(db.database.knex), clock: { now: () => new Date() } };
      const workspace = await workspaceCreate(deps, { slug: 'schedule-race', name: 'Schedule race' });
      if (!workspace.ok) throw new Error(workspace.error.message);
      const { workspaceId } = workspace.value;
      const token = await tokenCreate(deps, { workspace: workspaceId, role: 'ADMIN', name: 'race' });
      if (!token.ok) throw new Error(token.error.message);
      const redisEnv = testRedisEnv();
      const ports = [await freePort(), await freePort()];
      for (const port of ports) {
        servers.push(await startBuiltServer({ PORT: String(port), DATABASE_URL: db.url, ...redisEnv }, cwd));
      }
      const call = async (method: string, path: string, body?: unknown): Promise<TestResponse> => {
        const port = ports[Math.floor(random() * ports.length)] as number;
        const res = await fetch(`http://127.0.0.1:${port}/workspaces/${workspaceId}${path}`, {
          method,
          headers: { Authorization: `Bearer ${token.value.token}`, 'Content-Type': 'application/json' },
          ...(body !== undefined && { body: JSON.stringify(body) }),
        });
        return { status: res.status, headers: res.headers, body: (await res.json()) as any };
      };
      const knex = db.database.knex;
      const tour = await call('POST', '/tours', {
        name: 'Race',
        durationMinutes: 60,
        basePrice: 1000,
        currency: 'EUR',
        capacity: 4,
        timeZone: 'Europe/Berlin',
      });
      expect(tour.status, JSON.stringify(tour.body)).toBe(201);
      const tourId: string = tour.body.data.id;
      const day = utcDay(5);
      const made = await call('POST', `/tours/${tourId}/schedules`, {
        daysOfWeek: ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'],
        times: ['09:00'],
        startsOn: day,
        endsOn: addDays(day, 7),
      });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      const scheduleId = made.body.data.id;
      const why = `seed ${seed} (replay with SCHEDULE_RACE_SEED=${seed})`;

      /** Departures and the seats their non-cancelled bookings hold, straight from the database. */
      const ledger = async () => {
        const rows = await knex('availability').where({ tour_id: tourId }).orderBy('id');
        const held = new Map<string, number>(
          (
            await knex('bookings')
              .where({ tour_id: tourId })
              .whereNot({ status: 'CANCELLED' })
              .groupBy('availability_id')
              .select('availability_id', knex.raw('sum(participant_count)::int as seats'))
          ).map((r: any) => [r.availability_id, r.seats]),
        );
        for (const row of rows) {
          expect(row.booked_seats, why).toBe(held.get(row.id) ?? 0);
          expect(row.booked_seats, why).toBeLessThanOrEqual(row.capacity);
        }
        return rows;
      };

      /** 56 bookings of random departures and sizes, and `change` at a random place among them. */
      const wave = async (change: () => Promise<TestResponse>) => {
        const targets = (await ledger()).filter(
          (r) => r.schedule_id === scheduleId && r.status === 'SCHEDULED',
        );
        const before = new Map(targets.map((r) => [r.id, r]));
        const at = Math.floor(random() * 40) + 8;
        const plan = Array.from({ length: 56 }, () => ({
          availabilityId: targets[Math.floor(random() * targets.length)].id as string,
          size: 1 + Math.floor(random() * 2),
        }));
        const sends = plan.map(
          ({ availabilityId, size }) =>
            () =>
              call('POST', '/bookings', {
                ...bookingInput(availabilityId, { paymentMode: 'MANUAL' }),
                participants: Array.from({ length: size }, (_, i) => ({ name: `Guest ${i + 1}` })),
              }),
        );
        const answers = await Promise.all([
          ...sends.slice(0, at).map((send) => send()),
          change(),
          ...sends.slice(at).map((send) => send()),
        ]);
        const [changed] = answers.splice(at, 1) as [TestResponse];
        expect(changed.status, `${why}: ${JSON.stringify(changed.body)}`).toBe(200);
        for (const res of answers)
          expect([201, 409, 422], `${why}: ${JSON.stringify(res.body)}`).toContain(res.status);
        // Booked: in an earlier wave, or now before the change took its departures.
        const won = new Set([
          ...targets.filter((r) => r.booked_seats > 0).map((r) => r.id as string),
          ...plan.filter((_, i) => answers[i]?.status === 201).map((p) => p.availabilityId),
        ]);
        expect(new Set(changed.body.data.departuresLeft), why).toEqual(won);
        const after = new Map((await ledger()).map((r) => [r.id, r]));
        for (const id of won) {
          // Booked: exactly as before the change (start, capacity, status).
          const original = before.get(id);
          expect(after.get(id), why).toMatchObject({
            starts_at: original.starts_at,
            capacity: original.capacity,
            status: 'SCHEDULED',
          });
        }
        return { changed, won, before, after };
      };

      const moved = await wave(() =>
        call('PATCH', `/tours/${tourId}/schedules/${scheduleId}`, { times: ['10:00'] }),
      );
      for (const id of moved.before.keys()) {
        if (!moved.won.has(id)) expect(moved.after.has(id), why).toBe(false);
      }
      const cancelled = await wave(() => call('DELETE', `/tours/${tourId}/schedules/${scheduleId}`));
      for (const id of cancelled.before.keys()) {
        const row = cancelled.after.get(id);
        expect(row.status, why).toBe(cancelled.won.has(id) ? 'SCHEDULED' : 'CANCELLED');
        if (!cancelled.won.has(id)) expect(row.booked_seats, why).toBe(0);
      }
    } finally {
      const codes = await Promise.all(servers.map((server) => server.stop()));
      await db.drop();
      await rm(cwd, { recursive: true, force: true });
      expect(codes, JSON.stringify(servers.map((s) => s.output().stderr))).toEqual(servers.map(() => 0));
    }
  });
});
