import { describe, expect, it } from 'vitest';
import type { SalesStatus } from './availability-schemas.js';
import {
  type CalendarDay,
  type CalendarDeparture,
  calendarDayStarts,
  calendarDays,
  calendarRange,
} from './calendar.js';
import type { BlackoutDay } from './departure-rules.js';
import { addDays, daysBetween, localDateOf, localDateTime } from './local-time.js';
import { bestSalesStatus, isLimited } from './sales-status.js';
import { fromPrice } from './ticket-types.js';
import type { TicketType } from './tour-schemas.js';

describe('local days', () => {
  it.each([
    ['2030-01-15T22:30:00.000Z', 'Europe/Berlin', '2030-01-15', '23:30'],
    ['2030-01-15T23:30:00.000Z', 'Europe/Berlin', '2030-01-16', '00:30'],
    ['2030-07-15T21:30:00.000Z', 'Europe/Berlin', '2030-07-15', '23:30'], // summer time: +02:00
    ['2030-01-16T04:30:00.000Z', 'America/New_York', '2030-01-15', '23:30'],
    ['2030-01-15T11:00:00.000Z', 'Pacific/Auckland', '2030-01-16', '00:00'],
    ['2030-01-15T23:59:59.999Z', 'UTC', '2030-01-15', '23:59'],
  ])('%s in %s is %s %s', (instant, zone, date, time) => {
    expect(localDateTime(instant, zone)).toEqual({ date, time });
    expect(localDateOf(new Date(instant), zone)).toBe(date);
  });

  it('adds and counts days across months and leap days', () => {
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2030-12-31', 1)).toBe('2031-01-01');
    expect(addDays('2030-03-01', -1)).toBe('2030-02-28');
    expect(daysBetween('2030-01-01', '2031-01-01')).toBe(365);
    expect(daysBetween('2030-01-02', '2030-01-01')).toBe(-1);
  });
});

describe('calendarRange', () => {
  it.each([
    ['nothing: today and the 30 days after it', {}, { from: '2030-01-10', to: '2030-02-09' }],
    ['from alone: 31 days from it', { from: '2030-03-01' }, { from: '2030-03-01', to: '2030-03-31' }],
    ['to alone: from today', { to: '2030-01-12' }, { from: '2030-01-10', to: '2030-01-12' }],
    ['one day', { from: '2030-05-05', to: '2030-05-05' }, { from: '2030-05-05', to: '2030-05-05' }],
    ['366 days', { from: '2030-01-01', to: '2031-01-01' }, { from: '2030-01-01', to: '2031-01-01' }],
    [
      'a past from is allowed',
      { from: '2029-12-01', to: '2029-12-31' },
      { from: '2029-12-01', to: '2029-12-31' },
    ],
  ])('%s', (_name, query, range) => {
    expect(calendarRange(query, '2030-01-10')).toEqual({ ok: true, value: range });
  });

  it.each([
    ['367 days', { from: '2030-01-01', to: '2031-01-02' }, 'range_too_long'],
    ['to before from', { from: '2030-01-05', to: '2030-01-04' }, 'before_from'],
    ['to before today without from', { to: '2030-01-09' }, 'before_from'],
  ])('%s: 400 on to', (_name, query, issue) => {
    expect(calendarRange(query, '2030-01-10')).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION_ERROR', details: [{ field: 'to', issue }] },
    });
  });
});

const now = new Date('2030-01-01T12:00:00.000Z');
const adult: TicketType = {
  id: 'tt_adult',
  name: 'Adult',
  ageBand: 'ADULT',
  price: 3000,
  minAge: null,
  maxAge: null,
  minPerBooking: null,
  maxPerBooking: null,
  requiresAdult: false,
};
const child: TicketType = { ...adult, id: 'tt_child', name: 'Child', ageBand: 'CHILD', price: 1500 };
const tour = { id: 'tour_1', timeZone: 'Europe/Berlin', basePrice: 2500, ticketTypes: [adult, child] };

const departure = (startsAt: string, overrides: Partial<CalendarDeparture> = {}): CalendarDeparture => ({
  count: 1,
  status: 'SCHEDULED',
  startsAtMs: Date.parse(startsAt),
  bookingCutoffAtMs: null,
  capacity: 10,
  seatsRemaining: 10,
  prices: [],
  ...overrides,
});

describe('calendarDays', () => {
  const range = { from: '2030-01-14', to: '2030-01-17' };

  it('one row per local day; a day without a bookable departure is CLOSED with nothing to sell', () => {
    expect(calendarDays(range, [], tour, now, [])).toEqual(
      ['2030-01-14', '2030-01-15', '2030-01-16', '2030-01-17'].map((date) => ({
        date,
        salesStatus: 'CLOSED',
        seatsRemaining: 0,
        departures: 0,
        fromPrice: null,
      })),
    );
  });

  it('a departure counts on its local day: 23:30 in Berlin is the 15th, 00:30 the 16th', () => {
    const days = calendarDays(
      range,
      [departure('2030-01-15T22:30:00.000Z'), departure('2030-01-15T23:30:00.000Z', { seatsRemaining: 2 })],
      tour,
      now,
      [],
    );
    expect(days.map((d) => [d.date, d.salesStatus, d.departures, d.seatsRemaining])).toEqual([
      ['2030-01-14', 'CLOSED', 0, 0],
      ['2030-01-15', 'AVAILABLE', 1, 10],
      ['2030-01-16', 'LIMITED', 1, 2],
      ['2030-01-17', 'CLOSED', 0, 0],
    ]);
  });

  it('the day shows its best departure, sums seats and counts bookable departures, sold-out ones included', () => {
    const [day] = calendarDays(
      { from: '2030-01-15', to: '2030-01-15' },
      [
        departure('2030-01-15T08:00:00.000Z', { seatsRemaining: 0 }),
        departure('2030-01-15T10:00:00.000Z', { seatsRemaining: 3 }),
        departure('2030-01-15T12:00:00.000Z', { status: 'CANCELLED' }),
      ],
      tour,
      now,
      [],
    );
    expect(day).toEqual({
      date: '2030-01-15',
      salesStatus: 'LIMITED',
      seatsRemaining: 3,
      departures: 2,
      fromPrice: 1500,
    });
  });

  it('a day whose departures are all sold out is SOLD_OUT, with no price to pay', () => {
    const [day] = calendarDays(
      { from: '2030-01-15', to: '2030-01-15' },
      [departure('2030-01-15T08:00:00.000Z', { seatsRemaining: 0 })],
      tour,
      now,
      [],
    );
    expect(day).toMatchObject({ salesStatus: 'SOLD_OUT', seatsRemaining: 0, departures: 1, fromPrice: null });
  });

  it("fromPrice is the lowest seat among bookable departures with seats, a departure's override first", () => {
    const [day] = calendarDays(
      { from: '2030-01-15', to: '2030-01-15' },
      [
        departure('2030-01-15T08:00:00.000Z', {
          prices: [{ ticketTypeId: 'tt_child', price: 900 }],
          seatsRemaining: 0,
        }),
        departure('2030-01-15T09:00:00.000Z', { prices: [{ ticketTypeId: 'tt_child', price: 1200 }] }),
        departure('2030-01-15T10:00:00.000Z', {
          prices: [{ ticketTypeId: 'tt_child', price: 100 }],
          status: 'CANCELLED',
        }),
      ],
      tour,
      now,
      [],
    );
    expect(day?.fromPrice).toBe(1200);
  });

  it('a tour without ticket types is priced at basePrice', () => {
    const [day] = calendarDays(
      { from: '2030-01-15', to: '2030-01-15' },
      [departure('2030-01-15T09:00:00.000Z')],
      { ...tour, ticketTypes: [] },
      now,
      [],
    );
    expect(day?.fromPrice).toBe(2500);
  });

  it("a blackout closes its local day only, the tour's own or workspace-wide", () => {
    const departures = [
      departure('2030-01-15T22:30:00.000Z'), // 23:30 on the 15th in Berlin
      departure('2030-01-16T09:00:00.000Z'),
    ];
    const days = calendarDays(range, departures, tour, now, [{ date: '2030-01-15', tourId: 'tour_1' }]);
    expect(days.map((d) => d.salesStatus)).toEqual(['CLOSED', 'CLOSED', 'AVAILABLE', 'CLOSED']);
    const other = calendarDays(range, departures, tour, now, [{ date: '2030-01-15', tourId: 'tour_2' }]);
    expect(other.map((d) => d.salesStatus)).toEqual(['CLOSED', 'AVAILABLE', 'AVAILABLE', 'CLOSED']);
  });

  it('departures outside the range are left out', () => {
    const days = calendarDays(
      range,
      [departure('2030-01-13T09:00:00.000Z'), departure('2030-01-18T09:00:00.000Z')],
      tour,
      now,
      [],
    );
    expect(days.every((d) => d.departures === 0)).toBe(true);
  });
});

const intlFormats = new Map<string, Intl.DateTimeFormat>();

/** The local date from Intl alone, as the calendar found it before it cached offsets. */
function intlLocalDate(instant: number, timeZone: string): string {
  const format =
    intlFormats.get(timeZone) ??
    new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
  intlFormats.set(timeZone, format);
  const parts = Object.fromEntries(
    format.formatToParts(new Date(instant)).map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}`;
}

/** The calendar computed the straightforward way: every rule per departure, days by string. */
function straightforwardCalendar(
  range: { from: string; to: string },
  departures: readonly CalendarDeparture[],
  calendarTour: typeof tour,
  at: Date,
  blackouts: readonly BlackoutDay[],
): CalendarDay[] {
  const byDay = new Map<string, { status: SalesStatus; departure: CalendarDeparture }[]>();
  for (const d of departures) {
    const day = intlLocalDate(d.startsAtMs, calendarTour.timeZone);
    const bookable =
      (d.status === 'SCHEDULED' || d.status === 'DELAYED') &&
      d.startsAtMs > at.getTime() &&
      (d.bookingCutoffAtMs === null || d.bookingCutoffAtMs > at.getTime()) &&
      !blackouts.some((b) => b.date === day && (b.tourId === null || b.tourId === calendarTour.id));
    if (!bookable) continue;
    const status: SalesStatus =
      d.seatsRemaining <= 0 ? 'SOLD_OUT' : isLimited(d.seatsRemaining, d.capacity) ? 'LIMITED' : 'AVAILABLE';
    byDay.set(day, [...(byDay.get(day) ?? []), { status, departure: d }]);
  }
  return Array.from({ length: daysBetween(range.from, range.to) + 1 }, (_, offset) => {
    const date = addDays(range.from, offset);
    const open = byDay.get(date) ?? [];
    const prices = open
      .filter(({ departure: d }) => d.seatsRemaining > 0)
      .map(({ departure: d }) => fromPrice(calendarTour, d.prices));
    return {
      date,
      salesStatus: bestSalesStatus(open.map(({ status }) => status)),
      seatsRemaining: open.reduce((sum, { departure: d }) => sum + Math.max(0, d.seatsRemaining), 0),
      departures: open.length,
      fromPrice: prices.length ? Math.min(...prices) : null,
    };
  });
}

describe('calendarDays across offset changes, with blackouts: the same answer as the straightforward way', () => {
  it.each([
    ['Europe/Berlin', '2030-03-31', 'spring forward'],
    ['Europe/Berlin', '2030-10-27', 'fall back'],
    ['America/New_York', '2030-03-10', 'spring forward'],
    ['America/New_York', '2030-11-03', 'fall back'],
    ['Australia/Lord_Howe', '2030-04-07', 'half an hour back'],
    ['Australia/Lord_Howe', '2030-10-06', 'half an hour forward'],
    ['Pacific/Apia', '2011-12-30', 'a skipped day'],
    ['America/Caracas', '2016-05-01', 'a lasting change of half an hour'],
    ['Europe/Moscow', '2014-10-26', 'a lasting change of an hour'],
    ['UTC', '2030-03-31', 'no change at all'],
  ])('%s around %s (%s)', (timeZone, day, _what) => {
    const zoned = { ...tour, timeZone };
    const range = { from: addDays(day, -3), to: addDays(day, 3) };
    // A start every 37 minutes 13 seconds from two days before the range to two days after it.
    const first = Date.parse(`${addDays(range.from, -2)}T00:00:00.000Z`);
    const departures: CalendarDeparture[] = [];
    for (
      let i = 0, at = first;
      at < Date.parse(`${addDays(range.to, 3)}T00:00:00.000Z`);
      i++, at += 2_233_000
    ) {
      const capacity = 4 + (i % 20);
      departures.push({
        count: 1,
        status:
          i % 11 === 0 ? 'CANCELLED' : i % 13 === 0 ? 'DELAYED' : i % 17 === 0 ? 'BOARDING' : 'SCHEDULED',
        startsAtMs: at,
        bookingCutoffAtMs: i % 5 === 0 ? at - 3 * 3_600_000 : i % 7 === 0 ? at - 30 * 86_400_000 : null,
        capacity,
        seatsRemaining: (i * 7) % (capacity + 1),
        prices:
          i % 4 === 0
            ? [{ ticketTypeId: 'tt_child', price: 1000 + (i % 9) * 50 }]
            : i % 9 === 0
              ? [{ ticketTypeId: 'tt_adult', price: 800 }]
              : [],
      });
    }
    // Now is exactly the start of one departure (not bookable: it has started).
    const at = new Date(first + 100 * 2_233_000);
    const blackouts: BlackoutDay[] = [
      { date: day, tourId: 'tour_1' },
      { date: addDays(day, 2), tourId: null },
      { date: addDays(day, -1), tourId: 'tour_2' },
    ];
    for (const calendarTour of [zoned, { ...zoned, ticketTypes: [] }]) {
      const days = calendarDays(range, departures, calendarTour, at, blackouts);
      expect(days).toEqual(straightforwardCalendar(range, departures, calendarTour, at, blackouts));
      expect(days.filter((d) => d.salesStatus !== 'CLOSED').length).toBeGreaterThan(3);
    }
    // The day starts the store groups by put each start on the local day Intl gives it.
    const starts = calendarDayStarts(range, timeZone);
    expect(starts).toHaveLength(daysBetween(range.from, range.to) + 2);
    for (const { startsAtMs } of departures) {
      const index = starts.findIndex((start, i) => start <= startsAtMs && startsAtMs < (starts[i + 1] ?? -1));
      const expected = daysBetween(range.from, intlLocalDate(startsAtMs, timeZone));
      expect(index).toBe(expected >= 0 && expected < starts.length - 1 ? expected : -1);
    }
  });

  it('a row standing for several departures alike counts each of them', () => {
    const three = departure('2030-01-15T09:00:00.000Z', { count: 3, seatsRemaining: 4 });
    const one = departure('2030-01-15T15:00:00.000Z', { seatsRemaining: 2 });
    const [, day] = calendarDays({ from: '2030-01-14', to: '2030-01-15' }, [three, one], tour, now, []);
    expect(day).toMatchObject({ date: '2030-01-15', departures: 4, seatsRemaining: 14 });
  });
});
