import type { Actor } from '../bookings/index.js';
import { notFound } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import type { PageRequest } from '../shared/ports.js';
import { fail, ok, type Result } from '../shared/result.js';
import type { CreateCustomerInput, Customer, UpdateCustomerInput } from './customer-schemas.js';
import type { CrmDeps } from './ports.js';
import { checkReferences, sent } from './references.js';
import { toTimelineEntry } from './rules.js';
import type { CustomerNote } from './schemas.js';

// Customers (the CRM-side write the spec leaves out).

export async function updateCustomer(
  deps: CrmDeps<'bookings' | 'companies' | 'customers' | 'leads' | 'members'>,
  workspaceId: string,
  id: string,
  input: UpdateCustomerInput,
): Promise<Result<Customer>> {
  if (!(await deps.uow.stores.customers.findById(workspaceId, id))) return fail(notFound('customer'));
  const bad = await checkReferences(deps.uow.stores, workspaceId, [
    ['companyId', 'company', input.companyId],
  ]);
  if (bad) return fail(bad);
  const patch = sent(input);
  if (patch.tags) patch.tags = [...new Set(patch.tags)];
  const updated = await deps.uow.stores.customers.update(workspaceId, id, patch);
  return updated ? ok(updated) : fail(notFound('customer'));
}

export async function addCustomerNote(
  deps: CrmDeps<'customerNotes' | 'customers'>,
  workspaceId: string,
  customerId: string,
  body: string,
  author: Actor,
): Promise<Result<CustomerNote>> {
  if (!(await deps.uow.stores.customers.findById(workspaceId, customerId))) return fail(notFound('customer'));
  return ok(
    await deps.uow.stores.customerNotes.insert(workspaceId, {
      id: newId('customerNote'),
      customerId,
      body,
      author,
    }),
  );
}

export async function getCustomerTimeline(
  deps: CrmDeps<'customerTimeline' | 'customers'>,
  workspaceId: string,
  customerId: string,
  page: PageRequest,
) {
  if (!(await deps.uow.stores.customers.findById(workspaceId, customerId))) return fail(notFound('customer'));
  const records = await deps.uow.stores.customerTimeline.list(workspaceId, customerId, page);
  return ok({ ...records, items: records.items.map(toTimelineEntry) });
}

export async function createCustomer(
  deps: CrmDeps<'customers'>,
  workspaceId: string,
  input: CreateCustomerInput,
): Promise<Result<Customer>> {
  return deps.uow.stores.customers.insert(workspaceId, {
    id: newId('customer'),
    name: input.name,
    email: input.email,
    phone: input.phone ?? null,
    tags: [...new Set(input.tags ?? [])],
    marketingConsent: input.marketingConsent ?? false,
  });
}

export async function getCustomer(
  deps: CrmDeps<'customers'>,
  workspaceId: string,
  id: string,
): Promise<Result<Customer>> {
  const customer = await deps.uow.stores.customers.findById(workspaceId, id);
  return customer ? ok(customer) : fail(notFound('customer'));
}

export function listCustomers(
  deps: CrmDeps<'customers'>,
  workspaceId: string,
  q: string | undefined,
  page: PageRequest,
) {
  return deps.uow.stores.customers.list(workspaceId, q ? { q } : {}, page);
}
