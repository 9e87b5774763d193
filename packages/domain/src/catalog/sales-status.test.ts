import { describe, expect, it } from 'vitest';
import type { Departure, SalesStatus } from './availability-schemas.js';
import { bestSalesStatus, isLimited, salesStatusOf } from './sales-status.js';

const now = new Date('2030-01-01T12:00:00.000Z');

const departure = (overrides: Partial<Departure> = {}): Departure => ({
  id: 'avl_1',
  tourId: 'tour_1',
  startsAt: '2030-01-10T09:00:00.000Z',
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
  resourceIds: [],
  ...overrides,
});

describe('isLimited: at most 3 seats or 20 % of the capacity left, whichever is more', () => {
  it.each([
    // capacity, seats left, limited
    [10, 10, false],
    [10, 4, false],
    [10, 3, true], // 3 seats beats 20 % (2)
    [10, 1, true],
    [30, 7, false],
    [30, 6, true], // 20 % of 30 beats 3 seats
    [30, 4, true],
    [22, 5, false],
    [22, 4, true], // 20 % of 22 is 4.4: no rounding up
    [12, 3, true],
    [12, 4, false],
    [3, 3, true], // a small departure is limited from the start
    [100, 20, true],
    [100, 21, false],
  ])('capacity %i with %i left: %s', (capacity, left, limited) => {
    expect(isLimited(left, capacity)).toBe(limited);
  });
});

describe('salesStatusOf', () => {
  const cases: Array<[string, Partial<Departure>, SalesStatus]> = [
    [
      'an open departure with most seats left is AVAILABLE',
      { seatsRemaining: 8, bookedSeats: 2 },
      'AVAILABLE',
    ],
    ['one with 3 of 10 left is LIMITED', { seatsRemaining: 3, bookedSeats: 7 }, 'LIMITED'],
    ['one with no seat left is SOLD_OUT', { seatsRemaining: 0, bookedSeats: 10 }, 'SOLD_OUT'],
    ['a DELAYED departure still sells', { status: 'DELAYED', seatsRemaining: 2 }, 'LIMITED'],
    ['a CANCELLED one is CLOSED, seats or not', { status: 'CANCELLED' }, 'CLOSED'],
    ['a BOARDING one is CLOSED', { status: 'BOARDING' }, 'CLOSED'],
    ['a DEPARTED one is CLOSED', { status: 'DEPARTED' }, 'CLOSED'],
    ['a COMPLETED one is CLOSED', { status: 'COMPLETED', seatsRemaining: 0 }, 'CLOSED'],
    ['one that started is CLOSED', { startsAt: '2030-01-01T11:00:00.000Z' }, 'CLOSED'],
    ['one starting right now is CLOSED', { startsAt: now.toISOString() }, 'CLOSED'],
    ['one past its booking cutoff is CLOSED', { bookingCutoffAt: '2030-01-01T12:00:00.000Z' }, 'CLOSED'],
    ['one before its booking cutoff sells', { bookingCutoffAt: '2030-01-01T12:00:00.001Z' }, 'AVAILABLE'],
    [
      'a sold-out departure past its cutoff is CLOSED',
      { seatsRemaining: 0, bookingCutoffAt: '2030-01-01T00:00:00.000Z' },
      'CLOSED',
    ],
  ];
  it.each(cases)('%s', (_name, overrides, expected) => {
    expect(salesStatusOf(departure(overrides), now, [], 'UTC')).toBe(expected);
  });

  it('a blackout on its local day closes it; one on another day does not', () => {
    // 23:30 in New York on 9 January is 04:30Z on the 10th.
    const late = departure({ startsAt: '2030-01-10T04:30:00.000Z' });
    const zone = 'America/New_York';
    expect(salesStatusOf(late, now, [{ date: '2030-01-09', tourId: null }], zone)).toBe('CLOSED');
    expect(salesStatusOf(late, now, [{ date: '2030-01-10', tourId: null }], zone)).toBe('AVAILABLE');
    expect(salesStatusOf(late, now, [{ date: '2030-01-09', tourId: 'tour_2' }], zone)).toBe('AVAILABLE');
  });
});

describe('bestSalesStatus: AVAILABLE > LIMITED > SOLD_OUT > CLOSED', () => {
  it.each([
    [[], 'CLOSED'],
    [['CLOSED'], 'CLOSED'],
    [['CLOSED', 'SOLD_OUT'], 'SOLD_OUT'],
    [['SOLD_OUT', 'LIMITED', 'CLOSED'], 'LIMITED'],
    [['LIMITED', 'AVAILABLE', 'SOLD_OUT'], 'AVAILABLE'],
  ] as Array<[SalesStatus[], SalesStatus]>)('%j -> %s', (statuses, best) => {
    expect(bestSalesStatus(statuses)).toBe(best);
  });
});
