import { notFound } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import type { PageRequest } from '../shared/ports.js';
import { fail, ok, type Result } from '../shared/result.js';
import type { CrmDeps } from './ports.js';
import { deleted, sent } from './references.js';
import type { Company, CreateCompanyInput, UpdateCompanyInput } from './schemas.js';

// Companies.

export async function createCompany(
  deps: CrmDeps<'companies'>,
  workspaceId: string,
  input: CreateCompanyInput,
): Promise<Result<Company>> {
  return deps.uow.stores.companies.insert(workspaceId, {
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

export async function getCompany(
  deps: CrmDeps<'companies'>,
  workspaceId: string,
  id: string,
): Promise<Result<Company>> {
  const company = await deps.uow.stores.companies.findById(workspaceId, id);
  return company ? ok(company) : fail(notFound('company'));
}

export function listCompanies(
  deps: CrmDeps<'companies'>,
  workspaceId: string,
  q: string | undefined,
  page: PageRequest,
) {
  return deps.uow.stores.companies.list(workspaceId, q ? { q } : {}, page);
}

export async function updateCompany(
  deps: CrmDeps<'companies'>,
  workspaceId: string,
  id: string,
  input: UpdateCompanyInput,
): Promise<Result<Company>> {
  const patch = sent(input);
  if (patch.domain) patch.domain = patch.domain.toLowerCase();
  if (patch.tags) patch.tags = [...new Set(patch.tags)];
  const updated = await deps.uow.stores.companies.update(workspaceId, id, patch);
  if (!updated.ok) return updated;
  return updated.value ? ok(updated.value) : fail(notFound('company'));
}

export async function deleteCompany(deps: CrmDeps<'companies'>, workspaceId: string, id: string) {
  return (await deps.uow.stores.companies.delete(workspaceId, id))
    ? ok(deleted(id))
    : fail(notFound('company'));
}
