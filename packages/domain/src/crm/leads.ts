import { notFound } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import type { PageRequest } from '../shared/ports.js';
import { fail, ok, type Result } from '../shared/result.js';
import type { Customer } from './customer-schemas.js';
import type { CrmDeps, LeadPatch } from './ports.js';
import { checkReferences, deleted, sent } from './references.js';
import { checkEstimatedValue, checkLeadConvertible, decideLeadStatus } from './rules.js';
import type { ConvertLeadInput, CreateLeadInput, Lead, UpdateLeadInput } from './schemas.js';

// Leads.

export async function createLead(
  deps: CrmDeps<'bookings' | 'companies' | 'customers' | 'leads' | 'members'>,
  workspaceId: string,
  input: CreateLeadInput,
): Promise<Result<Lead>> {
  const value = input.estimatedValue ?? null;
  const currency = input.currency ?? null;
  const shape = checkEstimatedValue(value, currency);
  if (shape) return fail(shape);
  const bad = await checkReferences(deps.uow.stores, workspaceId, [
    ['companyId', 'company', input.companyId],
    ['ownerId', 'member', input.ownerId],
  ]);
  if (bad) return fail(bad);
  return ok(
    await deps.uow.stores.leads.insert(workspaceId, {
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

export async function getLead(
  deps: CrmDeps<'leads'>,
  workspaceId: string,
  id: string,
): Promise<Result<Lead>> {
  const lead = await deps.uow.stores.leads.findById(workspaceId, id);
  return lead ? ok(lead) : fail(notFound('lead'));
}

export function listLeads(
  deps: CrmDeps<'leads'>,
  workspaceId: string,
  filter: { status?: Lead['status']; q?: string },
  page: PageRequest,
) {
  return deps.uow.stores.leads.list(workspaceId, filter, page);
}

export function updateLead(
  deps: CrmDeps<'bookings' | 'companies' | 'customers' | 'leads' | 'members'>,
  workspaceId: string,
  id: string,
  input: UpdateLeadInput,
): Promise<Result<Lead>> {
  return deps.uow.transaction(async ({ stores }) => {
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

export async function deleteLead(deps: CrmDeps<'leads'>, workspaceId: string, id: string) {
  return (await deps.uow.stores.leads.delete(workspaceId, id)) ? ok(deleted(id)) : fail(notFound('lead'));
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
  deps: CrmDeps<'customers' | 'leads'>,
  workspaceId: string,
  id: string,
  input: ConvertLeadInput,
): Promise<Result<LeadConversion>> {
  return deps.uow.transaction(async ({ stores }) => {
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
