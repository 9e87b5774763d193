import {
  CustomerExportSchema,
  EraseCustomerSchema,
  ErasureReportSchema,
  eraseCustomer,
  exportCustomerData,
} from '@travelops/domain/crm';
import * as v from 'valibot';
import { defineRoute, toReply } from '../route.js';
import { PathId } from './params.js';

// Decisions §13: a customer's personal data, exported whole or erased; ADMIN only.
const tags = ['Customers'];
const access = { permission: 'personal-data:manage' } as const;
const CustomerParams = v.object({ workspaceId: PathId, customerId: PathId });

export const personalDataRoutes = [
  defineRoute({
    operationId: 'exportCustomerData',
    method: 'get',
    path: '/workspaces/{workspaceId}/customers/{customerId}/export',
    summary: 'Export everything held about a customer (ADMIN)',
    description:
      'Additive. The customer, their consents (marketing, guest e-mail opt-outs), every booking with its participants, the guest e-mails kept, notes, CRM tasks, their leads (converted into them or with their e-mail), itineraries and the contacts OCTO resellers sent (docs/data.md). ADMIN only (`personal-data:manage`).',
    tags,
    access,
    params: CustomerParams,
    success: {
      status: 200,
      description: 'Everything held about the customer.',
      schema: CustomerExportSchema,
    },
    errors: [404],
    async handle({ use, params }) {
      return toReply(await exportCustomerData(use, params.workspaceId, params.customerId));
    },
  }),
  defineRoute({
    operationId: 'eraseCustomer',
    method: 'post',
    path: '/workspaces/{workspaceId}/customers/{customerId}/erase',
    summary: "Erase a customer's personal data (ADMIN)",
    description:
      "Additive. Replaces the customer's personal data with neutral values wherever it is held (the customer, their bookings' participants, notes and messages, guest e-mails kept, notes, tasks, leads, itineraries, OCTO contacts, outbox payloads, idempotent answers); amounts, dates, statuses and seats stay, so reports and seat counts hold (docs/data.md). 422 `upcoming_bookings` on `cancelUpcoming` while a live booking is still to start, naming them; with `cancelUpcoming: true` those are cancelled first (seats released, no e-mail to the guest). Erasing again changes nothing (`alreadyErased: true`). ADMIN only (`personal-data:manage`).",
    tags,
    access,
    params: CustomerParams,
    body: v.optional(EraseCustomerSchema, {}),
    idempotent: true,
    success: { status: 200, description: 'What the erasure did.', schema: ErasureReportSchema },
    errors: [404, 422],
    async handle({ use, params, body, actor }) {
      return toReply(
        await eraseCustomer(use, { workspaceId: params.workspaceId, actor }, params.customerId, body),
      );
    },
  }),
];
