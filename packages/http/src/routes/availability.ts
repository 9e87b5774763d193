import {
  AvailabilitySchema,
  CreateAvailabilitySchema,
  createDeparture,
  ListAvailabilityQuerySchema,
  listDepartures,
  UpdateAvailabilitySchema,
} from '@travelops/domain/catalog';
import {
  DepartureHistoryEntrySchema,
  listDepartureHistory,
  updateDeparture,
} from '@travelops/domain/operations';
import { ok } from '@travelops/domain/shared';
import * as v from 'valibot';
import { defineRoute, toReply } from '../route.js';
import { PathId, WorkspaceParams } from './params.js';

const tags = ['Availability'];

export const availabilityRoutes = [
  defineRoute({
    operationId: 'listAvailability',
    method: 'get',
    path: '/workspaces/{workspaceId}/availability',
    summary: 'List departures by start time',
    description:
      "`from` and `to` are UTC calendar dates, both inclusive, on `startsAt`; `tourId` narrows to one tour. Ordered by `startsAt` ascending. Each departure carries `salesStatus`, computed when read: CLOSED when a guest cannot book it (not SCHEDULED or DELAYED, started, past `bookingCutoffAt`, or on a blackout day: the tour's own or workspace-wide, on the departure's local day in the tour's `timeZone`), else SOLD_OUT without a seat left, LIMITED with at most 3 seats or 20 % of the capacity left (whichever is more; 4 of 22 is LIMITED, 5 is not), else AVAILABLE.",
    tags,
    access: { permission: 'read' },
    params: WorkspaceParams,
    query: ListAvailabilityQuerySchema,
    success: {
      status: 200,
      description: 'A page of departures.',
      schema: AvailabilitySchema,
      list: 'paginated',
    },
    errors: [],
    async handle({ use, params, query, pageRequest, pageReply }) {
      const { from, to, tourId } = query;
      const filter = { ...(from && { from }), ...(to && { to }), ...(tourId && { tourId }) };
      const page = await listDepartures(use, params.workspaceId, filter, pageRequest());
      return ok(pageReply(page));
    },
  }),
  defineRoute({
    operationId: 'createAvailability',
    method: 'post',
    path: '/workspaces/{workspaceId}/availability',
    summary: 'Schedule a departure of a tour',
    description:
      "`capacity` defaults to the tour's capacity. A departure is bookable while SCHEDULED or DELAYED, before `bookingCutoffAt` and `startsAt`, and not on a blackout day; the answer carries its `salesStatus` (see listAvailability).",
    tags,
    access: { permission: 'availability:write' },
    params: WorkspaceParams,
    body: CreateAvailabilitySchema,
    idempotent: true,
    success: { status: 201, description: 'The created departure.', schema: AvailabilitySchema },
    errors: [422],
    async handle({ use, params, body }) {
      return toReply(await createDeparture(use, params.workspaceId, body));
    },
  }),
  defineRoute({
    operationId: 'updateAvailability',
    method: 'patch',
    path: '/workspaces/{workspaceId}/availability/{availabilityId}',
    summary: 'Update a departure',
    description:
      "Status moves: SCHEDULED/DELAYED -> SCHEDULED, DELAYED, BOARDING, DEPARTED, CANCELLED; BOARDING -> DELAYED, DEPARTED, CANCELLED; DEPARTED -> COMPLETED; COMPLETED and CANCELLED are final (else 422 `invalid_transition`). Capacity cannot drop below booked seats (422 `below_booked_seats`). Only a SCHEDULED or DELAYED departure can move in time. Assignments: `guideId` (a member with an active guide profile), `driverId` (any member) and `vehicleId` (an ACTIVE vehicle), each nullable to unassign. A departure occupies them from `startsAt` for the tour `durationMinutes`; overlapping time-off is 422 `guide_unavailable_time_off` (`driver_...` for the driver), another overlapping departure 422 `guide_double_booked` / `driver_double_booked` / `vehicle_double_booked`, too few seats 422 `vehicle_too_small`, a vehicle not ACTIVE 422 `vehicle_unavailable`, an unknown id 422 `not_found` on its field. Checked again when `startsAt` or `capacity` changes. `force: true` (ADMIN only, else 403) lets a guide's or driver's overlap or time off stand, each recorded on the departure's history. `resourceIds` replaces its resources (docs/resources.md): an EXCLUSIVE one on an overlapping departure is 422 `resource_double_booked`, seats already sold beyond a SHARED_SEATS one 422 `resource_full`. The answer carries its `salesStatus` (see listAvailability).",
    tags,
    access: { permission: 'availability:write' },
    params: v.object({ workspaceId: PathId, availabilityId: PathId }),
    body: UpdateAvailabilitySchema,
    success: { status: 200, description: 'The updated departure.', schema: AvailabilitySchema },
    errors: [403, 404, 409, 422],
    async handle({ use, params, body, actor, principal }) {
      const by = { actor, admin: principal?.role === 'ADMIN' };
      return toReply(await updateDeparture(use, params.workspaceId, params.availabilityId, body, by));
    },
  }),
  defineRoute({
    operationId: 'listAvailabilityHistory',
    method: 'get',
    path: '/workspaces/{workspaceId}/availability/{availabilityId}/history',
    summary: "A departure's history",
    description:
      'Added beyond the spec. The assignment rules an ADMIN overrode on it (`force: true`), oldest first.',
    tags,
    access: { permission: 'read' },
    params: v.object({ workspaceId: PathId, availabilityId: PathId }),
    success: { status: 200, description: 'Its entries.', schema: DepartureHistoryEntrySchema, list: 'plain' },
    errors: [404],
    async handle({ use, params }) {
      return toReply(await listDepartureHistory(use, params.workspaceId, params.availabilityId));
    },
  }),
];
