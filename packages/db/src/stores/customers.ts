import type { Customer, CustomerPatch, CustomerStore, NewCustomer } from '@travelops/domain/crm';
import { conflict, fail, ok, type Page, type PageRequest, type Result } from '@travelops/domain/shared';
import type { Knex } from 'knex';
import { atCommitStatement, inlined } from '../commit-statements.js';
import { constraintError } from '../errors.js';
import { prepared } from '../prepared.js';
import {
  type DbBigint,
  type DbTimestamp,
  guarded,
  pageNewestFirst,
  toColumns,
  toIso,
  toNumber,
} from './columns.js';

interface CustomerRow {
  id: string;
  workspace_id: string;
  name: string;
  email: string;
  phone: string | null;
  company_id: string | null;
  tags: string[];
  marketing_consent: boolean;
  total_bookings: number;
  lifetime_value: DbBigint;
  created_at: DbTimestamp;
  updated_at: DbTimestamp;
}

const PATCH_COLUMNS = {
  name: 'name',
  phone: 'phone',
  tags: 'tags',
  marketingConsent: 'marketing_consent',
  companyId: 'company_id',
} as const satisfies { readonly [K in keyof Required<CustomerPatch>]: string };

const EMAIL_TAKEN = {
  customers_workspace_email_key: conflict(
    'A customer with this e-mail already exists.',
    'email',
    'already_exists',
  ),
};

function toCustomer(row: CustomerRow): Customer {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    companyId: row.company_id,
    tags: row.tags,
    marketingConsent: row.marketing_consent,
    totalBookings: row.total_bookings,
    lifetimeValue: toNumber(row.lifetime_value),
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
}

const toNewRow = (workspaceId: string, customer: NewCustomer) => ({
  id: customer.id,
  workspace_id: workspaceId,
  name: customer.name,
  email: customer.email,
  phone: customer.phone,
  tags: customer.tags,
  marketing_consent: customer.marketingConsent,
});

/**
 * Recomputes the customer's `total_bookings` and `lifetime_value` from its bookings. `alsoOf`
 * names a CTE of bookings rows written by the same statement, which its snapshot cannot see yet.
 */
export function refreshStatsQuery(
  db: Knex | Knex.Transaction,
  workspaceId: string,
  customerId: string,
  alsoOf?: string,
): Knex.Raw {
  const also = alsoOf ? `union all select status, amount_paid, amount_refunded from ${alsoOf}` : '';
  return db.raw(
    `update customers set
       total_bookings = stats.total_bookings,
       lifetime_value = stats.lifetime_value,
       updated_at = now()
     from (
       select count(*) filter (where status <> 'CANCELLED')::integer as total_bookings,
              coalesce(sum(amount_paid - amount_refunded), 0)::bigint as lifetime_value
       from (
         select status, amount_paid, amount_refunded from bookings
         where workspace_id = ? and customer_id = ? ${also}
       ) as counted
     ) as stats
     where customers.workspace_id = ? and customers.id = ?`,
    [workspaceId, customerId, workspaceId, customerId],
  );
}

/** The user's text as a literal ILIKE substring pattern (escape character `\`). */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

export function createCustomerStore(db: Knex | Knex.Transaction): CustomerStore {
  const customers = (q: Knex = db) => q<CustomerRow>('customers');

  return {
    async insert(workspaceId: string, customer: NewCustomer): Promise<Result<Customer>> {
      try {
        const [row] = await guarded(db, (q) =>
          customers(q).insert(toNewRow(workspaceId, customer)).returning('*'),
        );
        return ok(toCustomer(row as CustomerRow));
      } catch (error) {
        const known = constraintError(error, EMAIL_TAKEN);
        if (known) return fail(known);
        throw error;
      }
    },

    async findById(workspaceId: string, id: string): Promise<Customer | null> {
      const row = await customers().where({ workspace_id: workspaceId, id }).first();
      return row ? toCustomer(row) : null;
    },

    async findByIds(workspaceId: string, ids: readonly string[]): Promise<Customer[]> {
      if (ids.length === 0) return [];
      const rows = await customers()
        .where({ workspace_id: workspaceId })
        .whereIn('id', [...ids]);
      return rows.map(toCustomer);
    },

    async findOrCreateByEmail(workspaceId: string, customer: NewCustomer): Promise<Customer> {
      const byEmail = (q: Knex.QueryBuilder) =>
        q.where({ workspace_id: workspaceId }).whereRaw('lower(email) = lower(?)', [customer.email]);
      // Insert-or-ignore and read in one statement, locking nothing: our new row, or the one
      // that was there when the statement began.
      const [row]: CustomerRow[] = await prepared(db.queryBuilder())
        .with(
          'inserted',
          customers()
            .insert(toNewRow(workspaceId, customer))
            .onConflict(db.raw('(workspace_id, lower(email))'))
            .ignore()
            .returning('*'),
        )
        .select('*')
        .from('inserted')
        .unionAll((existing) => byEmail(existing.select('*').from('customers')))
        .limit(1);
      if (row) return toCustomer(row);
      // A concurrent twin inserted it after the statement began: ours waited for the twin's
      // commit and did nothing, and only a new statement sees the twin's row.
      const twin = await byEmail(customers()).first();
      if (!twin) throw new Error('A customer vanished right after it was written.');
      return toCustomer(twin);
    },

    async update(workspaceId: string, id: string, patch: CustomerPatch): Promise<Customer | null> {
      const changes = toColumns(patch, PATCH_COLUMNS);
      if (Object.keys(changes).length === 0) {
        const row = await customers().where({ workspace_id: workspaceId, id }).first();
        return row ? toCustomer(row) : null;
      }
      const [row] = await customers()
        .where({ workspace_id: workspaceId, id })
        .update({ ...changes, updated_at: db.fn.now() })
        .returning('*');
      return row ? toCustomer(row as CustomerRow) : null;
    },

    async refreshStatsAtCommit(workspaceId: string, customerId: string): Promise<void> {
      await atCommitStatement(db, inlined(refreshStatsQuery(db, workspaceId, customerId)));
    },

    async refreshStats(workspaceId: string, customerId: string): Promise<void> {
      await refreshStatsQuery(db, workspaceId, customerId);
    },

    async list(workspaceId: string, filter: { q?: string }, page: PageRequest): Promise<Page<Customer>> {
      const query = customers().where({ workspace_id: workspaceId });
      if (filter.q) {
        const pattern = containsPattern(filter.q);
        query.where((match) =>
          match
            .whereRaw("name ilike ? escape '\\'", [pattern])
            .orWhereRaw("email ilike ? escape '\\'", [pattern])
            .orWhereRaw("phone ilike ? escape '\\'", [pattern]),
        );
      }
      return pageNewestFirst(query, page, toCustomer);
    },
  };
}
