import { describe, expect, it } from 'vitest';
import { checkSeats } from '../bookings/index.js';
import type { Departure } from '../catalog/index.js';
import { blackoutFor, isBookable } from '../catalog/index.js';
import {
  canMoveIncident,
  checkMemberFree,
  checkVehicleFits,
  departureInterval,
  type Interval,
  overlaps,
} from './rules.js';

const now = new Date('2030-01-01T00:00:00.000Z');
const departure: Departure = {
  id: 'avl_1',
  tourId: 'tour_1',
  startsAt: '2030-03-10T23:30:00.000Z',
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
};

describe('blackout dates in the bookable rule', () => {
  it.each([
    [
      'a workspace-wide blackout on the local day closes every tour',
      [{ date: '2030-03-10', tourId: null }],
      false,
    ],
    ["the tour's own blackout closes it", [{ date: '2030-03-10', tourId: 'tour_1' }], false],
    ["another tour's blackout does not", [{ date: '2030-03-10', tourId: 'tour_2' }], true],
    ['another day does not', [{ date: '2030-03-11', tourId: null }], true],
    ['no blackouts: bookable', [], true],
  ])('%s', (_name, blackouts, bookable) => {
    expect(isBookable(departure, now, blackouts, 'UTC')).toBe(bookable);
  });

  it.each([
    ['UTC', '2030-03-11T00:00:00.000Z', '2030-03-11'],
    ['Europe/Berlin', '2030-03-10T22:59:00.000Z', '2030-03-10'], // 23:59 local
    ['Europe/Berlin', '2030-03-10T23:00:00.000Z', '2030-03-11'], // 00:00 local
    ['America/New_York', '2030-03-11T03:30:00.000Z', '2030-03-10'], // 23:30 local (EDT since 10 March)
    ['Pacific/Auckland', '2030-03-10T12:00:00.000Z', '2030-03-11'], // 01:00 local
  ])("the day is the local date of startsAt in the tour's zone (%s, %s: %s)", (zone, startsAt, day) => {
    const closing = [{ date: day, tourId: null }];
    expect(blackoutFor({ ...departure, startsAt }, closing, zone)).toEqual(closing[0]);
    const otherDays = [-1, 1].map((d) => ({
      date: new Date(Date.parse(`${day}T00:00:00Z`) + d * 86_400_000).toISOString().slice(0, 10),
      tourId: null,
    }));
    expect(blackoutFor({ ...departure, startsAt }, otherDays, zone)).toBe(undefined);
  });

  it('booking on a blackout date is 422 blackout_date on availabilityId', () => {
    const result = checkSeats(departure, 1, now, [{ date: '2030-03-10', tourId: null }]);
    expect(result).toMatchObject({
      ok: false,
      error: { code: 'UNPROCESSABLE', details: [{ field: 'availabilityId', issue: 'blackout_date' }] },
    });
  });
});

const at = (start: string, end: string): Interval => ({ start: new Date(start), end: new Date(end) });

describe('interval overlap (half-open)', () => {
  it.each([
    [
      'identical',
      at('2030-01-01T10:00Z', '2030-01-01T11:00Z'),
      at('2030-01-01T10:00Z', '2030-01-01T11:00Z'),
      true,
    ],
    [
      'partly',
      at('2030-01-01T10:00Z', '2030-01-01T11:00Z'),
      at('2030-01-01T10:59Z', '2030-01-01T12:00Z'),
      true,
    ],
    [
      'contained',
      at('2030-01-01T10:00Z', '2030-01-01T18:00Z'),
      at('2030-01-01T12:00Z', '2030-01-01T13:00Z'),
      true,
    ],
    [
      'back to back',
      at('2030-01-01T10:00Z', '2030-01-01T11:00Z'),
      at('2030-01-01T11:00Z', '2030-01-01T12:00Z'),
      false,
    ],
    [
      'apart',
      at('2030-01-01T10:00Z', '2030-01-01T11:00Z'),
      at('2030-01-02T10:00Z', '2030-01-02T11:00Z'),
      false,
    ],
  ])('%s', (_name, a, b, expected) => {
    expect(overlaps(a, b)).toBe(expected);
    expect(overlaps(b, a)).toBe(expected);
  });

  it('a departure lasts the tour duration', () => {
    expect(departureInterval('2030-01-01T10:00:00.000Z', 90).end.toISOString()).toBe(
      '2030-01-01T11:30:00.000Z',
    );
  });
});

describe('assignment rules', () => {
  const interval = departureInterval('2030-01-01T10:00:00.000Z', 120);
  const issueOf = (result: ReturnType<typeof checkMemberFree>) =>
    result.ok ? 'ok' : `${result.error.details?.[0]?.field} ${result.error.details?.[0]?.issue}`;

  it('time-off overlapping the departure: guide_unavailable_time_off', () => {
    const off = [{ startsAt: '2030-01-01T11:00:00.000Z', endsAt: '2030-01-02T00:00:00.000Z' }];
    expect(issueOf(checkMemberFree('guide', interval, off, []))).toBe('guideId guide_unavailable_time_off');
  });

  it('time-off ending when the departure starts does not block', () => {
    const off = [{ startsAt: '2030-01-01T08:00:00.000Z', endsAt: '2030-01-01T10:00:00.000Z' }];
    expect(issueOf(checkMemberFree('guide', interval, off, []))).toBe('ok');
  });

  it('another departure: guide_double_booked (driver_double_booked for a driver)', () => {
    const busy = [{ id: 'avl_2', tourId: 'tour_1', startsAt: '2030-01-01T11:00:00.000Z' }];
    expect(issueOf(checkMemberFree('guide', interval, [], busy))).toBe('guideId guide_double_booked');
    expect(issueOf(checkMemberFree('driver', interval, [], busy))).toBe('driverId driver_double_booked');
  });

  it('names the other departure and the time off in the words given (tour, local time)', () => {
    const busy = [{ id: 'avl_2', tourId: 'tour_1', startsAt: '2030-01-01T11:00:00.000Z' }];
    const words = { name: () => 'Sunset cruise on 2030-01-01 at 12:00 Europe/Paris', at: () => 'noon' };
    const refused = checkMemberFree('guide', interval, [], busy, words);
    expect(refused.ok ? '' : refused.error.message).toContain(
      'Sunset cruise on 2030-01-01 at 12:00 Europe/Paris',
    );
    const off = [{ startsAt: '2030-01-01T09:00:00.000Z', endsAt: '2030-01-01T12:00:00.000Z' }];
    const away = checkMemberFree('guide', interval, off, [], words);
    expect(away.ok ? '' : away.error.message).toBe('The guide is on time off from noon to noon.');
  });

  it.each([
    ['fits', { status: 'ACTIVE', seats: 10 }, 10, [], 'ok'],
    ['too small', { status: 'ACTIVE', seats: 9 }, 10, [], 'vehicleId vehicle_too_small'],
    ['in maintenance', { status: 'MAINTENANCE', seats: 50 }, 10, [], 'vehicleId vehicle_unavailable'],
    [
      'on another departure',
      { status: 'ACTIVE', seats: 50 },
      10,
      [{ id: 'avl_2', tourId: 'tour_1', startsAt: 'x' }],
      'vehicleId vehicle_double_booked',
    ],
  ] as const)('vehicle %s', (_name, vehicle, capacity, busy, expected) => {
    expect(issueOf(checkVehicleFits(vehicle, capacity, busy))).toBe(expected);
  });
});

describe('incident status', () => {
  it('moves freely until CLOSED, which is final', () => {
    expect(canMoveIncident('OPEN', 'RESOLVED')).toBe(true);
    expect(canMoveIncident('RESOLVED', 'OPEN')).toBe(true);
    expect(canMoveIncident('RESOLVED', 'CLOSED')).toBe(true);
    expect(canMoveIncident('CLOSED', 'OPEN')).toBe(false);
    expect(canMoveIncident('CLOSED', 'CLOSED')).toBe(true);
  });
});
