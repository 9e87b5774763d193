import * as v from 'valibot';
import type { DepartureStatus } from '../shared/enums.js';
import { validationError } from '../shared/errors.js';
import { fail, ok, type Result } from '../shared/result.js';
import { DateSchema } from '../shared/schemas.js';
import { type DeparturePrice, SalesStatusSchema } from './availability-schemas.js';
import { type BlackoutDay, isOpenAt } from './departure-rules.js';
import {
  addDays,
  dateOfDayNumber,
  dayNumberOf,
  daysBetween,
  localDayOf,
  localTimeToUtc,
} from './local-time.js';
import { betterSalesStatus, salesStatusFor } from './sales-status.js';
import { fromPrice } from './ticket-types.js';
import type { Tour } from './tour-schemas.js';

/** Rows of one calendar call: a year and a day (a leap year's worth). */
const MAX_CALENDAR_DAYS = 366;
/** Without `to`: `from` and the 30 days after it. */
const DEFAULT_CALENDAR_DAYS = 31;

export const PublicCalendarQuerySchema = v.object({
  from: v.optional(DateSchema),
  to: v.optional(DateSchema),
});

/** One local day of a tour, as a booking widget's date picker needs it. */
export const CalendarDaySchema = v.object({
  /** The day in the tour's time zone. */
  date: DateSchema,
  /** The best of its departures' (AVAILABLE > LIMITED > SOLD_OUT > CLOSED); CLOSED without one. */
  salesStatus: SalesStatusSchema,
  /** Seats left over its bookable departures. */
  seatsRemaining: v.number(),
  /** How many of its departures can be booked (sold-out ones included). */
  departures: v.number(),
  /** Lowest seat price among its bookable departures with a seat left, minor units; null when none. */
  fromPrice: v.nullable(v.number()),
});
export type CalendarDay = v.InferOutput<typeof CalendarDaySchema>;

export interface CalendarRange {
  from: string;
  to: string;
}

/**
 * The days asked for: `from` defaults to `today` (the tour's), `to` to 30 days after `from`.
 * `to` before `from`, or more than 366 days in all, is a 400 on `to`.
 */
export function calendarRange(query: { from?: string; to?: string }, today: string): Result<CalendarRange> {
  const from = query.from ?? today;
  const to = query.to ?? addDays(from, DEFAULT_CALENDAR_DAYS - 1);
  const span = daysBetween(from, to);
  if (span < 0) {
    return fail(validationError('`to` is before `from`.', [{ field: 'to', issue: 'before_from' }]));
  }
  if (span + 1 > MAX_CALENDAR_DAYS) {
    return fail(
      validationError(`At most ${MAX_CALENDAR_DAYS} days per call.`, [
        { field: 'to', issue: 'range_too_long' },
      ]),
    );
  }
  return ok({ from, to });
}

/**
 * Departures alike as the calendar reads them: `count` of them starting on one local day with
 * the same status, capacity, seats left and prices (what the rules use and no more), instants
 * as epoch milliseconds: the earliest start and the earliest cutoff among them. A dense year
 * holds tens of thousands of departures but far fewer kinds of them a day, and reading,
 * mapping and parsing each was most of the calendar's time (docs/performance.md).
 */
export interface CalendarDeparture {
  /** How many departures this stands for (at least 1). */
  count: number;
  status: DepartureStatus;
  startsAtMs: number;
  /** Null: no cutoff (for any of them). */
  bookingCutoffAtMs: number | null;
  capacity: number;
  seatsRemaining: number;
  prices: DeparturePrice[];
}

/**
 * The instant each local day of `range` begins in `timeZone` (its first instant: a midnight
 * that clocks skip begins the day at the gap's end), and the one after `to`'s: `range.to -
 * range.from + 2` ascending instants, epoch ms. A departure at `t` starts on day `i` when
 * `dayStarts[i] <= t < dayStarts[i + 1]`: how the store groups a calendar's departures.
 */
export function calendarDayStarts(range: CalendarRange, timeZone: string): number[] {
  const starts: number[] = [];
  for (let day = dayNumberOf(range.from); day <= dayNumberOf(range.to) + 1; day++) {
    starts.push(localTimeToUtc(dateOfDayNumber(day), '00:00', timeZone).getTime());
  }
  return starts;
}

/**
 * One row per local day of `range` (the tour's time zone), days without a bookable departure
 * included as CLOSED, so a date picker can draw the month as it is. A departure counts on the
 * day of its local start, with the status `salesStatusOf` gives it (a blackout of the tour or
 * of the workspace closes its local day); `departures` may hold others (outside the range, or
 * not bookable).
 */
export function calendarDays(
  range: CalendarRange,
  departures: readonly CalendarDeparture[],
  tour: Pick<Tour, 'id' | 'timeZone' | 'basePrice' | 'ticketTypes'>,
  now: Date,
  blackouts: readonly BlackoutDay[],
): CalendarDay[] {
  const first = dayNumberOf(range.from);
  const last = dayNumberOf(range.to);
  const days: CalendarDay[] = [];
  for (let day = first; day <= last; day++) {
    days.push({
      date: dateOfDayNumber(day),
      salesStatus: 'CLOSED',
      seatsRemaining: 0,
      departures: 0,
      fromPrice: null,
    });
  }
  const blackedOut = new Set(
    blackouts
      .filter((blackout) => blackout.tourId === null || blackout.tourId === tour.id)
      .map((blackout) => dayNumberOf(blackout.date)),
  );
  // Most departures have no price of their own: the tour's lowest seat price, computed once.
  const tourPrice = fromPrice(tour, []);
  const nowMs = now.getTime();
  for (const departure of departures) {
    const localDay = localDayOf(departure.startsAtMs, tour.timeZone);
    const row = days[localDay - first];
    if (!row) continue;
    const bookable =
      isOpenAt(departure.status, departure.startsAtMs, departure.bookingCutoffAtMs, nowMs) &&
      !blackedOut.has(localDay);
    const status = salesStatusFor(bookable, departure.seatsRemaining, departure.capacity);
    if (status === 'CLOSED') continue;
    row.salesStatus = betterSalesStatus(row.salesStatus, status);
    row.seatsRemaining += Math.max(0, departure.seatsRemaining) * departure.count;
    row.departures += departure.count;
    if (departure.seatsRemaining > 0) {
      const price = departure.prices.length === 0 ? tourPrice : fromPrice(tour, departure.prices);
      row.fromPrice = row.fromPrice === null ? price : Math.min(row.fromPrice, price);
    }
  }
  return days;
}

/**
 * The first instant after `now` at which time alone could change what `calendarDays` answers
 * for these departures (epoch ms; `Infinity` when none can): the start or the cutoff of a
 * departure open at `now`, whichever comes first. A departure not open at `now` never opens
 * again with time (only an edit reopens it), and seats, capacity, prices and blackouts do not
 * move with the clock. The day the default range starts on is checked apart (`calendarToday`).
 */
export function calendarValidUntil(departures: readonly CalendarDeparture[], now: Date): number {
  const nowMs = now.getTime();
  let until = Number.POSITIVE_INFINITY;
  for (const departure of departures) {
    if (!isOpenAt(departure.status, departure.startsAtMs, departure.bookingCutoffAtMs, nowMs)) continue;
    until = Math.min(until, departure.startsAtMs);
    if (departure.bookingCutoffAtMs !== null) until = Math.min(until, departure.bookingCutoffAtMs);
  }
  return until;
}
