import {
  CreateCustomerSchema,
  CustomerSchema,
  createCustomer,
  getCustomer,
  ListCustomersQuerySchema,
  listCustomers,
  UpdateCustomerSchema,
  updateCustomer,
} from '@travelops/domain/crm';
import { ok } from '@travelops/domain/shared';
import * as v from 'valibot';
import { defineRoute, toReply } from '../route.js';
import { PathId, WorkspaceParams } from './params.js';

const tags = ['Customers'];

export const customerRoutes = [
  defineRoute({
    operationId: 'listCustomers',
    method: 'get',
    path: '/workspaces/{workspaceId}/customers',
    summary: 'List customers, newest first',
    description: '`q` matches a case-insensitive substring of the name, e-mail or phone.',
    tags,
    access: { permission: 'read' },
    params: WorkspaceParams,
    query: ListCustomersQuerySchema,
    success: { status: 200, description: 'A page of customers.', schema: CustomerSchema, list: 'paginated' },
    errors: [],
    async handle({ use, params, query, pageRequest, pageReply }) {
      // The search text is part of the cursor's scope: a cursor continues the list it came from.
      const page = await listCustomers(use, params.workspaceId, query.q, pageRequest(query.q));
      return ok(pageReply(page, query.q));
    },
  }),
  defineRoute({
    operationId: 'createCustomer',
    method: 'post',
    path: '/workspaces/{workspaceId}/customers',
    summary: 'Create a customer',
    description:
      'E-mail addresses are unique per workspace, compared case-insensitively (409 `already_exists`).',
    tags,
    access: { permission: 'customers:write' },
    params: WorkspaceParams,
    body: CreateCustomerSchema,
    idempotent: true,
    success: { status: 201, description: 'The created customer.', schema: CustomerSchema },
    errors: [409],
    async handle({ use, params, body }) {
      return toReply(await createCustomer(use, params.workspaceId, body));
    },
  }),
  defineRoute({
    operationId: 'getCustomer',
    method: 'get',
    path: '/workspaces/{workspaceId}/customers/{customerId}',
    summary: 'Get a customer',
    tags,
    access: { permission: 'read' },
    params: v.object({ workspaceId: PathId, customerId: PathId }),
    success: { status: 200, description: 'The customer.', schema: CustomerSchema },
    errors: [404],
    async handle({ use, params }) {
      return toReply(await getCustomer(use, params.workspaceId, params.customerId));
    },
  }),
  defineRoute({
    operationId: 'updateCustomer',
    method: 'patch',
    path: '/workspaces/{workspaceId}/customers/{customerId}',
    summary: 'Change a customer',
    description:
      'Additive (not in the spec). Sets `name`, `phone`, `tags`, `marketingConsent` and `companyId`; only the fields sent change. `companyId` must be a company of this workspace (422 `not_found`); null detaches. The e-mail cannot change.',
    tags,
    access: { permission: 'customers:write' },
    params: v.object({ workspaceId: PathId, customerId: PathId }),
    body: UpdateCustomerSchema,
    success: { status: 200, description: 'The customer.', schema: CustomerSchema },
    errors: [404, 422],
    async handle({ use, params, body }) {
      return toReply(await updateCustomer(use, params.workspaceId, params.customerId, body));
    },
  }),
];
