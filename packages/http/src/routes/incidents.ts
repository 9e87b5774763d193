import {
  CreateIncidentSchema,
  createIncident,
  getIncident,
  IncidentSchema,
  ListIncidentsQuerySchema,
  listIncidents,
  UpdateIncidentSchema,
  updateIncident,
} from '@travelops/domain/operations';
import { ok } from '@travelops/domain/shared';
import * as v from 'valibot';
import { defineRoute, toReply } from '../route.js';
import { PathId, WorkspaceParams } from './params.js';

const tags = ['Incidents'];
const write = { permission: 'incidents:write' } as const;
const IncidentParams = v.object({ workspaceId: PathId, incidentId: PathId });

export const incidentRoutes = [
  defineRoute({
    operationId: 'listIncidents',
    method: 'get',
    path: '/workspaces/{workspaceId}/incidents',
    summary: 'List incidents, most recent first',
    description:
      'Ordered by `occurredAt` descending. `from` and `to` are UTC calendar dates of `occurredAt`, both inclusive; `severity` and `status` filter exactly.',
    tags,
    access: { permission: 'read' },
    params: WorkspaceParams,
    query: ListIncidentsQuerySchema,
    success: { status: 200, description: 'A page of incidents.', schema: IncidentSchema, list: 'paginated' },
    errors: [],
    async handle({ use, params, query, pageRequest, pageReply }) {
      const { from, to, severity, status } = query;
      const filter = {
        ...(from && { from }),
        ...(to && { to }),
        ...(severity && { severity }),
        ...(status && { status }),
      };
      return ok(pageReply(await listIncidents(use, params.workspaceId, filter, pageRequest())));
    },
  }),
  defineRoute({
    operationId: 'createIncident',
    method: 'post',
    path: '/workspaces/{workspaceId}/incidents',
    summary: 'Report an incident',
    description:
      'Starts OPEN. `availabilityId` and `bookingId` are optional and must name records of this workspace (422 `not_found` on the field); with both, the booking must be on that departure (422 `different_departure`); a booking alone also fills in its departure. `reportedBy` defaults to the token id. HIGH and CRITICAL incidents emit the webhook event `incident.created`, in the same transaction.',
    tags,
    access: write,
    params: WorkspaceParams,
    body: CreateIncidentSchema,
    idempotent: true,
    success: { status: 201, description: 'The incident.', schema: IncidentSchema },
    errors: [422],
    async handle({ use, params, body, actor }) {
      return toReply(await createIncident(use, params.workspaceId, actor, body));
    },
  }),
  defineRoute({
    operationId: 'getIncident',
    method: 'get',
    path: '/workspaces/{workspaceId}/incidents/{incidentId}',
    summary: 'Get an incident',
    tags,
    access: { permission: 'read' },
    params: IncidentParams,
    success: { status: 200, description: 'The incident.', schema: IncidentSchema },
    errors: [404],
    async handle({ use, params }) {
      return toReply(await getIncident(use, params.workspaceId, params.incidentId));
    },
  }),
  defineRoute({
    operationId: 'updateIncident',
    method: 'patch',
    path: '/workspaces/{workspaceId}/incidents/{incidentId}',
    summary: 'Move an incident through its status, or correct it',
    description:
      'Added beyond the spec. OPEN, INVESTIGATING and RESOLVED move freely (reopening included); CLOSED is final (422 `invalid_transition`). `resolvedAt` is set on the first move to RESOLVED or CLOSED and cleared on reopening.',
    tags,
    access: write,
    params: IncidentParams,
    body: UpdateIncidentSchema,
    success: { status: 200, description: 'The incident.', schema: IncidentSchema },
    errors: [404, 422],
    async handle({ use, params, body }) {
      return toReply(await updateIncident(use, params.workspaceId, params.incidentId, body));
    },
  }),
];
