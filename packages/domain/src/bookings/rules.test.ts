import { describe, expect, it } from 'vitest';
import type { Departure } from '../catalog/index.js';
import { BOOKING_STATUSES, type BookingStatus } from '../shared/enums.js';
import {
  checkSeats,
  decideStatusChange,
  derivePaymentStatus,
  firstPaymentAmount,
  holdExpiry,
  priceBooking,
} from './rules.js';

const now = new Date('2026-06-01T12:00:00.000Z');
const future = '2026-06-02T09:00:00.000Z';
const past = '2026-06-01T09:00:00.000Z';

describe('decideStatusChange (decisions §2)', () => {
  const allowed: Array<[BookingStatus, BookingStatus, string]> = [
    ['PENDING', 'CONFIRMED', future],
    ['PENDING', 'CANCELLED', future],
    ['PENDING', 'CANCELLED', past],
    ['CONFIRMED', 'CANCELLED', future],
    ['CONFIRMED', 'COMPLETED', past],
    ['CONFIRMED', 'NO_SHOW', past],
  ];
  it.each(allowed)('%s -> %s is allowed (departure at %s)', (from, to, startsAt) => {
    const result = decideStatusChange(from, to, startsAt, now);
    expect(result.ok && result.value.to).toBe(to);
  });

  it('only cancelling releases seats, and each target has its event', () => {
    const events = allowed.map(([from, to, at]) => {
      const r = decideStatusChange(from, to, at, now);
      return r.ok ? [r.value.event, r.value.releasesSeats] : null;
    });
    expect(events).toEqual([
      ['booking.confirmed', false],
      ['booking.cancelled', true],
      ['booking.cancelled', true],
      ['booking.cancelled', true],
      ['booking.completed', false],
      ['booking.no_show', false],
    ]);
  });

  it.each([
    ['CONFIRMED', 'CANCELLED', past, 'departure_started'],
    ['CONFIRMED', 'COMPLETED', future, 'departure_not_started'],
    ['CONFIRMED', 'NO_SHOW', future, 'departure_not_started'],
  ] as const)('%s -> %s with the departure at %s is 422 %s', (from, to, at, issue) => {
    const result = decideStatusChange(from, to, at, now);
    expect(result.ok ? null : result.error).toMatchObject({
      code: 'UNPROCESSABLE',
      details: [{ field: 'status', issue }],
    });
  });

  const refused = BOOKING_STATUSES.flatMap((from) =>
    BOOKING_STATUSES.map((to) => [from, to] as const),
  ).filter(([from, to]) => !allowed.some(([f, t]) => f === from && t === to));
  it.each(refused)('%s -> %s is never allowed', (from, to) => {
    for (const at of [past, future]) {
      const result = decideStatusChange(from, to, at, now);
      if (from === 'CONFIRMED' && ['CANCELLED', 'COMPLETED', 'NO_SHOW'].includes(to)) continue;
      expect(result.ok ? null : result.error.details).toEqual([
        { field: 'status', issue: 'invalid_transition' },
      ]);
    }
  });
});

describe('derivePaymentStatus', () => {
  it.each([
    [10000, 0, 0, 'UNPAID'],
    [10000, 2000, 0, 'PENDING'],
    [10000, 10000, 0, 'PAID'],
    [10000, 10000, 500, 'PARTIALLY_REFUNDED'],
    [10000, 2000, 2000, 'REFUNDED'],
    [0, 0, 0, 'PAID'],
  ] as const)('total %i, paid %i, refunded %i -> %s', (total, paid, refunded, status) => {
    expect(derivePaymentStatus(total, paid, refunded)).toBe(status);
  });
});

describe('priceBooking', () => {
  const tour = { basePrice: 2500, addOns: [{ id: 'lunch', name: 'Lunch', price: 1200 }] };
  it('is base price x participants plus add-ons x quantity', () => {
    const priced = priceBooking(
      tour,
      [tour.basePrice, tour.basePrice, tour.basePrice],
      [{ id: 'lunch', quantity: 2 }],
    );
    expect(priced).toEqual({
      ok: true,
      value: {
        total: 3 * 2500 + 2 * 1200,
        addOns: [{ id: 'lunch', name: 'Lunch', unitPrice: 1200, quantity: 2 }],
      },
    });
  });
  it('refuses an add-on the tour does not sell, naming the item', () => {
    const priced = priceBooking(
      tour,
      [tour.basePrice],
      [
        { id: 'lunch', quantity: 1 },
        { id: 'spa', quantity: 1 },
      ],
    );
    expect(priced.ok ? null : priced.error.details).toEqual([
      { field: 'addOns[1].id', issue: 'unknown_add_on' },
    ]);
  });
});

describe('holds and deposits (decisions §3)', () => {
  it.each([
    ['CHECKOUT', 30 * 60_000],
    ['DEPOSIT', 30 * 60_000],
    ['PAYMENT_LINK', 24 * 60 * 60_000],
  ] as const)('%s holds seats for %i ms', (mode, ms) => {
    expect(holdExpiry(mode, now)?.getTime()).toBe(now.getTime() + ms);
  });
  it('MANUAL holds without expiry', () => {
    expect(holdExpiry('MANUAL', now)).toBeNull();
  });
  it('a deposit is the percentage, rounded, at least one minor unit; other modes pay in full', () => {
    expect(firstPaymentAmount('DEPOSIT', 10050, 20)).toBe(2010);
    expect(firstPaymentAmount('DEPOSIT', 3, 20)).toBe(1);
    expect(firstPaymentAmount('CHECKOUT', 10050, 20)).toBe(10050);
  });
});

describe('checkSeats', () => {
  const departure: Departure = {
    id: 'avl_1',
    tourId: 'tour_1',
    startsAt: future,
    capacity: 10,
    seatsRemaining: 2,
    bookedSeats: 8,
    status: 'SCHEDULED',
    guideId: null,
    driverId: null,
    vehicleId: null,
    bookingCutoffAt: null,
    createdAt: past,
    updatedAt: past,
    prices: [],
    scheduleId: null,
    heldSeats: 0,
    resourceIds: [],
  };
  const issue = (r: ReturnType<typeof checkSeats>) =>
    r.ok ? 'ok' : `${r.error.code} ${r.error.details?.[0]?.issue}`;
  it('takes seats that remain', () => expect(issue(checkSeats(departure, 2, now))).toBe('ok'));
  it('is 409 when fewer remain', () =>
    expect(issue(checkSeats(departure, 3, now))).toBe('CONFLICT insufficient_seats'));
  it('is 400 when more than the departure could ever hold', () =>
    expect(issue(checkSeats(departure, 11, now))).toBe('VALIDATION_ERROR max_capacity_exceeded'));
  it('is 422 on a cancelled, started or closed departure', () => {
    expect(issue(checkSeats({ ...departure, status: 'CANCELLED' }, 1, now))).toBe(
      'UNPROCESSABLE not_bookable',
    );
    expect(issue(checkSeats({ ...departure, startsAt: past }, 1, now))).toBe(
      'UNPROCESSABLE departure_started',
    );
    expect(issue(checkSeats({ ...departure, bookingCutoffAt: past }, 1, now))).toBe(
      'UNPROCESSABLE booking_closed',
    );
  });
});
