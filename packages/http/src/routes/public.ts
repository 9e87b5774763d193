import {
  type CalendarDay,
  CalendarDaySchema,
  getPublicCalendar,
  getPublicTour,
  listPublicDepartures,
  listPublicTours,
  PublicAvailabilityQuerySchema,
  PublicCalendarQuerySchema,
  PublicDepartureSchema,
  PublicTourSchema,
} from '@travelops/domain/catalog';
import { ok } from '@travelops/domain/shared';
import * as v from 'valibot';
import { defineRoute, type RawReply, toReply } from '../route.js';
import { PathId } from './params.js';

const tags = ['Public'];
const SlugParams = v.object({ workspaceSlug: PathId });
const TourSlugParams = v.object({ workspaceSlug: PathId, tourSlug: PathId });

/**
 * Calendar answers as sent (`{"data":[...]}`, what `res.json` would write), by the days they
 * print: a calendar kept by the memo comes back as the same array, and is printed once.
 */
const calendarBodies = new WeakMap<CalendarDay[], string>();

function calendarReply(days: CalendarDay[]): RawReply {
  let body = calendarBodies.get(days);
  if (body === undefined) {
    body = JSON.stringify({ data: days });
    calendarBodies.set(days, body);
  }
  return { contentType: 'application/json; charset=utf-8', body };
}

export const publicRoutes = [
  defineRoute({
    operationId: 'listPublicTours',
    method: 'get',
    path: '/public/{workspaceSlug}/tours',
    summary: "List a workspace's published tours",
    description:
      "No credential. Only tours with `isPublic: true`, newest first (at most 500). A public tour carries no `capacity` (what is left is each departure's `seatsRemaining`).",
    tags,
    access: 'public',
    params: SlugParams,
    success: { status: 200, description: 'The published tours.', schema: PublicTourSchema, list: 'plain' },
    errors: [404],
    async handle({ use, params }) {
      return toReply(await listPublicTours(use, params.workspaceSlug));
    },
  }),
  defineRoute({
    operationId: 'getPublicTour',
    method: 'get',
    path: '/public/{workspaceSlug}/tours/{tourSlug}',
    summary: 'Get a published tour by its slug',
    description:
      "No credential. An unpublished tour answers 404 like an unknown one. A public tour carries no `capacity` (what is left is each departure's `seatsRemaining`).",
    tags,
    access: 'public',
    params: TourSlugParams,
    success: { status: 200, description: 'The tour.', schema: PublicTourSchema },
    errors: [404],
    async handle({ use, params }) {
      return toReply(await getPublicTour(use, params.workspaceSlug, params.tourSlug));
    },
  }),
  defineRoute({
    operationId: 'listPublicAvailability',
    method: 'get',
    path: '/public/{workspaceSlug}/tours/{tourSlug}/availability',
    summary: 'List the bookable departures of a published tour',
    description:
      "No credential. Only departures a guest can book now: SCHEDULED or DELAYED, starting in the future, before their booking cutoff, not on a blackout day (the tour's local day). Ordered by start time (at most 500). `from`/`to` are inclusive UTC dates. Each carries `salesStatus`: AVAILABLE, LIMITED (at most 3 seats or 20 % of the capacity left, whichever is more) or SOLD_OUT (listed, so a widget can show it; booking it is 409).",
    tags,
    access: 'public',
    params: TourSlugParams,
    query: PublicAvailabilityQuerySchema,
    success: {
      status: 200,
      description: 'Bookable departures: seats left and status, never staff or booked counts.',
      schema: PublicDepartureSchema,
      list: 'plain',
    },
    errors: [404],
    async handle({ use, params, query }) {
      const filter = { ...(query.from && { from: query.from }), ...(query.to && { to: query.to }) };
      return toReply(await listPublicDepartures(use, params.workspaceSlug, params.tourSlug, filter));
    },
  }),
  defineRoute({
    operationId: 'getPublicCalendar',
    method: 'get',
    path: '/public/{workspaceSlug}/tours/{tourSlug}/calendar',
    summary: 'A published tour day by day: what a date picker shows',
    description:
      "No credential; counted per client IP like every `/public/` call. One row per day from `from` to `to` (both inclusive), **days in the tour's `timeZone`**: a departure at 23:30 local time is on that local day whatever its UTC date. `from` defaults to today in the tour's time zone, `to` to 30 days after `from`; at most 366 days per call (else 400 on `to`, issue `range_too_long`), `to` before `from` is 400 on `to`, issue `before_from`.\n\nPer day, over the departures a guest can book (SCHEDULED or DELAYED, in the future, before their cutoff, not on a blackout day of the tour or the workspace): `salesStatus` is the best of theirs (AVAILABLE > LIMITED > SOLD_OUT; LIMITED means at most 3 seats or 20 % of the capacity left, whichever is more, without rounding); `seatsRemaining` is their sum; `departures` counts them (sold-out ones included); `fromPrice` is the lowest seat price among those with a seat left (the departure's override, else the ticket type's, else `basePrice`), in minor units of the tour's `currency`, null when none. Every day of the range has a row: a day with nothing to book is CLOSED with 0, 0 and null. An unknown or unpublished tour is 404.",
    tags,
    access: 'public',
    expensive: true,
    params: TourSlugParams,
    query: PublicCalendarQuerySchema,
    success: {
      status: 200,
      description: 'One row per local day of the range, in date order.',
      schema: CalendarDaySchema,
      list: 'plain',
      example: {
        data: [
          {
            date: '2030-12-23',
            salesStatus: 'AVAILABLE',
            seatsRemaining: 23,
            departures: 2,
            fromPrice: 1500,
          },
          { date: '2030-12-24', salesStatus: 'LIMITED', seatsRemaining: 2, departures: 1, fromPrice: 1800 },
          { date: '2030-12-25', salesStatus: 'CLOSED', seatsRemaining: 0, departures: 0, fromPrice: null },
          { date: '2030-12-26', salesStatus: 'SOLD_OUT', seatsRemaining: 0, departures: 1, fromPrice: null },
        ],
      },
    },
    errors: [404],
    async handle({ use, params, query }) {
      const days = await getPublicCalendar(use, params.workspaceSlug, params.tourSlug, query);
      return days.ok ? ok(calendarReply(days.value)) : days;
    },
  }),
];
