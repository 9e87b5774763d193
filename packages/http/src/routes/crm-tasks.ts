import {
  CreateCrmTaskSchema,
  CrmTaskSchema,
  createCrmTask,
  deleteCrmTask,
  getCrmTask,
  ListCrmTasksQuerySchema,
  listCrmTasks,
  UpdateCrmTaskSchema,
  updateCrmTask,
} from '@travelops/domain/crm';
import { ok } from '@travelops/domain/shared';
import { DeletedSchema } from '@travelops/domain/webhooks';
import * as v from 'valibot';
import { defineRoute, toReply } from '../route.js';
import { PathId, WorkspaceParams } from './params.js';

const tags = ['CRM tasks'];
const write = { permission: 'crm:write' } as const;
const TaskParams = v.object({ workspaceId: PathId, taskId: PathId });
const LINKS =
  '`customerId`, `leadId`, `bookingId`, `companyId` and `assigneeId` must name records (a member, for the assignee) of this workspace: 422 `not_found` on that field otherwise.';

export const crmTaskRoutes = [
  defineRoute({
    operationId: 'listCrmTasks',
    method: 'get',
    path: '/workspaces/{workspaceId}/crm-tasks',
    summary: 'List CRM tasks, newest first',
    description:
      'Filters: `status`, `customerId`, `leadId`, and `from`/`to` (inclusive UTC calendar dates of `dueAt`; tasks without a due time are left out when either is set).',
    tags,
    access: { permission: 'read' },
    params: WorkspaceParams,
    query: ListCrmTasksQuerySchema,
    success: { status: 200, description: 'A page of tasks.', schema: CrmTaskSchema, list: 'paginated' },
    errors: [],
    async handle({ use, params, query, pageRequest, pageReply }) {
      const { limit: _l, cursor: _c, ...filter } = query;
      const scope = JSON.stringify(filter);
      return ok(pageReply(await listCrmTasks(use, params.workspaceId, filter, pageRequest(scope)), scope));
    },
  }),
  defineRoute({
    operationId: 'createCrmTask',
    method: 'post',
    path: '/workspaces/{workspaceId}/crm-tasks',
    summary: 'Create a CRM task',
    description: `Additive (the spec shows only the list). \`status\` defaults to OPEN, \`priority\` to NORMAL. ${LINKS}`,
    tags,
    access: write,
    params: WorkspaceParams,
    body: CreateCrmTaskSchema,
    idempotent: true,
    success: { status: 201, description: 'The created task.', schema: CrmTaskSchema },
    errors: [422],
    async handle({ use, params, body }) {
      return toReply(await createCrmTask(use, params.workspaceId, body));
    },
  }),
  defineRoute({
    operationId: 'getCrmTask',
    method: 'get',
    path: '/workspaces/{workspaceId}/crm-tasks/{taskId}',
    summary: 'Get a CRM task',
    description: 'Additive (the spec shows only the list).',
    tags,
    access: { permission: 'read' },
    params: TaskParams,
    success: { status: 200, description: 'The task.', schema: CrmTaskSchema },
    errors: [404],
    async handle({ use, params }) {
      return toReply(await getCrmTask(use, params.workspaceId, params.taskId));
    },
  }),
  defineRoute({
    operationId: 'updateCrmTask',
    method: 'patch',
    path: '/workspaces/{workspaceId}/crm-tasks/{taskId}',
    summary: 'Change, complete or cancel a CRM task',
    description: `Additive. Only the fields sent change; \`null\` clears a link. \`completedAt\` is set when the status becomes DONE and cleared when it leaves DONE. ${LINKS}`,
    tags,
    access: write,
    params: TaskParams,
    body: UpdateCrmTaskSchema,
    success: { status: 200, description: 'The task.', schema: CrmTaskSchema },
    errors: [404, 422],
    async handle({ use, params, body }) {
      return toReply(await updateCrmTask(use, params.workspaceId, params.taskId, body));
    },
  }),
  defineRoute({
    operationId: 'deleteCrmTask',
    method: 'delete',
    path: '/workspaces/{workspaceId}/crm-tasks/{taskId}',
    summary: 'Delete a CRM task',
    description: 'Additive.',
    tags,
    access: write,
    params: TaskParams,
    success: { status: 200, description: 'Deleted.', schema: DeletedSchema },
    errors: [404],
    async handle({ use, params }) {
      return toReply(await deleteCrmTask(use, params.workspaceId, params.taskId));
    },
  }),
];
