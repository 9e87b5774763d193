import {
  ConvertLeadSchema,
  CreateLeadSchema,
  CustomerSchema,
  convertLead,
  createLead,
  deleteLead,
  getLead,
  LeadSchema,
  ListLeadsQuerySchema,
  listLeads,
  UpdateLeadSchema,
  updateLead,
} from '@travelops/domain/crm';
import { ok } from '@travelops/domain/shared';
import { DeletedSchema } from '@travelops/domain/webhooks';
import * as v from 'valibot';
import { defineRoute, toReply } from '../route.js';
import { PathId, WorkspaceParams } from './params.js';

const tags = ['Leads'];
const write = { permission: 'crm:write' } as const;
const LeadParams = v.object({ workspaceId: PathId, leadId: PathId });

export const LeadConversionSchema = v.object({
  lead: LeadSchema,
  customer: CustomerSchema,
  /** False when a customer with the lead's e-mail already existed and was linked. */
  customerCreated: v.boolean(),
});

export const leadRoutes = [
  defineRoute({
    operationId: 'listLeads',
    method: 'get',
    path: '/workspaces/{workspaceId}/leads',
    summary: 'List leads, newest first',
    description:
      '`status` filters on the lead status; `q` matches a case-insensitive substring of the name, e-mail or phone.',
    tags,
    access: { permission: 'read' },
    params: WorkspaceParams,
    query: ListLeadsQuerySchema,
    success: { status: 200, description: 'A page of leads.', schema: LeadSchema, list: 'paginated' },
    errors: [],
    async handle({ use, params, query, pageRequest, pageReply }) {
      const filter = { ...(query.status && { status: query.status }), ...(query.q && { q: query.q }) };
      // The filter is part of the cursor's scope: a cursor continues the list it came from.
      const scope = JSON.stringify(filter);
      return ok(pageReply(await listLeads(use, params.workspaceId, filter, pageRequest(scope)), scope));
    },
  }),
  defineRoute({
    operationId: 'createLead',
    method: 'post',
    path: '/workspaces/{workspaceId}/leads',
    summary: 'Create a lead',
    description:
      'Additive (the spec shows only the list). `status` defaults to NEW (CONVERTED only through the convert operation), `source` to OTHER. `estimatedValue` (minor units) needs `currency`. `companyId` and `ownerId` must name a company and a member of this workspace (422 `not_found`).',
    tags,
    access: write,
    params: WorkspaceParams,
    body: CreateLeadSchema,
    idempotent: true,
    success: { status: 201, description: 'The created lead.', schema: LeadSchema },
    errors: [422],
    async handle({ use, params, body }) {
      return toReply(await createLead(use, params.workspaceId, body));
    },
  }),
  defineRoute({
    operationId: 'getLead',
    method: 'get',
    path: '/workspaces/{workspaceId}/leads/{leadId}',
    summary: 'Get a lead',
    description: 'Additive (the spec shows only the list).',
    tags,
    access: { permission: 'read' },
    params: LeadParams,
    success: { status: 200, description: 'The lead.', schema: LeadSchema },
    errors: [404],
    async handle({ use, params }) {
      return toReply(await getLead(use, params.workspaceId, params.leadId));
    },
  }),
  defineRoute({
    operationId: 'updateLead',
    method: 'patch',
    path: '/workspaces/{workspaceId}/leads/{leadId}',
    summary: 'Change a lead or move its status',
    description:
      'Additive. Status moves: NEW -> CONTACTED, QUALIFIED or LOST; CONTACTED -> QUALIFIED or LOST; QUALIFIED -> CONTACTED or LOST; LOST -> NEW (reopen). Anything else is 422 `invalid_transition`; CONVERTED is 422 `use_convert` (use the convert operation) and final.',
    tags,
    access: write,
    params: LeadParams,
    body: UpdateLeadSchema,
    success: { status: 200, description: 'The lead.', schema: LeadSchema },
    errors: [404, 422],
    async handle({ use, params, body }) {
      return toReply(await updateLead(use, params.workspaceId, params.leadId, body));
    },
  }),
  defineRoute({
    operationId: 'deleteLead',
    method: 'delete',
    path: '/workspaces/{workspaceId}/leads/{leadId}',
    summary: 'Delete a lead',
    description: 'Additive. Tasks linked to the lead are kept; their `leadId` becomes null.',
    tags,
    access: write,
    params: LeadParams,
    success: { status: 200, description: 'Deleted.', schema: DeletedSchema },
    errors: [404],
    async handle({ use, params }) {
      return toReply(await deleteLead(use, params.workspaceId, params.leadId));
    },
  }),
  defineRoute({
    operationId: 'convertLead',
    method: 'post',
    path: '/workspaces/{workspaceId}/leads/{leadId}/convert',
    summary: 'Convert a lead into a customer',
    description:
      "Additive. Finds the workspace's customer with the lead's e-mail (case-insensitive) or creates one from the lead's name, e-mail and phone (with the body's `tags` and `marketingConsent`), gives that customer the lead's company if they have none, and marks the lead CONVERTED with `convertedCustomerId`. 422: the lead has no e-mail (`email` `required`), is LOST (`status` `invalid_transition`) or already CONVERTED (`status` `already_converted`).",
    tags,
    access: write,
    params: LeadParams,
    body: v.optional(ConvertLeadSchema, {}),
    idempotent: true,
    success: {
      status: 200,
      description: 'The converted lead and its customer.',
      schema: LeadConversionSchema,
    },
    errors: [404, 422],
    async handle({ use, params, body }) {
      return toReply(await convertLead(use, params.workspaceId, params.leadId, body));
    },
  }),
];
