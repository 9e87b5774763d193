import type { BlackoutDate } from '../operations/index.js';
import type { DepartureStatus } from '../shared/enums.js';
import { unprocessable } from '../shared/errors.js';
import { fail, ok, type Result } from '../shared/result.js';
import type { Departure } from './availability-schemas.js';
import { localDateOf } from './local-time.js';
import type { DeparturePatch } from './ports.js';

/**
 * Where a departure may go next. Same-state writes are no-ops and always allowed;
 * COMPLETED and CANCELLED are final.
 */
const DEPARTURE_TRANSITIONS: Record<DepartureStatus, readonly DepartureStatus[]> = {
  SCHEDULED: ['DELAYED', 'BOARDING', 'DEPARTED', 'CANCELLED'],
  DELAYED: ['SCHEDULED', 'BOARDING', 'DEPARTED', 'CANCELLED'],
  BOARDING: ['DELAYED', 'DEPARTED', 'CANCELLED'],
  DEPARTED: ['COMPLETED'],
  COMPLETED: [],
  CANCELLED: [],
};

export function canMoveDeparture(from: DepartureStatus, to: DepartureStatus): boolean {
  return from === to || DEPARTURE_TRANSITIONS[from].includes(to);
}

/** A blackout as the bookable rule needs it: its day, and its tour (null: every tour). */
export type BlackoutDay = Pick<BlackoutDate, 'date' | 'tourId'>;

/**
 * The blackout closing the departure's day, workspace-wide or its tour's. The day is the
 * local date of `startsAt` in the tour's time zone: a blackout on 24 December closes the
 * 23:30 departure of a New York tour, which is already the 25th in UTC.
 */
export function blackoutFor(
  departure: Pick<Departure, 'tourId' | 'startsAt'>,
  blackouts: readonly BlackoutDay[],
  timeZone: string,
): BlackoutDay | undefined {
  if (blackouts.length === 0) return undefined;
  const day = localDateOf(new Date(departure.startsAt), timeZone);
  return blackouts.find(
    (blackout) => blackout.date === day && (blackout.tourId === null || blackout.tourId === departure.tourId),
  );
}

/**
 * Decisions §2: a guest may book a departure that is open, not cut off, in the future and
 * not on a blackout date. `blackouts` are the ones that may apply (callers load them);
 * `timeZone` is the tour's, whose local day a blackout closes.
 */
export function isBookable(
  departure: Pick<Departure, 'status' | 'startsAt' | 'bookingCutoffAt' | 'tourId'>,
  now: Date,
  blackouts: readonly BlackoutDay[],
  timeZone: string,
): boolean {
  const cutoff = departure.bookingCutoffAt ? Date.parse(departure.bookingCutoffAt) : null;
  if (!isOpenAt(departure.status, Date.parse(departure.startsAt), cutoff, now.getTime())) return false;
  return blackoutFor(departure, blackouts, timeZone) === undefined;
}

/**
 * `isBookable` but for blackouts, over epoch milliseconds: open (SCHEDULED or DELAYED), not
 * started and not past its cutoff (null: none) at `now`. For readers that hold instants as
 * numbers (the calendar), which then check the blackout of the local day themselves.
 */
export function isOpenAt(
  status: DepartureStatus,
  startsAt: number,
  bookingCutoffAt: number | null,
  now: number,
): boolean {
  if (status !== 'SCHEDULED' && status !== 'DELAYED') return false;
  if (startsAt <= now) return false;
  if (bookingCutoffAt !== null && bookingCutoffAt <= now) return false;
  return true;
}

/** Decides whether a PATCH may apply to the departure as it is now (pure, `current` is locked). */
export function decideDeparturePatch(current: Departure, patch: DeparturePatch): Result<DeparturePatch> {
  if (patch.status && !canMoveDeparture(current.status, patch.status)) {
    return fail(
      unprocessable(
        `A ${current.status} departure cannot become ${patch.status}.`,
        'status',
        'invalid_transition',
      ),
    );
  }
  const open = current.status === 'SCHEDULED' || current.status === 'DELAYED';
  if (patch.startsAt && !open && patch.startsAt.toISOString() !== current.startsAt) {
    return fail(
      unprocessable('Only a scheduled or delayed departure can be moved.', 'startsAt', 'invalid_state'),
    );
  }
  if (patch.capacity !== undefined && patch.capacity < current.bookedSeats) {
    return fail(
      unprocessable(
        `Capacity cannot drop below the ${current.bookedSeats} seats already booked.`,
        'capacity',
        'below_booked_seats',
      ),
    );
  }
  const startsAt = patch.startsAt?.toISOString() ?? current.startsAt;
  const cutoff =
    patch.bookingCutoffAt === undefined ? current.bookingCutoffAt : patch.bookingCutoffAt?.toISOString();
  if (cutoff && cutoff > startsAt) {
    return fail(
      unprocessable('The booking cutoff must not be after the start.', 'bookingCutoffAt', 'after_start'),
    );
  }
  return ok(patch);
}
