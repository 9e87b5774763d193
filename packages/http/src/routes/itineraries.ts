import {
  addItineraryItem,
  CreateItineraryItemSchema,
  CreateItinerarySchema,
  createItinerary,
  deleteItineraryItem,
  getItinerary,
  getPublicItinerary,
  ItineraryItemSchema,
  ItinerarySchema,
  ListItinerariesQuerySchema,
  listItineraries,
  PublicItinerarySchema,
  UpdateItineraryItemSchema,
  UpdateItinerarySchema,
  updateItinerary,
  updateItineraryItem,
} from '@travelops/domain/operations';
import { ok } from '@travelops/domain/shared';
import { DeletedSchema } from '@travelops/domain/webhooks';
import * as v from 'valibot';
import { defineRoute, toReply } from '../route.js';
import { PathId, WorkspaceParams } from './params.js';

const tags = ['Itineraries'];
const write = { permission: 'itineraries:write' } as const;
const ItineraryParams = v.object({ workspaceId: PathId, itineraryId: PathId });
const ItemParams = v.object({ workspaceId: PathId, itineraryId: PathId, itemId: PathId });

/** A traveller's link is a credential: never cached, never leaked through a Referer. */
const GUEST_HEADERS = { 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' };

export const itineraryRoutes = [
  defineRoute({
    operationId: 'listItineraries',
    method: 'get',
    path: '/workspaces/{workspaceId}/itineraries',
    summary: 'List itineraries by start date',
    description:
      '`from` and `to` (calendar dates, inclusive) keep trips overlapping those days; `customerId` one traveller\u2019s trips. Items are not included: get one itinerary for them.',
    tags,
    access: { permission: 'read' },
    params: WorkspaceParams,
    query: ListItinerariesQuerySchema,
    success: {
      status: 200,
      description: 'A page of itineraries.',
      schema: ItinerarySchema,
      list: 'paginated',
    },
    errors: [],
    async handle({ use, params, query, pageRequest, pageReply }) {
      const { from, to, customerId } = query;
      const filter = { ...(from && { from }), ...(to && { to }), ...(customerId && { customerId }) };
      return ok(pageReply(await listItineraries(use, params.workspaceId, filter, pageRequest())));
    },
  }),
  defineRoute({
    operationId: 'createItinerary',
    method: 'post',
    path: '/workspaces/{workspaceId}/itineraries',
    summary: 'Plan a trip for a customer',
    description:
      'An unknown customer is 422 `not_found` on `customerId`; `endsOn` before `startsOn` is 422 `before_start`. The answer carries `publicToken`, the traveller\u2019s link `/public/itineraries/{publicToken}`.',
    tags,
    access: write,
    params: WorkspaceParams,
    body: CreateItinerarySchema,
    idempotent: true,
    success: { status: 201, description: 'The itinerary.', schema: ItinerarySchema },
    errors: [422],
    async handle({ use, params, body }) {
      return toReply(await createItinerary(use, params.workspaceId, body));
    },
  }),
  defineRoute({
    operationId: 'getItinerary',
    method: 'get',
    path: '/workspaces/{workspaceId}/itineraries/{itineraryId}',
    summary: 'Get an itinerary with its items',
    description: 'Items are ordered by `startsAt`, then by creation.',
    tags,
    access: { permission: 'read' },
    params: ItineraryParams,
    success: { status: 200, description: 'The itinerary.', schema: ItinerarySchema },
    errors: [404],
    async handle({ use, params }) {
      return toReply(await getItinerary(use, params.workspaceId, params.itineraryId));
    },
  }),
  defineRoute({
    operationId: 'updateItinerary',
    method: 'patch',
    path: '/workspaces/{workspaceId}/itineraries/{itineraryId}',
    summary: 'Change an itinerary',
    description: 'Added beyond the spec. `notes` are internal and never shown to the traveller.',
    tags,
    access: write,
    params: ItineraryParams,
    body: UpdateItinerarySchema,
    success: { status: 200, description: 'The itinerary with its items.', schema: ItinerarySchema },
    errors: [404, 422],
    async handle({ use, params, body }) {
      return toReply(await updateItinerary(use, params.workspaceId, params.itineraryId, body));
    },
  }),
  defineRoute({
    operationId: 'createItineraryItem',
    method: 'post',
    path: '/workspaces/{workspaceId}/itineraries/{itineraryId}/items',
    summary: 'Add an item to an itinerary',
    description:
      '`startsAt` must fall on a day of the trip (UTC; 422 `outside_itinerary`); `endsAt` not before it (422 `before_start`). `bookingId` must be a booking of the itinerary\u2019s customer (422 `different_customer`; unknown 422 `not_found`). `description` is for the traveller, `operatorNotes` stay internal.',
    tags,
    access: write,
    params: ItineraryParams,
    body: CreateItineraryItemSchema,
    idempotent: true,
    success: { status: 201, description: 'The item.', schema: ItineraryItemSchema },
    errors: [404, 422],
    async handle({ use, params, body }) {
      return toReply(await addItineraryItem(use, params.workspaceId, params.itineraryId, body));
    },
  }),
  defineRoute({
    operationId: 'updateItineraryItem',
    method: 'patch',
    path: '/workspaces/{workspaceId}/itineraries/{itineraryId}/items/{itemId}',
    summary: 'Change an itinerary item',
    description: 'Added beyond the spec. The same rules as adding one.',
    tags,
    access: write,
    params: ItemParams,
    body: UpdateItineraryItemSchema,
    success: { status: 200, description: 'The item.', schema: ItineraryItemSchema },
    errors: [404, 422],
    async handle({ use, params, body }) {
      return toReply(
        await updateItineraryItem(use, params.workspaceId, params.itineraryId, params.itemId, body),
      );
    },
  }),
  defineRoute({
    operationId: 'deleteItineraryItem',
    method: 'delete',
    path: '/workspaces/{workspaceId}/itineraries/{itineraryId}/items/{itemId}',
    summary: 'Remove an itinerary item',
    description: 'Added beyond the spec.',
    tags,
    access: write,
    params: ItemParams,
    success: { status: 200, description: 'The deleted id.', schema: DeletedSchema },
    errors: [404],
    async handle({ use, params }) {
      return toReply(await deleteItineraryItem(use, params.workspaceId, params.itineraryId, params.itemId));
    },
  }),
  defineRoute({
    operationId: 'getPublicItinerary',
    method: 'get',
    path: '/public/itineraries/{publicToken}',
    summary: "A traveller's itinerary by its link",
    description:
      'No credential: the token is the access. Shows the trip, the traveller\u2019s name and the items as the traveller should see them: no ids, no operator notes, no internal notes; a linked booking shows only its status. Unknown tokens are 404.',
    tags: ['Public'],
    access: 'public',
    params: v.object({ publicToken: PathId }),
    success: { status: 200, description: 'The itinerary.', schema: PublicItinerarySchema },
    errors: [404],
    async handle({ use, params }) {
      const found = await getPublicItinerary(use, params.publicToken);
      return found.ok ? ok({ data: found.value, headers: GUEST_HEADERS }) : found;
    },
  }),
];
