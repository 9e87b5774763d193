import {
  CreateTourSchema,
  createTour,
  getTour,
  listTours,
  TourSchema,
  UpdateTourSchema,
  updateTour,
} from '@travelops/domain/catalog';
import { ok } from '@travelops/domain/shared';
import * as v from 'valibot';
import { defineRoute, toReply } from '../route.js';
import { PageQuery, PathId, WorkspaceParams } from './params.js';

const TourParams = v.object({ workspaceId: PathId, tourId: PathId });
const tags = ['Tours'];

export const tourRoutes = [
  defineRoute({
    operationId: 'listTours',
    method: 'get',
    path: '/workspaces/{workspaceId}/tours',
    summary: 'List tours, newest first',
    tags,
    access: { permission: 'read' },
    params: WorkspaceParams,
    query: PageQuery,
    success: { status: 200, description: 'A page of tours.', schema: TourSchema, list: 'paginated' },
    errors: [],
    async handle({ use, params, pageRequest, pageReply }) {
      return ok(pageReply(await listTours(use, params.workspaceId, pageRequest())));
    },
  }),
  defineRoute({
    operationId: 'createTour',
    method: 'post',
    path: '/workspaces/{workspaceId}/tours',
    summary: 'Create a tour',
    description:
      'The slug is derived from the name when not given (with a random suffix if taken); a slug sent and already taken is 409. `depositPercent` (default 20) sets the deposit of DEPOSIT bookings.',
    tags,
    access: { permission: 'tours:write' },
    params: WorkspaceParams,
    body: CreateTourSchema,
    idempotent: true,
    success: { status: 201, description: 'The created tour.', schema: TourSchema },
    errors: [409],
    async handle({ use, params, body }) {
      return toReply(await createTour(use, params.workspaceId, body));
    },
  }),
  defineRoute({
    operationId: 'getTour',
    method: 'get',
    path: '/workspaces/{workspaceId}/tours/{tourId}',
    summary: 'Get a tour',
    tags,
    access: { permission: 'read' },
    params: TourParams,
    success: { status: 200, description: 'The tour.', schema: TourSchema },
    errors: [404],
    async handle({ use, params }) {
      return toReply(await getTour(use, params.workspaceId, params.tourId));
    },
  }),
  defineRoute({
    operationId: 'updateTour',
    method: 'patch',
    path: '/workspaces/{workspaceId}/tours/{tourId}',
    summary: 'Update a tour',
    description:
      'Every field is optional; only the fields sent change. Existing departures keep their capacity.',
    tags,
    access: { permission: 'tours:write' },
    params: TourParams,
    body: UpdateTourSchema,
    success: { status: 200, description: 'The updated tour.', schema: TourSchema },
    errors: [404, 409],
    async handle({ use, params, body }) {
      return toReply(await updateTour(use, params.workspaceId, params.tourId, body));
    },
  }),
];
