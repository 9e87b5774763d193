import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createUnitOfWork } from '@travelops/db';
import { type CalendarDay, createCalendarMemo, getPublicCalendar } from '@travelops/domain/catalog';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApi, createHttpServer } from '../../src/compose.js';
import { loadConfig } from '../../src/config.js';
import { book, participants, setStatus } from '../support/booking-fixtures.js';
import {
  createDeparture,
  createTour,
  fromNow,
  setDepartureColumns,
  type TestWorkspace,
} from '../support/fixtures.js';
import { startTestApi, type TestApi, testRedisEnv } from '../support/harness.js';
import { must, opsPath } from '../support/operations-fixtures.js';

const HOUR = 3_600_000;
const localDateOf = (instant: Date, timeZone: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone }).format(instant);
const addDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
const ZONE = 'America/New_York';

let t: TestApi;
let ws: TestWorkspace;
let tour: any;
/** The clock the use case is called with here: moved by the tests, never by the machine. */
let nowMs = Date.now();
const clock = { now: () => new Date(nowMs) };
const memo = createCalendarMemo();
let today: string;
/** The widget's default call, and a year asked explicitly. */
let queries: { from?: string; to?: string }[];

beforeAll(async () => {
  t = await startTestApi();
  ws = await t.createWorkspace('ADMIN');
  tour = await createTour(t, ws, {
    name: 'Memo Walk',
    isPublic: true,
    capacity: 10,
    timeZone: ZONE,
    ticketTypes: [
      { name: 'Adult', ageBand: 'ADULT', price: 3000 },
      { name: 'Child', ageBand: 'CHILD', price: 1500 },
    ],
  });
  today = localDateOf(new Date(nowMs), ZONE);
  queries = [{}, { from: today, to: addDays(today, 365) }];
  for (const days of [2, 3, 5, 8, 13, 21]) await createDeparture(t, ws, tour.id, { startsAt: fromNow(days) });
});
afterAll(() => t?.close());

/** Statements the database ran meanwhile (knex's 'query' event). */
async function counting<T>(work: () => Promise<T>): Promise<{ value: T; statements: number }> {
  const knex = t.api.database.knex;
  let statements = 0;
  const onQuery = () => {
    statements++;
  };
  knex.on('query', onQuery);
  try {
    return { value: await work(), statements };
  } finally {
    knex.removeListener('query', onQuery);
  }
}

/** The calendar through the memo, checked against one computed afresh (no memo) at the same instant. */
async function calendar(query: { from?: string; to?: string }) {
  const uow = createUnitOfWork(t.api.database.knex);
  const kept = await counting(() =>
    getPublicCalendar({ uow, clock, calendarMemo: memo }, ws.slug, tour.slug, query),
  );
  const fresh = await getPublicCalendar({ uow, clock }, ws.slug, tour.slug, query);
  if (!kept.value.ok || !fresh.ok) throw new Error('calendar failed');
  expect(kept.value.value).toEqual(fresh.value);
  return { days: kept.value.value, statements: kept.statements };
}

/** Every query: the memo's answer equals a fresh one; returns the first query's days. */
async function everyQuery(): Promise<CalendarDay[]> {
  const answers = [];
  for (const query of queries) answers.push((await calendar(query)).days);
  return answers[0] as CalendarDay[];
}

async function expectKept(): Promise<void> {
  for (const query of queries) {
    const first = await calendar(query);
    const again = await calendar(query);
    expect(again.statements).toBe(1);
    expect(again.days).toBe(first.days);
  }
}

const seats = (days: CalendarDay[]) => days.reduce((sum, day) => sum + day.seatsRemaining, 0);

describe('the kept calendar equals a fresh one after every kind of change', () => {
  it('asked twice with nothing changed: one statement, the same answer', async () => {
    await expectKept();
  });

  it('a booking takes seats; its cancellation gives them back', async () => {
    const before = await everyQuery();
    const departure = await createDeparture(t, ws, tour.id, { startsAt: fromNow(4) });
    const withDeparture = await everyQuery();
    expect(seats(withDeparture)).toBe(seats(before) + 10);
    const booking = await book(t, ws, departure.id, { paymentMode: 'MANUAL', participants: participants(3) });
    const booked = await everyQuery();
    expect(seats(booked)).toBe(seats(withDeparture) - 3);
    await expectKept();
    must('cancel', await setStatus(t, ws, booking.id, 'CANCELLED'), 200);
    expect(seats(await everyQuery())).toBe(seats(withDeparture));
  });

  it('a departure edited: capacity, prices, status', async () => {
    const departure = await createDeparture(t, ws, tour.id, { startsAt: fromNow(6) });
    const before = await everyQuery();
    const patch = (body: Record<string, unknown>) =>
      t.request('PATCH', `/workspaces/${ws.workspaceId}/availability/${departure.id}`, {
        token: ws.token,
        body,
      });
    must('capacity', await patch({ capacity: 4 }), 200);
    expect(seats(await everyQuery())).toBe(seats(before) - 6);
    must('prices', await patch({ prices: [{ ticketTypeId: tour.ticketTypes[1].id, price: 700 }] }), 200);
    expect((await everyQuery()).some((day) => day.fromPrice === 700)).toBe(true);
    await expectKept();
    await setDepartureColumns(t, departure.id, { status: 'CANCELLED' });
    expect(seats(await everyQuery())).toBe(seats(before) - 10);
  });

  it('a departure deleted and another created: same count, new answer', async () => {
    const doomed = await createDeparture(t, ws, tour.id, { startsAt: fromNow(9), capacity: 10 });
    const before = await everyQuery();
    await t.api.database.knex('availability').where({ id: doomed.id }).del();
    await createDeparture(t, ws, tour.id, { startsAt: fromNow(10), capacity: 10 });
    const after = await everyQuery();
    expect(seats(after)).toBe(seats(before));
    expect(after).not.toEqual(before);
  });

  it("a blackout of the tour's day added, then removed", async () => {
    const startsAt = fromNow(11);
    await createDeparture(t, ws, tour.id, { startsAt });
    const day = localDateOf(new Date(startsAt), ZONE);
    const before = await everyQuery();
    const blackout = must(
      'blackout',
      await t.request('POST', opsPath(ws, '/blackout-dates'), { token: ws.token, body: { date: day } }),
      201,
    );
    expect((await everyQuery()).find((row) => row.date === day)?.salesStatus).toBe('CLOSED');
    await expectKept();
    must(
      'unblack',
      await t.request('DELETE', opsPath(ws, `/blackout-dates/${blackout.id}`), { token: ws.token }),
      200,
    );
    expect(await everyQuery()).toEqual(before);
  });

  it("the tour's ticket prices and time zone edited", async () => {
    const patch = (body: Record<string, unknown>) =>
      t.request('PATCH', `/workspaces/${ws.workspaceId}/tours/${tour.id}`, { token: ws.token, body });
    const [adult, child] = tour.ticketTypes;
    tour = must('prices', await patch({ ticketTypes: [adult, { ...child, price: 1100 }] }), 200);
    expect((await everyQuery()).some((day) => day.fromPrice === 1100)).toBe(true);
    await expectKept();
    tour = must('zone', await patch({ timeZone: 'Asia/Tokyo' }), 200);
    await everyQuery();
    await expectKept();
  });
});

describe('time alone', () => {
  it('kept until a cutoff passes, then computed again', async () => {
    const cutoff = nowMs + 2 * HOUR;
    await createDeparture(t, ws, tour.id, {
      startsAt: fromNow(1),
      bookingCutoffAt: new Date(cutoff).toISOString(),
    });
    const before = await everyQuery();
    nowMs = cutoff - 1;
    await expectKept();
    nowMs = cutoff;
    const after = await everyQuery();
    expect(seats(after)).toBe(seats(before) - 10);
  });
});

describe('two API instances on one database', () => {
  let second: Awaited<ReturnType<typeof createApi>>;
  let server: Server;
  let secondUrl: string;

  beforeAll(async () => {
    second = await createApi(loadConfig({ DATABASE_URL: t.database.url, ...testRedisEnv() }), {
      info: () => {},
      warn: () => {},
      error: () => {},
    });
    server = createHttpServer(second.app, loadConfig({ DATABASE_URL: t.database.url }).timeouts).listen(
      0,
      '127.0.0.1',
    );
    await new Promise((resolve) => server.once('listening', resolve));
    secondUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await second?.close();
  });

  it('one books, the other answers the new seats at once, byte for byte as the first', async () => {
    const path = `/public/${ws.slug}/tours/${tour.slug}/calendar?from=${today}&to=${addDays(today, 365)}`;
    const text = async (base: string) => (await fetch(`${base}${path}`)).text();
    const departure = await createDeparture(t, ws, tour.id, { startsAt: fromNow(15) });
    const kept = await text(secondUrl);
    expect(await text(secondUrl)).toBe(kept);
    await book(t, ws, departure.id, { paymentMode: 'MANUAL', participants: participants(2) });
    const changed = await text(secondUrl);
    expect(changed).not.toBe(kept);
    expect(changed).toBe(await text(t.baseUrl));
    const res = await fetch(`${secondUrl}${path}`);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });
});
