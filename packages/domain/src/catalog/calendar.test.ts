import { describe, expect, it } from 'vitest';
import type { Availability } from './availability-schemas.js';
import { calendarDays, calendarRange } from './calendar.js';
import { addDays, daysBetween, localDateOf, localDateTime } from './local-time.js';
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
const tour = { timeZone: 'Europe/Berlin', basePrice: 2500, ticketTypes: [adult, child] };

let counter = 0;
const departure = (startsAt: string, overrides: Partial<Availability> = {}): Availability => ({
  id: `avl_${counter++}`,
  tourId: 'tour_1',
  startsAt,
  capacity: 10,
  seatsRemaining: 10,
  bookedSeats: 0,
  status: 'SCHEDULED',
  guideId: null,
  driverId: null,
  vehicleId: null,
  bookingCutoffAt: null,
  createdAt: now.toISOString(),
  updatedAt: now.toISOString(),
  prices: [],
  scheduleId: null,
  heldSeats: 0,
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
        departure('2030-01-15T08:00:00.000Z', { seatsRemaining: 0, bookedSeats: 10 }),
        departure('2030-01-15T10:00:00.000Z', { seatsRemaining: 3, bookedSeats: 7 }),
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
      [departure('2030-01-15T08:00:00.000Z', { seatsRemaining: 0, bookedSeats: 10 })],
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
