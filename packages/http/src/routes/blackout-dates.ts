import {
  BlackoutDateSchema,
  CreateBlackoutDateSchema,
  createBlackoutDate,
  deleteBlackoutDate,
  ListBlackoutDatesQuerySchema,
  listBlackoutDates,
} from '@travelops/domain/operations';
import { ok } from '@travelops/domain/shared';
import { DeletedSchema } from '@travelops/domain/webhooks';
import * as v from 'valibot';
import { defineRoute, toReply } from '../route.js';
import { PathId, WorkspaceParams } from './params.js';

const tags = ['Blackout dates'];
// Closing days is day-to-day operations work, like scheduling departures.
const write = { permission: 'availability:write' } as const;

export const blackoutDateRoutes = [
  defineRoute({
    operationId: 'listBlackoutDates',
    method: 'get',
    path: '/workspaces/{workspaceId}/blackout-dates',
    summary: 'List blackout dates by date',
    description:
      '`from` and `to` are calendar dates, both inclusive. `tourId` keeps the days that close that tour: its own and the workspace-wide ones. Ordered by `date` ascending.',
    tags,
    access: { permission: 'read' },
    params: WorkspaceParams,
    query: ListBlackoutDatesQuerySchema,
    success: {
      status: 200,
      description: 'A page of blackout dates.',
      schema: BlackoutDateSchema,
      list: 'paginated',
    },
    errors: [],
    async handle({ use, params, query, pageRequest, pageReply }) {
      const { from, to, tourId } = query;
      const filter = { ...(from && { from }), ...(to && { to }), ...(tourId && { tourId }) };
      return ok(pageReply(await listBlackoutDates(use, params.workspaceId, filter, pageRequest())));
    },
  }),
  defineRoute({
    operationId: 'createBlackoutDate',
    method: 'post',
    path: '/workspaces/{workspaceId}/blackout-dates',
    summary: 'Close a day for bookings',
    description:
      'Added beyond the spec (which shows only the list). Without `tourId` every tour is closed that day. No departure whose `startsAt` falls on the date in the `timeZone` of its tour (UTC by default) is bookable: its `salesStatus` is CLOSED, public availability hides it, the public calendar shows the day CLOSED, and creating a booking on it answers 422 `blackout_date` on `availabilityId`. Existing bookings are kept. The same day twice in one scope is 409 `already_exists`; an unknown tour 422 `not_found`.',
    tags,
    access: write,
    params: WorkspaceParams,
    body: CreateBlackoutDateSchema,
    idempotent: true,
    success: { status: 201, description: 'The blackout date.', schema: BlackoutDateSchema },
    errors: [409, 422],
    async handle({ use, params, body }) {
      return toReply(await createBlackoutDate(use, params.workspaceId, body));
    },
  }),
  defineRoute({
    operationId: 'deleteBlackoutDate',
    method: 'delete',
    path: '/workspaces/{workspaceId}/blackout-dates/{blackoutDateId}',
    summary: 'Reopen a blackout date',
    description: 'Added beyond the spec. Departures on that day become bookable again.',
    tags,
    access: write,
    params: v.object({ workspaceId: PathId, blackoutDateId: PathId }),
    success: { status: 200, description: 'The deleted id.', schema: DeletedSchema },
    errors: [404],
    async handle({ use, params }) {
      return toReply(await deleteBlackoutDate(use, params.workspaceId, params.blackoutDateId));
    },
  }),
];
