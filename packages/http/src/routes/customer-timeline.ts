import {
  addCustomerNote,
  CreateCustomerNoteSchema,
  CustomerNoteSchema,
  getCustomerTimeline,
  TimelineEntrySchema,
} from '@travelops/domain/crm';
import { ok, PageQuerySchema } from '@travelops/domain/shared';
import * as v from 'valibot';
import { defineRoute, toReply } from '../route.js';
import { PathId } from './params.js';

const tags = ['Customers'];
const CustomerParams = v.object({ workspaceId: PathId, customerId: PathId });

export const customerTimelineRoutes = [
  defineRoute({
    operationId: 'getCustomerTimeline',
    method: 'get',
    path: '/workspaces/{workspaceId}/customers/{customerId}/timeline',
    summary: "A customer's timeline, newest first",
    description:
      "Everything that happened with the customer, merged newest first (ties broken by id): `booking.created`, `booking.status_changed`, `payment.succeeded`, `payment.refunded`, `note`, `crm_task` (tasks linked to the customer, at their creation) and `incident` (incidents on the customer's bookings, at `occurredAt`). Each entry has `summary` (one line) and `data` (the type's fields). New entry types may be added; clients ignore types they do not know.",
    tags,
    access: { permission: 'read' },
    params: CustomerParams,
    query: PageQuerySchema,
    success: {
      status: 200,
      description: 'A page of timeline entries.',
      schema: TimelineEntrySchema,
      list: 'paginated',
    },
    errors: [404],
    async handle({ use, params, pageRequest, pageReply }) {
      const page = await getCustomerTimeline(
        use,
        params.workspaceId,
        params.customerId,
        pageRequest(params.customerId),
      );
      return page.ok ? ok(pageReply(page.value, params.customerId)) : page;
    },
  }),
  defineRoute({
    operationId: 'createCustomerNote',
    method: 'post',
    path: '/workspaces/{workspaceId}/customers/{customerId}/notes',
    summary: 'Add a note to a customer',
    description: "Additive. The note appears on the customer's timeline; its author is the calling token.",
    tags,
    access: { permission: 'crm:write' },
    params: CustomerParams,
    body: CreateCustomerNoteSchema,
    idempotent: true,
    success: { status: 201, description: 'The note.', schema: CustomerNoteSchema },
    errors: [404],
    async handle({ use, params, body, actor }) {
      return toReply(await addCustomerNote(use, params.workspaceId, params.customerId, body.body, actor));
    },
  }),
];
