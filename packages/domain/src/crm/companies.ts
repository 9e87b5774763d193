import { type DomainError, notFound, unprocessable } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import type {
  Actor,
  Clock,
  CrmTaskFilter,
  CrmTaskPatch,
  LeadPatch,
  PageRequest,
  Stores,
} from '../shared/ports.js';
import { fail, ok, type Result } from '../shared/result.js';
import type { Customer, UpdateCustomerInput } from './customer-schemas.js';
import {
  checkEstimatedValue,
  checkLeadConvertible,
  decideLeadStatus,
  taskCompletion,
  toTimelineEntry,
} from './rules.js';
import type {
  Company,
  ConvertLeadInput,
  CreateCompanyInput,
  CreateCrmTaskInput,
  CreateLeadInput,
  CrmTask,
  CustomerNote,
  Lead,
  UpdateCompanyInput,
  UpdateCrmTaskInput,
  UpdateLeadInput,
} from './schemas.js';

export interface CrmDeps {
  stores: Stores;
  clock: Clock;
}

/** Only the keys the client sent: PATCH leaves the others alone. */
function sent<T extends object>(input: T): Partial<T> {
  return Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined)) as Partial<T>;
}

const deleted = (id: string) => ({ id, deleted: true as const });

type Reference = 'company' | 'customer' | 'lead' | 'booking' | 'member';

/** Each id the client named must be a record of this workspace: 422 on the exact field otherwise. */
async function checkReferences(
  stores: Stores,
  workspaceId: string,
  refs: ReadonlyArray<readonly [field: string, kind: Reference, id: string | null | undefined]>,
): Promise<DomainError | null> {
  const finders: Record<Reference, (id: string) => Promise<unknown>> = {
    company: (id) => stores.companies.findById(workspaceId, id),
    customer: (id) => stores.customers.findById(workspaceId, id),
    lead: (id) => stores.leads.findById(workspaceId, id),
    booking: (id) => stores.bookings.findById(workspaceId, id),
    member: (id) => stores.members.findById(workspaceId, id),
  };
  for (const [field, kind, id] of refs) {
    if (id && !(await finders[kind](id))) {
      return unprocessable(`No such ${kind} in this workspace.`, field, 'not_found');
    }
  }
  return null;
}

// Customers (the CRM-side write the spec leaves out).

export async function updateCustomer(
  deps: CrmDeps,
  workspaceId: string,
  id: string,
  input: UpdateCustomerInput,
): Promise<Result<Customer>> {
  if (!(await deps.stores.customers.findById(workspaceId, id))) return fail(notFound('customer'));
  const bad = await checkReferences(deps.stores, workspaceId, [['companyId', 'company', input.companyId]]);
  if (bad) return fail(bad);
  const patch = sent(input);
  if (patch.tags) patch.tags = [...new Set(patch.tags)];
  const updated = await deps.stores.customers.update(workspaceId, id, patch);
  return updated ? ok(updated) : fail(notFound('customer'));
}

export async function addCustomerNote(
  deps: CrmDeps,
  workspaceId: string,
  customerId: string,
  body: string,
  author: Actor,
): Promise<Result<CustomerNote>> {
  if (!(await deps.stores.customers.findById(workspaceId, customerId))) return fail(notFound('customer'));
  return ok(
    await deps.stores.customerNotes.insert(workspaceId, {
      id: newId('customerNote'),
      customerId,
      body,
      author,
    }),
  );
}

export async function getCustomerTimeline(
  deps: CrmDeps,
  workspaceId: string,
  customerId: string,
  page: PageRequest,
) {
  if (!(await deps.stores.customers.findById(workspaceId, customerId))) return fail(notFound('customer'));
  const records = await deps.stores.customerTimeline.list(workspaceId, customerId, page);
  return ok({ ...records, items: records.items.map(toTimelineEntry) });
}

// Companies.

export async function createCompany(
  deps: CrmDeps,
  workspaceId: string,
  input: CreateCompanyInput,
): Promise<Result<Company>> {
  return deps.stores.companies.insert(workspaceId, {
    id: newId('company'),
    name: input.name,
    domain: input.domain?.toLowerCase() ?? null,
    phone: input.phone ?? null,
    addressLine1: input.addressLine1 ?? null,
    addressLine2: input.addressLine2 ?? null,
    city: input.city ?? null,
    region: input.region ?? null,
    postalCode: input.postalCode ?? null,
    country: input.country ?? null,
    tags: [...new Set(input.tags ?? [])],
    notes: input.notes ?? null,
  });
}

export async function getCompany(deps: CrmDeps, workspaceId: string, id: string): Promise<Result<Company>> {
  const company = await deps.stores.companies.findById(workspaceId, id);
  return company ? ok(company) : fail(notFound('company'));
}

export function listCompanies(deps: CrmDeps, workspaceId: string, q: string | undefined, page: PageRequest) {
  return deps.stores.companies.list(workspaceId, q ? { q } : {}, page);
}

export async function updateCompany(
  deps: CrmDeps,
  workspaceId: string,
  id: string,
  input: UpdateCompanyInput,
): Promise<Result<Company>> {
  const patch = sent(input);
  if (patch.domain) patch.domain = patch.domain.toLowerCase();
  if (patch.tags) patch.tags = [...new Set(patch.tags)];
  const updated = await deps.stores.companies.update(workspaceId, id, patch);
  if (!updated.ok) return updated;
  return updated.value ? ok(updated.value) : fail(notFound('company'));
}

export async function deleteCompany(deps: CrmDeps, workspaceId: string, id: string) {
  return (await deps.stores.companies.delete(workspaceId, id)) ? ok(deleted(id)) : fail(notFound('company'));
}

// Leads.

export async function createLead(
  deps: CrmDeps,
  workspaceId: string,
  input: CreateLeadInput,
): Promise<Result<Lead>> {
  const value = input.estimatedValue ?? null;
  const currency = input.currency ?? null;
  const shape = checkEstimatedValue(value, currency);
  if (shape) return fail(shape);
  const bad = await checkReferences(deps.stores, workspaceId, [
    ['companyId', 'company', input.companyId],
    ['ownerId', 'member', input.ownerId],
  ]);
  if (bad) return fail(bad);
  return ok(
    await deps.stores.leads.insert(workspaceId, {
      id: newId('lead'),
      name: input.name,
      email: input.email ?? null,
      phone: input.phone ?? null,
      companyId: input.companyId ?? null,
      source: input.source ?? 'OTHER',
      status: input.status ?? 'NEW',
      estimatedValue: value,
      currency,
      notes: input.notes ?? null,
      ownerId: input.ownerId ?? null,
      convertedCustomerId: null,
      convertedAt: null,
    }),
  );
}

export async function getLead(deps: CrmDeps, workspaceId: string, id: string): Promise<Result<Lead>> {
  const lead = await deps.stores.leads.findById(workspaceId, id);
  return lead ? ok(lead) : fail(notFound('lead'));
}

export function listLeads(
  deps: CrmDeps,
  workspaceId: string,
  filter: { status?: Lead['status']; q?: string },
  page: PageRequest,
) {
  return deps.stores.leads.list(workspaceId, filter, page);
}

export function updateLead(
  deps: CrmDeps,
  workspaceId: string,
  id: string,
  input: UpdateLeadInput,
): Promise<Result<Lead>> {
  return deps.stores.transaction(async (stores) => {
    const lead = await stores.leads.lock(workspaceId, id);
    if (!lead) return fail(notFound('lead'));
    const patch: LeadPatch = sent(input);
    if (patch.status !== undefined) {
      const status = decideLeadStatus(lead.status, patch.status);
      if (!status.ok) return status;
    }
    const shape = checkEstimatedValue(
      patch.estimatedValue !== undefined ? patch.estimatedValue : lead.estimatedValue,
      patch.currency !== undefined ? patch.currency : lead.currency,
    );
    if (shape) return fail(shape);
    const bad = await checkReferences(stores, workspaceId, [
      ['companyId', 'company', patch.companyId],
      ['ownerId', 'member', patch.ownerId],
    ]);
    if (bad) return fail(bad);
    const updated = await stores.leads.update(workspaceId, id, patch);
    return updated ? ok(updated) : fail(notFound('lead'));
  });
}

export async function deleteLead(deps: CrmDeps, workspaceId: string, id: string) {
  return (await deps.stores.leads.delete(workspaceId, id)) ? ok(deleted(id)) : fail(notFound('lead'));
}

export interface LeadConversion {
  lead: Lead;
  customer: Customer;
  /** False when a customer with the lead's e-mail already existed and was linked instead. */
  customerCreated: boolean;
}

/**
 * Finds or creates the workspace's customer with the lead's e-mail and marks the lead
 * CONVERTED, in one transaction (the lead is locked: two conversions cannot both succeed).
 */
export function convertLead(
  deps: CrmDeps,
  workspaceId: string,
  id: string,
  input: ConvertLeadInput,
): Promise<Result<LeadConversion>> {
  return deps.stores.transaction(async (stores) => {
    const lead = await stores.leads.lock(workspaceId, id);
    if (!lead) return fail(notFound('lead'));
    const convertible = checkLeadConvertible(lead);
    if (!convertible.ok) return convertible;
    const candidateId = newId('customer');
    let customer = await stores.customers.findOrCreateByEmail(workspaceId, {
      id: candidateId,
      name: lead.name,
      email: lead.email as string,
      phone: lead.phone,
      tags: [...new Set(input.tags ?? [])],
      marketingConsent: input.marketingConsent ?? false,
    });
    // The lead's company carries over to a customer who has none yet.
    if (lead.companyId && !customer.companyId) {
      customer =
        (await stores.customers.update(workspaceId, customer.id, { companyId: lead.companyId })) ?? customer;
    }
    const converted = await stores.leads.update(workspaceId, id, {
      status: 'CONVERTED',
      convertedCustomerId: customer.id,
      convertedAt: deps.clock.now().toISOString(),
    });
    if (!converted) return fail(notFound('lead'));
    return ok({ lead: converted, customer, customerCreated: customer.id === candidateId });
  });
}

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
  deps: CrmDeps,
  workspaceId: string,
  input: CreateCrmTaskInput,
): Promise<Result<CrmTask>> {
  const bad = await checkReferences(deps.stores, workspaceId, taskReferences(input));
  if (bad) return fail(bad);
  const status = input.status ?? 'OPEN';
  return ok(
    await deps.stores.crmTasks.insert(workspaceId, {
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

export async function getCrmTask(deps: CrmDeps, workspaceId: string, id: string): Promise<Result<CrmTask>> {
  const task = await deps.stores.crmTasks.findById(workspaceId, id);
  return task ? ok(task) : fail(notFound('CRM task'));
}

export function listCrmTasks(deps: CrmDeps, workspaceId: string, filter: CrmTaskFilter, page: PageRequest) {
  return deps.stores.crmTasks.list(workspaceId, filter, page);
}

export async function updateCrmTask(
  deps: CrmDeps,
  workspaceId: string,
  id: string,
  input: UpdateCrmTaskInput,
): Promise<Result<CrmTask>> {
  const task = await deps.stores.crmTasks.findById(workspaceId, id);
  if (!task) return fail(notFound('CRM task'));
  const bad = await checkReferences(deps.stores, workspaceId, taskReferences(input));
  if (bad) return fail(bad);
  const { dueAt, ...rest } = sent(input);
  const patch: CrmTaskPatch = {
    ...rest,
    ...(dueAt !== undefined && { dueAt: dueAt === null ? null : new Date(dueAt).toISOString() }),
    ...(input.status !== undefined && { completedAt: taskCompletion(task, input.status, deps.clock.now()) }),
  };
  const updated = await deps.stores.crmTasks.update(workspaceId, id, patch);
  return updated ? ok(updated) : fail(notFound('CRM task'));
}

export async function deleteCrmTask(deps: CrmDeps, workspaceId: string, id: string) {
  return (await deps.stores.crmTasks.delete(workspaceId, id)) ? ok(deleted(id)) : fail(notFound('CRM task'));
}
