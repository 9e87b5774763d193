import type { Lead, LeadPatch, LeadStore, NewLead } from '@travelops/domain/crm';
import type { Page, PageRequest } from '@travelops/domain/shared';
import type { Knex } from 'knex';
import {
  type DbBigint,
  type DbTimestamp,
  pageNewestFirst,
  toColumns,
  toIso,
  toIsoOrNull,
  toNumber,
} from './columns.js';
import { containsPattern } from './customers.js';

interface LeadRow {
  id: string;
  workspace_id: string;
  name: string;
  email: string | null;
  phone: string | null;
  company_id: string | null;
  source: Lead['source'];
  status: Lead['status'];
  estimated_value: DbBigint | null;
  currency: string | null;
  notes: string | null;
  owner_id: string | null;
  converted_customer_id: string | null;
  converted_at: DbTimestamp | null;
  created_at: DbTimestamp;
  updated_at: DbTimestamp;
}

const COLUMNS = {
  name: 'name',
  email: 'email',
  phone: 'phone',
  companyId: 'company_id',
  source: 'source',
  status: 'status',
  estimatedValue: 'estimated_value',
  currency: 'currency',
  notes: 'notes',
  ownerId: 'owner_id',
  convertedCustomerId: 'converted_customer_id',
  convertedAt: 'converted_at',
} as const satisfies { readonly [K in keyof Required<LeadPatch>]: string };

export const toLead = (row: LeadRow): Lead => ({
  id: row.id,
  name: row.name,
  email: row.email,
  phone: row.phone,
  companyId: row.company_id,
  source: row.source,
  status: row.status,
  estimatedValue: row.estimated_value === null ? null : toNumber(row.estimated_value),
  currency: row.currency,
  notes: row.notes,
  ownerId: row.owner_id,
  convertedCustomerId: row.converted_customer_id,
  convertedAt: toIsoOrNull(row.converted_at),
  createdAt: toIso(row.created_at),
  updatedAt: toIso(row.updated_at),
});

export function createLeadStore(db: Knex | Knex.Transaction): LeadStore {
  const leads = () => db<LeadRow>('leads');

  async function findById(workspaceId: string, id: string): Promise<Lead | null> {
    const row = await leads().where({ workspace_id: workspaceId, id }).first();
    return row ? toLead(row) : null;
  }

  return {
    findById,

    async insert(workspaceId: string, lead: NewLead): Promise<Lead> {
      const [row] = await leads()
        .insert({ id: lead.id, workspace_id: workspaceId, ...toColumns<LeadPatch>(lead, COLUMNS) })
        .returning('*');
      return toLead(row as LeadRow);
    },

    async lock(workspaceId: string, id: string): Promise<Lead | null> {
      const row = await leads().where({ workspace_id: workspaceId, id }).forUpdate().first();
      return row ? toLead(row) : null;
    },

    async list(
      workspaceId: string,
      filter: { status?: Lead['status']; q?: string },
      page: PageRequest,
    ): Promise<Page<Lead>> {
      const query = leads().where({ workspace_id: workspaceId });
      if (filter.status) query.where({ status: filter.status });
      if (filter.q) {
        const pattern = containsPattern(filter.q);
        query.where((match) =>
          match
            .whereRaw("name ilike ? escape '\\'", [pattern])
            .orWhereRaw("email ilike ? escape '\\'", [pattern])
            .orWhereRaw("phone ilike ? escape '\\'", [pattern]),
        );
      }
      return pageNewestFirst(query, page, toLead);
    },

    async update(workspaceId: string, id: string, patch: LeadPatch): Promise<Lead | null> {
      const changes = toColumns(patch, COLUMNS);
      if (Object.keys(changes).length === 0) return findById(workspaceId, id);
      const [row] = await leads()
        .where({ workspace_id: workspaceId, id })
        .update({ ...changes, updated_at: db.fn.now() })
        .returning('*');
      return row ? toLead(row as LeadRow) : null;
    },

    async delete(workspaceId: string, id: string): Promise<boolean> {
      // Tasks linked to it keep existing: ON DELETE SET NULL (lead_id).
      const gone = await leads().where({ workspace_id: workspaceId, id }).del().returning('id');
      return gone.length > 0;
    },
  };
}
