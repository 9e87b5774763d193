import {
  CreateResourceSchema,
  ListResourcesQuerySchema,
  ResourceSchema,
  UpdateResourceSchema,
} from '@travelops/domain/catalog';
import {
  createResource,
  deleteResource,
  getResource,
  getResourceCalendar,
  listResources,
  ResourceCalendarQuerySchema,
  ResourceCalendarSchema,
  updateResource,
} from '@travelops/domain/operations';
import { ok } from '@travelops/domain/shared';
import { DeletedSchema } from '@travelops/domain/webhooks';
import * as v from 'valibot';
import { defineRoute, toReply } from '../route.js';
import { PathId, WorkspaceParams } from './params.js';

// Resources are run by operations staff, like vehicles and departures (docs/resources.md).
const write = { permission: 'availability:write' } as const;
const read = { permission: 'read' } as const;
const ResourceParams = v.object({ workspaceId: PathId, resourceId: PathId });

export const resourceRoutes = [
  defineRoute({
    operationId: 'getResourceCalendar',
    method: 'get',
    path: '/workspaces/{workspaceId}/resource-calendar',
    summary: 'A day of resources and guides at a glance',
    description:
      "Added beyond the spec (docs/resources.md). For the local day `date` in `timeZone` (IANA, default UTC): per resource and per active guide, the departures (not cancelled) overlapping it, with seats booked, the seats used on the resource over the departures overlapping each (turnaround included) and its seats, conflicts marked (an EXCLUSIVE resource or a person on two at once, a SHARED_SEATS one over its seats, time off); and each guide's time off.",
    tags: ['Resources'],
    access: read,
    params: WorkspaceParams,
    query: ResourceCalendarQuerySchema,
    success: { status: 200, description: 'The day.', schema: ResourceCalendarSchema },
    errors: [],
    async handle({ use, params, query }) {
      return toReply(await getResourceCalendar(use, params.workspaceId, query));
    },
  }),
  defineRoute({
    operationId: 'listResources',
    method: 'get',
    path: '/workspaces/{workspaceId}/resources',
    summary: 'List resources, newest first',
    description:
      'Added beyond the spec. Vehicles are resources too (kind VEHICLE, EXCLUSIVE, under their ids).',
    tags: ['Resources'],
    access: read,
    params: WorkspaceParams,
    query: ListResourcesQuerySchema,
    success: { status: 200, description: 'A page of resources.', schema: ResourceSchema, list: 'paginated' },
    errors: [],
    async handle({ use, params, query, pageRequest, pageReply }) {
      const filter = query.kind ? { kind: query.kind } : {};
      return ok(pageReply(await listResources(use, params.workspaceId, filter, pageRequest())));
    },
  }),
  defineRoute({
    operationId: 'createResource',
    method: 'post',
    path: '/workspaces/{workspaceId}/resources',
    summary: 'Add a resource',
    description:
      'Added beyond the spec. `sharing` defaults to EXCLUSIVE; SHARED_SEATS needs `seats` (400 `required_for_shared_seats`).',
    tags: ['Resources'],
    access: write,
    params: WorkspaceParams,
    body: CreateResourceSchema,
    idempotent: true,
    success: { status: 201, description: 'The resource.', schema: ResourceSchema },
    errors: [],
    async handle({ use, params, body }) {
      return toReply(await createResource(use, params.workspaceId, body));
    },
  }),
  defineRoute({
    operationId: 'getResource',
    method: 'get',
    path: '/workspaces/{workspaceId}/resources/{resourceId}',
    summary: 'Get a resource',
    tags: ['Resources'],
    access: read,
    params: ResourceParams,
    success: { status: 200, description: 'The resource.', schema: ResourceSchema },
    errors: [404],
    async handle({ use, params }) {
      return toReply(await getResource(use, params.workspaceId, params.resourceId));
    },
  }),
  defineRoute({
    operationId: 'updateResource',
    method: 'patch',
    path: '/workspaces/{workspaceId}/resources/{resourceId}',
    summary: 'Change a resource',
    description:
      'Added beyond the spec. Fewer seats, a longer turnaround or sharing turned on must leave no departure oversold (422 `below_sold`, `details[0].availabilityIds` naming them). A vehicle is changed through /vehicles (422 `vehicle_resource`).',
    tags: ['Resources'],
    access: write,
    params: ResourceParams,
    body: UpdateResourceSchema,
    success: { status: 200, description: 'The resource.', schema: ResourceSchema },
    errors: [404, 422],
    async handle({ use, params, body }) {
      return toReply(await updateResource(use, params.workspaceId, params.resourceId, body));
    },
  }),
  defineRoute({
    operationId: 'deleteResource',
    method: 'delete',
    path: '/workspaces/{workspaceId}/resources/{resourceId}',
    summary: 'Remove a resource',
    description:
      'Added beyond the spec. A resource still on a departure that is not COMPLETED or CANCELLED is 422 `resource_in_use` (`details[0].availabilityIds`): unassign it, or set `active: false`.',
    tags: ['Resources'],
    access: write,
    params: ResourceParams,
    success: { status: 200, description: 'The deleted id.', schema: DeletedSchema },
    errors: [404, 422],
    async handle({ use, params }) {
      return toReply(await deleteResource(use, params.workspaceId, params.resourceId));
    },
  }),
];
