import { unprocessable, validationError } from '../shared/errors.js';
import { fail, ok, type Result } from '../shared/result.js';
import type { Departure } from './availability-schemas.js';
import { canMoveDeparture } from './departure-rules.js';
import { addDays, addMonths, dayOfWeek, localDateOf, localTimeToUtc } from './local-time.js';
import type { ScheduleDeparture } from './ports.js';
import { DAYS_OF_WEEK, type DayOfWeek, type Schedule } from './schedule-schemas.js';

/** How far ahead a schedule may reach: its `endsOn` is at most this many months after today. */
const SCHEDULE_HORIZON_MONTHS = 18;
/** Departures one schedule request (POST or PATCH) may make. */
const MAX_DEPARTURES_PER_SCHEDULE_REQUEST = 2000;
/** Schedules of one tour that are ACTIVE and not yet ended. */
const MAX_ACTIVE_SCHEDULES_PER_TOUR = 20;

export type SchedulePattern = Pick<Schedule, 'daysOfWeek' | 'times' | 'startsOn' | 'endsOn'>;

/** `MON`... as `Date#getUTCDay` numbers them (Sunday 0). */
const DAY_NUMBERS: Record<DayOfWeek, number> = Object.fromEntries(
  DAYS_OF_WEEK.map((day, i) => [day, (i + 1) % 7]),
) as Record<DayOfWeek, number>;

/**
 * The range is well formed (`startsOn` <= `endsOn`: 400 on `endsOn`) and ends within the
 * horizon: at most 18 months after today in the tour's zone (422 `too_far_ahead` on `endsOn`).
 */
export function checkScheduleRange(
  pattern: Pick<SchedulePattern, 'startsOn' | 'endsOn'>,
  now: Date,
  timeZone: string,
): Result<void> {
  if (pattern.startsOn > pattern.endsOn) {
    return fail(validationError('The request is invalid.', [{ field: 'endsOn', issue: 'before_starts_on' }]));
  }
  const horizon = addMonths(localDateOf(now, timeZone), SCHEDULE_HORIZON_MONTHS);
  if (pattern.endsOn > horizon) {
    return fail(
      unprocessable(
        `A schedule may end at most ${SCHEDULE_HORIZON_MONTHS} months ahead, on ${horizon}.`,
        'endsOn',
        'too_far_ahead',
      ),
    );
  }
  return ok(undefined);
}

const groupDigits = (n: number) => n.toLocaleString('en').replace(/,/g, ' ');

/**
 * A request makes at most 2 000 departures: more is 422 `too_many_departures` on `endsOn`
 * (the range is what to shorten), naming the count, and nothing is made.
 */
export function checkDeparturesToMake(count: number): Result<void> {
  if (count <= MAX_DEPARTURES_PER_SCHEDULE_REQUEST) return ok(undefined);
  return fail(
    unprocessable(
      `This would make ${groupDigits(count)} departures; one schedule request makes at most ${groupDigits(MAX_DEPARTURES_PER_SCHEDULE_REQUEST)}. Shorten the range (endsOn) or split the schedule.`,
      'endsOn',
      'too_many_departures',
    ),
  );
}

/**
 * A tour has at most 20 active schedules (ACTIVE, ending today or later): a 21st is 422
 * `too_many_schedules`. `active` is counted under the tour's lock, so two at once cannot pass.
 */
export function checkActiveSchedules(active: number): Result<void> {
  if (active < MAX_ACTIVE_SCHEDULES_PER_TOUR) return ok(undefined);
  return fail(
    unprocessable(
      `This tour already has ${active} active schedules, the most a tour may have: end or delete one first.`,
      'tourId',
      'too_many_schedules',
    ),
  );
}

/**
 * Every start the pattern describes after `now`, in time order: each of `times`, read in
 * `timeZone` (see `localTimeToUtc` for the days clocks change), on each day of `daysOfWeek`
 * from `startsOn` to `endsOn`. Days before today (in the zone) are not visited at all.
 */
export function scheduleStarts(pattern: SchedulePattern, timeZone: string, now: Date): Date[] {
  const days = new Set(pattern.daysOfWeek.map((day) => DAY_NUMBERS[day]));
  const today = localDateOf(now, timeZone);
  // Two local times can meet at one instant on the day clocks spring forward (02:30 moves to 03:30).
  const starts = new Set<number>();
  // The later of the two days.
  const [, first = today] = [pattern.startsOn, today].sort();
  for (let date = first; date <= pattern.endsOn; date = addDays(date, 1)) {
    if (!days.has(dayOfWeek(date))) continue;
    for (const time of pattern.times) {
      const start = localTimeToUtc(date, time, timeZone).getTime();
      if (start > now.getTime()) starts.add(start);
    }
  }
  return [...starts].sort((a, b) => a - b).map((start) => new Date(start));
}

export interface ScheduleChangePlan {
  /** Starts the pattern describes that the schedule has no departure at. */
  create: Date[];
  /** Unbooked departures at a start of the pattern whose capacity is not the schedule's. */
  resize: string[];
  /** Unbooked departures at a start the pattern no longer describes. */
  remove: string[];
  /** Departures the pattern would resize or remove, left because they are booked (or no longer open). */
  left: string[];
}

/** Only a departure still open for sale (SCHEDULED or DELAYED) follows its schedule. */
const isOpen = (status: Departure['status']) => status === 'SCHEDULED' || status === 'DELAYED';

/**
 * What a PATCH does to the schedule's future departures (`current`, none CANCELLED) so they
 * match the `wanted` starts with `capacity` seats each. A booked departure is never touched.
 */
export function planScheduleChange(
  current: readonly ScheduleDeparture[],
  wanted: readonly Date[],
  capacity: number,
): ScheduleChangePlan {
  const wantedStarts = new Set(wanted.map((start) => start.toISOString()));
  const plan: ScheduleChangePlan = { create: [], resize: [], remove: [], left: [] };
  for (const { departure, booked } of current) {
    const inPattern = wantedStarts.has(departure.startsAt);
    if (inPattern && departure.capacity === capacity) continue;
    if (booked || !isOpen(departure.status)) plan.left.push(departure.id);
    else if (inPattern) plan.resize.push(departure.id);
    else plan.remove.push(departure.id);
  }
  const existing = new Set(current.map(({ departure }) => departure.startsAt));
  plan.create = wanted.filter((start) => !existing.has(start.toISOString()));
  return plan;
}

/** What a DELETE does: cancel each unbooked future departure; the booked ones are left. */
export function planScheduleCancel(current: readonly ScheduleDeparture[]): {
  cancel: string[];
  left: string[];
} {
  const cancel: string[] = [];
  const left: string[] = [];
  for (const { departure, booked } of current) {
    if (!booked && canMoveDeparture(departure.status, 'CANCELLED')) cancel.push(departure.id);
    else left.push(departure.id);
  }
  return { cancel, left };
}
