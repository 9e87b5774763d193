import { notFound } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import type { PageRequest } from '../shared/ports.js';
import { fail, ok, type Result } from '../shared/result.js';
import type { CrmDeps, CrmTaskFilter, CrmTaskPatch } from './ports.js';
import { checkReferences, deleted, sent } from './references.js';
import { taskCompletion } from './rules.js';
import type { CreateCrmTaskInput, CrmTask, UpdateCrmTaskInput } from './schemas.js';

// CRM tasks.

const taskReferences = (input: UpdateCrmTaskInput) =>
  [
    ['customerId', 'customer', input.customerId],
    ['leadId', 'lead', input.leadId],
    ['bookingId', 'booking', input.bookingId],
    ['companyId', 'company', input.companyId],
    ['assigneeId', 'member', input.assigneeId],
  ] as const;

export async function createCrmTask(
  deps: CrmDeps<'bookings' | 'companies' | 'crmTasks' | 'customers' | 'leads' | 'members'>,
  workspaceId: string,
  input: CreateCrmTaskInput,
): Promise<Result<CrmTask>> {
  const bad = await checkReferences(deps.uow.stores, workspaceId, taskReferences(input));
  if (bad) return fail(bad);
  const status = input.status ?? 'OPEN';
  return ok(
    await deps.uow.stores.crmTasks.insert(workspaceId, {
      id: newId('crmTask'),
      title: input.title,
      description: input.description ?? null,
      dueAt: input.dueAt ? new Date(input.dueAt).toISOString() : null,
      status,
      priority: input.priority ?? 'NORMAL',
      assigneeId: input.assigneeId ?? null,
      customerId: input.customerId ?? null,
      leadId: input.leadId ?? null,
      bookingId: input.bookingId ?? null,
      companyId: input.companyId ?? null,
      completedAt: taskCompletion(null, status, deps.clock.now()),
    }),
  );
}

export async function getCrmTask(
  deps: CrmDeps<'crmTasks'>,
  workspaceId: string,
  id: string,
): Promise<Result<CrmTask>> {
  const task = await deps.uow.stores.crmTasks.findById(workspaceId, id);
  return task ? ok(task) : fail(notFound('CRM task'));
}

export function listCrmTasks(
  deps: CrmDeps<'crmTasks'>,
  workspaceId: string,
  filter: CrmTaskFilter,
  page: PageRequest,
) {
  return deps.uow.stores.crmTasks.list(workspaceId, filter, page);
}

export async function updateCrmTask(
  deps: CrmDeps<'bookings' | 'companies' | 'crmTasks' | 'customers' | 'leads' | 'members'>,
  workspaceId: string,
  id: string,
  input: UpdateCrmTaskInput,
): Promise<Result<CrmTask>> {
  const task = await deps.uow.stores.crmTasks.findById(workspaceId, id);
  if (!task) return fail(notFound('CRM task'));
  const bad = await checkReferences(deps.uow.stores, workspaceId, taskReferences(input));
  if (bad) return fail(bad);
  const { dueAt, ...rest } = sent(input);
  const patch: CrmTaskPatch = {
    ...rest,
    ...(dueAt !== undefined && { dueAt: dueAt === null ? null : new Date(dueAt).toISOString() }),
    ...(input.status !== undefined && { completedAt: taskCompletion(task, input.status, deps.clock.now()) }),
  };
  const updated = await deps.uow.stores.crmTasks.update(workspaceId, id, patch);
  return updated ? ok(updated) : fail(notFound('CRM task'));
}

export async function deleteCrmTask(deps: CrmDeps<'crmTasks'>, workspaceId: string, id: string) {
  return (await deps.uow.stores.crmTasks.delete(workspaceId, id))
    ? ok(deleted(id))
    : fail(notFound('CRM task'));
}
