import type { Departure, DepartureNamer } from '../catalog/index.js';
import { unprocessable } from '../shared/errors.js';
import { fail, ok, type Result } from '../shared/result.js';
import type { IncidentSeverity, IncidentStatus, TimeOff, Vehicle } from './schemas.js';

const MINUTE = 60_000;

/** A half-open time interval [start, end). */
export interface Interval {
  start: Date;
  end: Date;
}

/** A departure occupies its guide, driver and vehicle from `startsAt` for the tour's duration. */
export function departureInterval(startsAt: string | Date, durationMinutes: number): Interval {
  const start = new Date(startsAt);
  return { start, end: new Date(start.getTime() + durationMinutes * MINUTE) };
}

/** Half-open: one ending at 10:00 does not overlap one starting at 10:00. */
export function overlaps(a: Interval, b: Interval): boolean {
  return a.start.getTime() < b.end.getTime() && b.start.getTime() < a.end.getTime();
}

export type AssignmentRole = 'guide' | 'driver';

/** How a refusal names another departure and an instant to a person (local time, tour name). */
export interface AssignmentWords {
  name: DepartureNamer;
  at: (instant: string) => string;
}

const UTC_WORDS: AssignmentWords = {
  name: (d) => `departure ${d.id} starting ${d.startsAt}`,
  at: (instant) => instant,
};

/**
 * A member may take a departure only when no time-off and no other departure of theirs
 * overlaps it. `timeOff` and `busy` are what the store found overlapping (checked again here).
 */
export function checkMemberFree(
  role: AssignmentRole,
  interval: Interval,
  timeOff: readonly Pick<TimeOff, 'startsAt' | 'endsAt'>[],
  busy: readonly Pick<Departure, 'id' | 'tourId' | 'startsAt'>[],
  words: AssignmentWords = UTC_WORDS,
): Result<true> {
  const field = `${role}Id`;
  const away = timeOff.find((off) =>
    overlaps(interval, { start: new Date(off.startsAt), end: new Date(off.endsAt) }),
  );
  if (away) {
    return fail(
      unprocessable(
        `The ${role} is on time off from ${words.at(away.startsAt)} to ${words.at(away.endsAt)}.`,
        field,
        `${role}_unavailable_time_off`,
      ),
    );
  }
  const other = busy[0];
  if (other) {
    return fail(
      unprocessable(
        `The ${role} is already assigned to ${words.name(other)}, which overlaps this one.`,
        field,
        `${role}_double_booked`,
      ),
    );
  }
  return ok(true);
}

/** A vehicle must be in service, seat the departure's capacity and not be on another overlapping departure. */
export function checkVehicleFits(
  vehicle: Pick<Vehicle, 'status' | 'seats'>,
  capacity: number,
  busy: readonly Pick<Departure, 'id' | 'tourId' | 'startsAt'>[],
  words: AssignmentWords = UTC_WORDS,
): Result<true> {
  if (vehicle.status !== 'ACTIVE') {
    return fail(
      unprocessable(`A vehicle in ${vehicle.status} cannot be assigned.`, 'vehicleId', 'vehicle_unavailable'),
    );
  }
  if (vehicle.seats < capacity) {
    return fail(
      unprocessable(
        `The vehicle seats ${vehicle.seats}; the departure holds ${capacity}.`,
        'vehicleId',
        'vehicle_too_small',
      ),
    );
  }
  const other = busy[0];
  if (other) {
    return fail(
      unprocessable(
        `The vehicle is already assigned to ${words.name(other)}, which overlaps this one.`,
        'vehicleId',
        'vehicle_double_booked',
      ),
    );
  }
  return ok(true);
}

/** Incidents at these severities are pushed to webhooks (`incident.created`). */
export const ALERTING_SEVERITIES: readonly IncidentSeverity[] = ['HIGH', 'CRITICAL'];

/** Any move between OPEN, INVESTIGATING and RESOLVED (reopening included); CLOSED is final. */
export function canMoveIncident(from: IncidentStatus, to: IncidentStatus): boolean {
  return from === to || from !== 'CLOSED';
}
