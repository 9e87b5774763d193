import * as v from 'valibot';
import { fromPrice } from '../bookings/pricing.js';
import { validationError } from '../shared/errors.js';
import { fail, ok, type Result } from '../shared/result.js';
import { DateSchema } from '../shared/schemas.js';
import { type Availability, type SalesStatus, SalesStatusSchema } from './availability-schemas.js';
import type { BlackoutDay } from './departure-rules.js';
import { addDays, daysBetween, localDateOf } from './local-time.js';
import { bestSalesStatus, salesStatusOf } from './sales-status.js';
import type { Tour } from './tour-schemas.js';

/** Rows of one calendar call: a year and a day (a leap year's worth). */
export const MAX_CALENDAR_DAYS = 366;
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
 * One row per local day of `range` (the tour's time zone), days without a bookable departure
 * included as CLOSED, so a date picker can draw the month as it is. A departure counts on the
 * day of its local start; `departures` may hold others (outside the range, or not bookable).
 */
export function calendarDays(
  range: CalendarRange,
  departures: readonly Availability[],
  tour: Pick<Tour, 'timeZone' | 'basePrice' | 'ticketTypes'>,
  now: Date,
  blackouts: readonly BlackoutDay[],
): CalendarDay[] {
  const byDay = new Map<string, { status: SalesStatus; departure: Availability }[]>();
  for (const departure of departures) {
    const status = salesStatusOf(departure, now, blackouts, tour.timeZone);
    if (status === 'CLOSED') continue;
    const day = localDateOf(new Date(departure.startsAt), tour.timeZone);
    const open = byDay.get(day) ?? [];
    open.push({ status, departure });
    byDay.set(day, open);
  }
  const days: CalendarDay[] = [];
  for (let offset = 0; offset <= daysBetween(range.from, range.to); offset++) {
    const date = addDays(range.from, offset);
    const open = byDay.get(date) ?? [];
    const prices = open
      .filter(({ departure }) => departure.seatsRemaining > 0)
      .map(({ departure }) => fromPrice(tour, departure.prices));
    days.push({
      date,
      salesStatus: bestSalesStatus(open.map(({ status }) => status)),
      seatsRemaining: open.reduce((sum, { departure }) => sum + Math.max(0, departure.seatsRemaining), 0),
      departures: open.length,
      fromPrice: prices.length ? Math.min(...prices) : null,
    });
  }
  return days;
}
