import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { book, participants } from '../support/booking-fixtures.js';
import { createDeparture, createTour, detail, expectError, type TestWorkspace } from '../support/fixtures.js';
import { startTestApi, type TestApi } from '../support/harness.js';
import { must, opsPath } from '../support/operations-fixtures.js';

let t: TestApi;
let ws: TestWorkspace;
/** A published tour in New York: 23:30 there is 04:30Z the next day (EST). */
let tour: any;
let adult: any;
let child: any;

const NY = '-05:00';
const calendarPath = (query = '', tourSlug: string = tour.slug, slug = ws.slug) =>
  `/public/${slug}/tours/${tourSlug}/calendar${query}`;
const closed = (date: string) => ({
  date,
  salesStatus: 'CLOSED',
  seatsRemaining: 0,
  departures: 0,
  fromPrice: null,
});

async function departAt(startsAt: string, extra: Record<string, unknown> = {}) {
  return createDeparture(t, ws, tour.id, { startsAt, ...extra });
}

beforeAll(async () => {
  t = await startTestApi({ TRUST_PROXY: 'loopback' });
  ws = await t.createWorkspace('ADMIN');
  tour = await createTour(t, ws, {
    name: 'Harbor Lights',
    isPublic: true,
    capacity: 10,
    timeZone: 'America/New_York',
    ticketTypes: [
      { name: 'Adult', ageBand: 'ADULT', price: 3000 },
      { name: 'Child', ageBand: 'CHILD', price: 1500 },
    ],
  });
  [adult, child] = tour.ticketTypes;
});
afterAll(() => t.close());

describe('getPublicCalendar across January 2031 in America/New_York, with a blackout', () => {
  let month: any[];

  beforeAll(async () => {
    // 31 December, 23:30 local: 04:30Z on 1 January, but not a January day.
    await departAt(`2030-12-31T23:30:00${NY}`);
    await departAt(`2031-01-02T10:00:00${NY}`);
    // 23:30 local on the 2nd is 04:30Z on the 3rd: it belongs to the 2nd.
    await departAt(`2031-01-02T23:30:00${NY}`, { capacity: 5 });
    await departAt(`2031-01-05T10:00:00${NY}`, { prices: [{ ticketTypeId: child.id, price: 900 }] });
    const limited = await departAt(`2031-01-10T10:00:00${NY}`, { capacity: 4 });
    await book(t, ws, limited.id, { paymentMode: 'MANUAL', participants: participants(2) });
    const soldOut = await departAt(`2031-01-12T10:00:00${NY}`, { capacity: 2 });
    await book(t, ws, soldOut.id, { paymentMode: 'MANUAL', participants: participants(2) });
    const cancelledSameDay = await departAt(`2031-01-12T14:00:00${NY}`);
    // The blackout day: both its departures close, the one just after midnight does not.
    await departAt(`2031-01-15T10:00:00${NY}`);
    await departAt(`2031-01-15T23:30:00${NY}`);
    await departAt(`2031-01-16T00:30:00${NY}`, { prices: [{ ticketTypeId: child.id, price: 1000 }] });
    const cancelledAlone = await departAt(`2031-01-20T10:00:00${NY}`);
    for (const id of [cancelledSameDay.id, cancelledAlone.id]) {
      must(
        'cancel',
        await t.request('PATCH', `/workspaces/${ws.workspaceId}/availability/${id}`, {
          token: ws.token,
          body: { status: 'CANCELLED' },
        }),
        200,
      );
    }
    await departAt(`2031-01-31T23:30:00${NY}`, { capacity: 3 });
    must(
      'blackout',
      await t.request('POST', opsPath(ws, '/blackout-dates'), {
        token: ws.token,
        body: { date: '2031-01-15', tourId: tour.id },
      }),
      201,
    );
    const res = await t.request('GET', calendarPath('?from=2031-01-01&to=2031-01-31'));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(Object.keys(res.body)).toEqual(['data']);
    month = res.body.data;
  });

  it('answers one row per local day of the month, in order, each with exactly the five fields', () => {
    expect(month.map((day) => day.date)).toEqual(
      Array.from({ length: 31 }, (_, i) => `2031-01-${String(i + 1).padStart(2, '0')}`),
    );
    for (const day of month) {
      expect(Object.keys(day).sort()).toEqual([
        'date',
        'departures',
        'fromPrice',
        'salesStatus',
        'seatsRemaining',
      ]);
    }
  });

  it('every day as the rules say: local days, best status, seats summed, lowest price, blackout and cancelled days CLOSED', () => {
    const expected = new Map<string, object>([
      // Two departures: 10 + 5 seats, the child seat is the lowest price.
      ['2031-01-02', { salesStatus: 'AVAILABLE', seatsRemaining: 15, departures: 2, fromPrice: 1500 }],
      // The departure's own price for the child seat.
      ['2031-01-05', { salesStatus: 'AVAILABLE', seatsRemaining: 10, departures: 1, fromPrice: 900 }],
      // 2 of 4 left: at most 3 seats.
      ['2031-01-10', { salesStatus: 'LIMITED', seatsRemaining: 2, departures: 1, fromPrice: 1500 }],
      // Sold out (the cancelled departure that day does not count): nothing to pay for.
      ['2031-01-12', { salesStatus: 'SOLD_OUT', seatsRemaining: 0, departures: 1, fromPrice: null }],
      // 00:30 local on the 16th is past the blackout day.
      ['2031-01-16', { salesStatus: 'AVAILABLE', seatsRemaining: 10, departures: 1, fromPrice: 1000 }],
      // 23:30 local on the 31st is 04:30Z on 1 February.
      ['2031-01-31', { salesStatus: 'LIMITED', seatsRemaining: 3, departures: 1, fromPrice: 1500 }],
    ]);
    expect(month).toEqual(
      month.map((day) => ({ ...closed(day.date), ...(expected.get(day.date) ?? {}), date: day.date })),
    );
    expect(month.find((day) => day.date === '2031-01-15')).toEqual(closed('2031-01-15'));
    expect(month.find((day) => day.date === '2031-01-20')).toEqual(closed('2031-01-20'));
    expect(month.find((day) => day.date === '2031-01-01')).toEqual(closed('2031-01-01'));
    expect(adult.price).toBe(3000);
  });

  it('the departure of 31 December at 23:30 local appears on that day, not on 1 January', async () => {
    const res = must('calendar', await t.request('GET', calendarPath('?from=2030-12-31&to=2030-12-31')), 200);
    expect(res).toEqual([
      { date: '2030-12-31', salesStatus: 'AVAILABLE', seatsRemaining: 10, departures: 1, fromPrice: 1500 },
    ]);
  });

  it('reads the same number of times for a month and for a year: no round trip per day', async () => {
    const knex = t.api.database.knex;
    const queriesOf = async (query: string) => {
      let count = 0;
      const onQuery = () => {
        count++;
      };
      knex.on('query', onQuery);
      try {
        must('calendar', await t.request('GET', calendarPath(query)), 200);
      } finally {
        knex.removeListener('query', onQuery);
      }
      return count;
    };
    // Ranges not asked before: the tour (with its workspace and the version), departures, blackouts.
    const monthQueries = await queriesOf('?from=2031-01-01&to=2031-01-30');
    const yearQueries = await queriesOf('?from=2030-06-02&to=2031-06-02');
    expect(monthQueries).toBe(3);
    expect(yearQueries).toBe(monthQueries);
    // Asked again, nothing changed: the version alone, and the kept answer.
    expect(await queriesOf('?from=2031-01-01&to=2031-01-30')).toBe(1);
    expect(await queriesOf('?from=2030-06-02&to=2031-06-02')).toBe(1);
  });

  it('a year in one call: 366 rows, the month inside it unchanged', async () => {
    const year = must(
      'calendar',
      await t.request('GET', calendarPath('?from=2030-06-01&to=2031-06-01')),
      200,
    );
    expect(year).toHaveLength(366);
    const january = year.filter((day: any) => day.date.startsWith('2031-01'));
    expect(january).toEqual(month);
  });
});

describe('a dense tour: 30 000 departures in a year, every bookable day shown', () => {
  it('answers each local day with its own count (Europe/Lisbon, a daylight-saving change each way), in at most 5 statements', async () => {
    const knex = t.api.database.knex;
    const dense = await createTour(t, ws, { isPublic: true, capacity: 12, timeZone: 'Europe/Lisbon' });
    const template = await createDeparture(t, ws, dense.id, { startsAt: '2031-01-01T09:00:00.000Z' });
    // 30 000 copies of the template, one every 1 051 s (82 a day) from tomorrow 00:00Z; every
    // 9th cancelled, every 5th sold out: about 364.9 days of them.
    const columns: string[] = (
      await knex.raw(
        `select column_name from information_schema.columns
          where table_schema = current_schema() and table_name = 'availability' order by ordinal_position`,
      )
    ).rows.map((row: { column_name: string }) => row.column_name);
    const overrides: Record<string, string> = {
      id: `'avl_dense' || lpad(g::text, 13, '0')`,
      starts_at: `date_trunc('day', now()) + interval '1 day' + g * interval '1051 seconds'`,
      status: `case when g % 9 = 0 then 'CANCELLED' else 'SCHEDULED' end`,
      booked_seats: `case when g % 5 = 0 then t.capacity else 0 end`,
    };
    await knex.raw(
      `insert into availability (${columns.map((c) => `"${c}"`).join(', ')})
       select ${columns.map((c) => overrides[c] ?? `t."${c}"`).join(', ')}
       from availability t, generate_series(0, 29999) g where t.id = ?`,
      [template.id],
    );
    await knex('availability').where({ id: template.id }).update({ status: 'CANCELLED' });
    // What PostgreSQL says each local day holds, as the oracle.
    const expected = new Map<string, number>(
      (
        await knex.raw(
          `select to_char((starts_at at time zone 'Europe/Lisbon')::date, 'YYYY-MM-DD') as day, count(*)::int as n
             from availability
            where tour_id = ? and status = 'SCHEDULED' and starts_at > now()
            group by 1`,
          [dense.id],
        )
      ).rows.map((row: { day: string; n: number }) => [row.day, row.n]),
    );
    const from = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const to = new Date(Date.now() + 366 * 86_400_000).toISOString().slice(0, 10);

    let statements = 0;
    const onQuery = () => {
      statements++;
    };
    knex.on('query', onQuery);
    let year: any[];
    try {
      year = must(
        'calendar',
        await t.request('GET', calendarPath(`?from=${from}&to=${to}`, dense.slug)),
        200,
      );
    } finally {
      knex.removeListener('query', onQuery);
    }
    expect(statements).toBeLessThanOrEqual(5);
    expect(year).toHaveLength(366);
    const shown = year.filter((day) => day.departures > 0);
    expect(shown.length).toBeGreaterThanOrEqual(364);
    expect(Object.fromEntries(shown.map((day) => [day.date, day.departures]))).toEqual(
      Object.fromEntries(expected),
    );
    expect(shown.reduce((sum, day) => sum + day.departures, 0)).toBe(30_000 - Math.ceil(30_000 / 9));
    for (const day of shown) {
      expect(day.salesStatus).toBe('AVAILABLE');
      expect(day.seatsRemaining).toBeGreaterThan(0);
    }
  }, 60_000);
});

describe('getPublicCalendar: range and errors', () => {
  it("without from and to: today in the tour's time zone and the 30 days after it", async () => {
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(new Date());
    const res = must('calendar', await t.request('GET', calendarPath()), 200);
    expect(res).toHaveLength(31);
    // A request made at the stroke of local midnight may see the next day.
    expect([
      today,
      new Date(Date.parse(`${today}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10),
    ]).toContain(res[0].date);
  });

  it('more than 366 days is 400 on to (range_too_long)', async () => {
    expectError(
      await t.request('GET', calendarPath('?from=2031-01-01&to=2032-01-02')),
      400,
      'VALIDATION_ERROR',
      [detail('to', 'range_too_long')],
    );
  });

  it('to before from is 400 on to (before_from)', async () => {
    expectError(
      await t.request('GET', calendarPath('?from=2031-01-05&to=2031-01-04')),
      400,
      'VALIDATION_ERROR',
      [detail('to', 'before_from')],
    );
  });

  it.each([
    ['a day that does not exist', '?from=2031-02-30', 'from'],
    ['a date-time', '?to=2031-02-01T00:00:00Z', 'to'],
    ['words', '?from=tomorrow', 'from'],
  ])('%s is 400 on its field', async (_name, query, field) => {
    const res = await t.request('GET', calendarPath(query));
    expectError(res, 400, 'VALIDATION_ERROR');
    expect(res.body.error.details.map((d: any) => d.field)).toEqual([field]);
  });

  it('an unpublished tour, an unknown tour and an unknown workspace are 404 alike', async () => {
    const hidden = await createTour(t, ws, { name: 'Hidden Cove' });
    for (const path of [
      calendarPath('', hidden.slug),
      calendarPath('', 'no-such-tour'),
      calendarPath('', tour.slug, 'no-such-workspace'),
      calendarPath('', tour.id),
    ]) {
      expectError(await t.request('GET', path), 404, 'NOT_FOUND');
    }
  });

  it("another workspace's tour slug under this workspace's slug is 404", async () => {
    const other = await t.createWorkspace('ADMIN');
    const theirs = await createTour(t, other, { name: 'Their Walk', isPublic: true });
    expectError(await t.request('GET', calendarPath('', theirs.slug)), 404, 'NOT_FOUND');
  });

  it('is counted per client IP with the other /public/ calls', async () => {
    const client = { 'X-Forwarded-For': '198.51.100.77' };
    const remaining = async (path: string) =>
      Number((await t.request('GET', path, { headers: client })).headers.get('x-ratelimit-remaining'));
    const first = await remaining(calendarPath());
    expect(await remaining(`/public/${ws.slug}/tours`)).toBe(first - 1);
    expect(await remaining(calendarPath('', 'no-such-tour'))).toBe(first - 2);
    expect(await remaining(calendarPath())).toBe(first - 3);
  });
});

describe('/openapi.json', () => {
  it('documents the calendar: CalendarDay rows, the query, an example, the rules and 404', async () => {
    const doc = await t.request('GET', '/openapi.json');
    const operation = doc.body.paths['/public/{workspaceSlug}/tours/{tourSlug}/calendar'].get;
    expect(operation.operationId).toBe('getPublicCalendar');
    expect(operation.security).toEqual([]);
    expect(
      operation.parameters.filter((p: any) => p.in === 'query').map((p: any) => [p.name, p.schema.format]),
    ).toEqual([
      ['from', 'date'],
      ['to', 'date'],
    ]);
    const content = operation.responses['200'].content['application/json'];
    expect(content.schema.properties.data).toEqual({
      type: 'array',
      items: { $ref: '#/components/schemas/CalendarDay' },
    });
    expect(content.example.data[0]).toHaveProperty('fromPrice');
    expect(doc.body.components.schemas.CalendarDay.required).toEqual([
      'date',
      'salesStatus',
      'seatsRemaining',
      'departures',
      'fromPrice',
    ]);
    expect(operation.description).toMatch(/366/);
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '400', '404', '429']));
  });
});
