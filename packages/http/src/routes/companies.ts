import {
  CompanySchema,
  CreateCompanySchema,
  createCompany,
  deleteCompany,
  getCompany,
  ListCompaniesQuerySchema,
  listCompanies,
  UpdateCompanySchema,
  updateCompany,
} from '@travelops/domain/crm';
import { ok } from '@travelops/domain/shared';
import { DeletedSchema } from '@travelops/domain/webhooks';
import * as v from 'valibot';
import { defineRoute, toReply } from '../route.js';
import { PathId, WorkspaceParams } from './params.js';

const tags = ['Companies'];
const write = { permission: 'crm:write' } as const;
const CompanyParams = v.object({ workspaceId: PathId, companyId: PathId });

export const companyRoutes = [
  defineRoute({
    operationId: 'listCompanies',
    method: 'get',
    path: '/workspaces/{workspaceId}/companies',
    summary: 'List companies, newest first',
    description: '`q` matches a case-insensitive substring of the name or domain.',
    tags,
    access: { permission: 'read' },
    params: WorkspaceParams,
    query: ListCompaniesQuerySchema,
    success: { status: 200, description: 'A page of companies.', schema: CompanySchema, list: 'paginated' },
    errors: [],
    async handle({ use, params, query, pageRequest, pageReply }) {
      const page = await listCompanies(use, params.workspaceId, query.q, pageRequest(query.q));
      return ok(pageReply(page, query.q));
    },
  }),
  defineRoute({
    operationId: 'createCompany',
    method: 'post',
    path: '/workspaces/{workspaceId}/companies',
    summary: 'Create a company',
    description:
      'Additive (the spec shows only the list). A B2B account: agency, school, corporate client. `domain` is stored lower-case and unique per workspace (409 `already_exists`).',
    tags,
    access: write,
    params: WorkspaceParams,
    body: CreateCompanySchema,
    idempotent: true,
    success: { status: 201, description: 'The created company.', schema: CompanySchema },
    errors: [409],
    async handle({ use, params, body }) {
      return toReply(await createCompany(use, params.workspaceId, body));
    },
  }),
  defineRoute({
    operationId: 'getCompany',
    method: 'get',
    path: '/workspaces/{workspaceId}/companies/{companyId}',
    summary: 'Get a company',
    description: 'Additive (the spec shows only the list).',
    tags,
    access: { permission: 'read' },
    params: CompanyParams,
    success: { status: 200, description: 'The company.', schema: CompanySchema },
    errors: [404],
    async handle({ use, params }) {
      return toReply(await getCompany(use, params.workspaceId, params.companyId));
    },
  }),
  defineRoute({
    operationId: 'updateCompany',
    method: 'patch',
    path: '/workspaces/{workspaceId}/companies/{companyId}',
    summary: 'Change a company',
    description: 'Additive. Only the fields sent change; `null` clears an optional field.',
    tags,
    access: write,
    params: CompanyParams,
    body: UpdateCompanySchema,
    success: { status: 200, description: 'The company.', schema: CompanySchema },
    errors: [404, 409],
    async handle({ use, params, body }) {
      return toReply(await updateCompany(use, params.workspaceId, params.companyId, body));
    },
  }),
  defineRoute({
    operationId: 'deleteCompany',
    method: 'delete',
    path: '/workspaces/{workspaceId}/companies/{companyId}',
    summary: 'Delete a company',
    description:
      'Additive. Customers, leads and tasks that named the company are kept; their `companyId` becomes null.',
    tags,
    access: write,
    params: CompanyParams,
    success: { status: 200, description: 'Deleted.', schema: DeletedSchema },
    errors: [404],
    async handle({ use, params }) {
      return toReply(await deleteCompany(use, params.workspaceId, params.companyId));
    },
  }),
];
