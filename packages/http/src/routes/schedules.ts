import {
  CreateScheduleSchema,
  cancelSchedule,
  createSchedule,
  getSchedule,
  listSchedules,
  ScheduleCancelledSchema,
  ScheduleCreatedSchema,
  ScheduleSchema,
  ScheduleUpdatedSchema,
  UpdateScheduleSchema,
  updateSchedule,
} from '@travelops/domain/catalog';
import { ok, PageQuerySchema } from '@travelops/domain/shared';
import * as v from 'valibot';
import { defineRoute, toReply } from '../route.js';
import { PathId } from './params.js';

const TourParams = v.object({ workspaceId: PathId, tourId: PathId });
const ScheduleParams = v.object({ workspaceId: PathId, tourId: PathId, scheduleId: PathId });
const tags = ['Availability'];
const write = { permission: 'availability:write' } as const;

const PATTERN =
  "A schedule describes departures: each of `times` (local `HH:MM`, 24 h, in the tour's `timeZone`) on each of `daysOfWeek` from `startsOn` to `endsOn` (both inclusive). Only starts after now are made. Daylight saving is followed: 09:00 in Europe/Berlin is 08:00Z in winter and 07:00Z in summer. A local time that does not exist (the spring-forward gap) moves forward by the gap (02:30 becomes 03:30); one that happens twice (the fall-back overlap) is the first. Each departure is SCHEDULED, with `scheduleId` set and `capacity` the schedule's (or, when null, the tour's).";

const RANGE_ERRORS =
  "Errors: 400 `VALIDATION_ERROR` with the field: `daysOfWeek[i]` `invalid_enum` or `duplicate`, `times[i]` `invalid_time` or `duplicate`, `daysOfWeek`/`times` `too_short` (empty) or `too_long` (more than 7 days or 24 times), `startsOn`/`endsOn` `invalid_date`, `endsOn` `before_starts_on`, `capacity` `out_of_range`; 422 `UNPROCESSABLE` `endsOn` `too_far_ahead` when `endsOn` is more than 18 months after today (in the tour's time zone), 422 `UNPROCESSABLE` `endsOn` `too_many_departures` when the request would make more than 2 000 departures (the message names the count; nothing is made: shorten the range or split the schedule).";

export const scheduleRoutes = [
  defineRoute({
    operationId: 'listSchedules',
    method: 'get',
    path: '/workspaces/{workspaceId}/tours/{tourId}/schedules',
    summary: "List a tour's schedules, newest first",
    description:
      'Deleted schedules are listed too, with `status` CANCELLED. Ordered by `createdAt` descending, then `id`.',
    tags,
    access: { permission: 'read' },
    params: TourParams,
    query: PageQuerySchema,
    success: { status: 200, description: 'A page of schedules.', schema: ScheduleSchema, list: 'paginated' },
    errors: [404],
    async handle({ use, params, pageRequest, pageReply }) {
      const scope = params.tourId;
      const page = await listSchedules(use, params.workspaceId, params.tourId, pageRequest(scope));
      return page.ok ? ok(pageReply(page.value, scope)) : page;
    },
  }),
  defineRoute({
    operationId: 'createSchedule',
    method: 'post',
    path: '/workspaces/{workspaceId}/tours/{tourId}/schedules',
    summary: 'Create a schedule and generate its departures',
    description: `${PATTERN} Everything is made in one transaction and the answer carries \`departuresCreated\`. Generating is idempotent: a start at which the tour already has a departure that is not CANCELLED (made by hand, or by this or another schedule) is skipped, so sending the same schedule twice makes no departure twice (the second answers \`departuresCreated: 0\`); with an \`Idempotency-Key\` the replay answers the first result. ${RANGE_ERRORS} A tour has at most 20 active schedules (ACTIVE and ending today or later): another is 422 \`too_many_schedules\` on \`tourId\` (counted under a lock of the tour, so concurrent creations cannot pass it). An unknown tour is 404.`,
    tags,
    access: write,
    expensive: true,
    params: TourParams,
    body: CreateScheduleSchema,
    idempotent: true,
    success: {
      status: 201,
      description: 'The schedule, with the number of departures made.',
      schema: ScheduleCreatedSchema,
    },
    errors: [404, 422],
    async handle({ use, params, body }) {
      return toReply(await createSchedule(use, params.workspaceId, params.tourId, body));
    },
  }),
  defineRoute({
    operationId: 'getSchedule',
    method: 'get',
    path: '/workspaces/{workspaceId}/tours/{tourId}/schedules/{scheduleId}',
    summary: 'Get a schedule',
    description: 'The schedule a departure names in `scheduleId`.',
    tags,
    access: { permission: 'read' },
    params: ScheduleParams,
    success: { status: 200, description: 'The schedule.', schema: ScheduleSchema },
    errors: [404],
    async handle({ use, params }) {
      return toReply(await getSchedule(use, params.workspaceId, params.tourId, params.scheduleId));
    },
  }),
  defineRoute({
    operationId: 'updateSchedule',
    method: 'patch',
    path: '/workspaces/{workspaceId}/tours/{tourId}/schedules/{scheduleId}',
    summary: 'Change a schedule and its future unbooked departures',
    description: `Every field is optional; the fields sent replace the schedule's (\`capacity: null\`: the tour's capacity). ${PATTERN} The schedule's future departures (those starting after now, not CANCELLED) are brought in line in one transaction: a missing start is generated (\`departuresCreated\`), an unbooked departure at a start the pattern keeps takes the new capacity (\`departuresUpdated\`), and an unbooked one at a start it no longer describes is deleted (\`departuresRemoved\`; cancelled instead when an incident names it). A departure with any booking (booked seats or a booking record, even a cancelled one), or no longer SCHEDULED or DELAYED, is left exactly as it is; its id is in \`departuresLeft\`. Hand edits of future unbooked departures (capacity, time) are overwritten; a departure cancelled by hand stays cancelled and its start is not generated again. Past departures never change. Departures are locked before they are judged, so a booking racing with the change either lands first (and its departure is left) or waits and finds the change made. ${RANGE_ERRORS} 422 \`schedule_cancelled\` on \`status\` for a deleted schedule; 404 for an unknown tour or schedule.`,
    tags,
    access: write,
    expensive: true,
    params: ScheduleParams,
    body: UpdateScheduleSchema,
    success: {
      status: 200,
      description: 'The changed schedule and what happened to its future departures.',
      schema: ScheduleUpdatedSchema,
    },
    errors: [404, 422],
    async handle({ use, params, body }) {
      return toReply(await updateSchedule(use, params.workspaceId, params.tourId, params.scheduleId, body));
    },
  }),
  defineRoute({
    operationId: 'deleteSchedule',
    method: 'delete',
    path: '/workspaces/{workspaceId}/tours/{tourId}/schedules/{scheduleId}',
    summary: 'Delete a schedule: cancel its future unbooked departures',
    description:
      'The schedule becomes CANCELLED (it stays readable, so the departures it made keep a `scheduleId` one can look up). Its future departures without any booking (no booked seats, no booking record) are CANCELLED (`departuresCancelled`); those with bookings stay as they are, their ids in `departuresLeft` (cancel them one by one once their guests are handled). Past departures never change. Departures are locked before they are judged: a booking racing with the delete either lands first (and its departure is left) or finds the departure cancelled. A second delete is 422 `schedule_cancelled` on `status`; an unknown tour or schedule is 404.',
    tags,
    access: write,
    expensive: true,
    params: ScheduleParams,
    success: {
      status: 200,
      description: 'The cancelled schedule and what happened to its future departures.',
      schema: ScheduleCancelledSchema,
    },
    errors: [404, 422],
    async handle({ use, params }) {
      return toReply(await cancelSchedule(use, params.workspaceId, params.tourId, params.scheduleId));
    },
  }),
];
