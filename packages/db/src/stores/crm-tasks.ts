import type { CrmTask, CrmTaskFilter, CrmTaskPatch, CrmTaskStore, NewCrmTask } from '@travelops/domain/crm';
import type { Page, PageRequest } from '@travelops/domain/shared';
import type { Knex } from 'knex';
import { type DbTimestamp, pageNewestFirst, toColumns, toIso, toIsoOrNull, utcDayStart } from './columns.js';

interface CrmTaskRow {
  id: string;
  workspace_id: string;
  title: string;
  description: string | null;
  due_at: DbTimestamp | null;
  status: CrmTask['status'];
  priority: CrmTask['priority'];
  assignee_id: string | null;
  customer_id: string | null;
  lead_id: string | null;
  booking_id: string | null;
  company_id: string | null;
  completed_at: DbTimestamp | null;
  created_at: DbTimestamp;
  updated_at: DbTimestamp;
}

const COLUMNS = {
  title: 'title',
  description: 'description',
  dueAt: 'due_at',
  status: 'status',
  priority: 'priority',
  assigneeId: 'assignee_id',
  customerId: 'customer_id',
  leadId: 'lead_id',
  bookingId: 'booking_id',
  companyId: 'company_id',
  completedAt: 'completed_at',
} as const satisfies { readonly [K in keyof Required<CrmTaskPatch>]: string };

export const toTask = (row: CrmTaskRow): CrmTask => ({
  id: row.id,
  title: row.title,
  description: row.description,
  dueAt: toIsoOrNull(row.due_at),
  status: row.status,
  priority: row.priority,
  assigneeId: row.assignee_id,
  customerId: row.customer_id,
  leadId: row.lead_id,
  bookingId: row.booking_id,
  companyId: row.company_id,
  completedAt: toIsoOrNull(row.completed_at),
  createdAt: toIso(row.created_at),
  updatedAt: toIso(row.updated_at),
});

export function createCrmTaskStore(db: Knex | Knex.Transaction): CrmTaskStore {
  const tasks = () => db<CrmTaskRow>('crm_tasks');

  async function findById(workspaceId: string, id: string): Promise<CrmTask | null> {
    const row = await tasks().where({ workspace_id: workspaceId, id }).first();
    return row ? toTask(row) : null;
  }

  return {
    findById,

    async insert(workspaceId: string, task: NewCrmTask): Promise<CrmTask> {
      const [row] = await tasks()
        .insert({ id: task.id, workspace_id: workspaceId, ...toColumns<CrmTaskPatch>(task, COLUMNS) })
        .returning('*');
      return toTask(row as CrmTaskRow);
    },

    async list(workspaceId: string, filter: CrmTaskFilter, page: PageRequest): Promise<Page<CrmTask>> {
      const query = tasks().where({ workspace_id: workspaceId });
      if (filter.status) query.where({ status: filter.status });
      if (filter.customerId) query.where({ customer_id: filter.customerId });
      if (filter.leadId) query.where({ lead_id: filter.leadId });
      if (filter.from) query.where('due_at', '>=', utcDayStart(filter.from));
      if (filter.to) query.where('due_at', '<', utcDayStart(filter.to, 1));
      return pageNewestFirst(query, page, toTask);
    },

    async update(workspaceId: string, id: string, patch: CrmTaskPatch): Promise<CrmTask | null> {
      const changes = toColumns(patch, COLUMNS);
      if (Object.keys(changes).length === 0) return findById(workspaceId, id);
      const [row] = await tasks()
        .where({ workspace_id: workspaceId, id })
        .update({ ...changes, updated_at: db.fn.now() })
        .returning('*');
      return row ? toTask(row as CrmTaskRow) : null;
    },

    async delete(workspaceId: string, id: string): Promise<boolean> {
      const gone = await tasks().where({ workspace_id: workspaceId, id }).del().returning('id');
      return gone.length > 0;
    },
  };
}
