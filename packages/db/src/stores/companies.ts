import type { Company, CompanyPatch, CompanyStore, NewCompany } from '@travelops/domain/crm';
import { conflict, fail, ok, type Page, type PageRequest, type Result } from '@travelops/domain/shared';
import type { Knex } from 'knex';
import { constraintError } from '../errors.js';
import { type DbTimestamp, guarded, pageNewestFirst, toColumns, toIso } from './columns.js';
import { containsPattern } from './customers.js';

interface CompanyRow {
  id: string;
  workspace_id: string;
  name: string;
  domain: string | null;
  phone: string | null;
  address_line1: string | null;
  address_line2: string | null;
  city: string | null;
  region: string | null;
  postal_code: string | null;
  country: string | null;
  tags: string[];
  notes: string | null;
  created_at: DbTimestamp;
  updated_at: DbTimestamp;
}

const COLUMNS = {
  name: 'name',
  domain: 'domain',
  phone: 'phone',
  addressLine1: 'address_line1',
  addressLine2: 'address_line2',
  city: 'city',
  region: 'region',
  postalCode: 'postal_code',
  country: 'country',
  tags: 'tags',
  notes: 'notes',
} as const satisfies { readonly [K in keyof Required<CompanyPatch>]: string };

const DOMAIN_TAKEN = {
  companies_workspace_domain_key: conflict(
    'A company with this domain already exists.',
    'domain',
    'already_exists',
  ),
};

const toCompany = (row: CompanyRow): Company => ({
  id: row.id,
  name: row.name,
  domain: row.domain,
  phone: row.phone,
  addressLine1: row.address_line1,
  addressLine2: row.address_line2,
  city: row.city,
  region: row.region,
  postalCode: row.postal_code,
  country: row.country,
  tags: row.tags,
  notes: row.notes,
  createdAt: toIso(row.created_at),
  updatedAt: toIso(row.updated_at),
});

/** The write's result, or the CONFLICT a taken domain means. */
async function mapDomainTaken<T>(work: () => Promise<T>): Promise<Result<T>> {
  try {
    return ok(await work());
  } catch (error) {
    const known = constraintError(error, DOMAIN_TAKEN);
    if (known) return fail(known);
    throw error;
  }
}

export function createCompanyStore(db: Knex | Knex.Transaction): CompanyStore {
  const companies = (q: Knex = db) => q<CompanyRow>('companies');

  async function findById(workspaceId: string, id: string): Promise<Company | null> {
    const row = await companies().where({ workspace_id: workspaceId, id }).first();
    return row ? toCompany(row) : null;
  }

  return {
    findById,

    insert(workspaceId: string, company: NewCompany): Promise<Result<Company>> {
      return mapDomainTaken(async () => {
        const [row] = await guarded(db, (q) =>
          companies(q)
            .insert({
              id: company.id,
              workspace_id: workspaceId,
              ...toColumns<CompanyPatch>(company, COLUMNS),
            })
            .returning('*'),
        );
        return toCompany(row as CompanyRow);
      });
    },

    async list(workspaceId: string, filter: { q?: string }, page: PageRequest): Promise<Page<Company>> {
      const query = companies().where({ workspace_id: workspaceId });
      if (filter.q) {
        const pattern = containsPattern(filter.q);
        query.where((match) =>
          match
            .whereRaw("name ilike ? escape '\\'", [pattern])
            .orWhereRaw("domain ilike ? escape '\\'", [pattern]),
        );
      }
      return pageNewestFirst(query, page, toCompany);
    },

    update(workspaceId: string, id: string, patch: CompanyPatch): Promise<Result<Company | null>> {
      return mapDomainTaken(async () => {
        const changes = toColumns(patch, COLUMNS);
        if (Object.keys(changes).length === 0) return findById(workspaceId, id);
        const [row] = await guarded(db, (q) =>
          companies(q)
            .where({ workspace_id: workspaceId, id })
            .update({ ...changes, updated_at: db.fn.now() })
            .returning('*'),
        );
        return row ? toCompany(row as CompanyRow) : null;
      });
    },

    async delete(workspaceId: string, id: string): Promise<boolean> {
      // Customers, leads and tasks naming it keep existing: ON DELETE SET NULL (company_id).
      const gone = await companies().where({ workspace_id: workspaceId, id }).del().returning('id');
      return gone.length > 0;
    },
  };
}
