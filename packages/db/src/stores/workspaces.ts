import type {
  TwoFactorRequirement,
  Workspace,
  WorkspacePatch,
  WorkspaceStore,
} from '@travelops/domain/access';
import { conflict, fail, ok, type Result } from '@travelops/domain/shared';
import type { Knex } from 'knex';
import { constraintError } from '../errors.js';
import { type DbTimestamp, guarded, toIso } from './columns.js';

interface WorkspaceRow {
  id: string;
  slug: string;
  name: string;
  reply_to_email: string | null;
  customer_retention_months: number | null;
  two_factor_required: TwoFactorRequirement;
  created_at: DbTimestamp;
}

const SLUG_TAKEN = {
  workspaces_slug_key: conflict('A workspace with this slug already exists.', 'slug', 'already_exists'),
};

const toWorkspace = (row: WorkspaceRow): Workspace => ({
  id: row.id,
  slug: row.slug,
  name: row.name,
  replyToEmail: row.reply_to_email,
  customerRetentionMonths: row.customer_retention_months,
  twoFactorRequired: row.two_factor_required,
  createdAt: toIso(row.created_at),
});

export function createWorkspaceStore(db: Knex | Knex.Transaction): WorkspaceStore {
  const workspaces = (q: Knex = db) => q<WorkspaceRow>('workspaces');

  return {
    async insert(workspace: Pick<Workspace, 'id' | 'slug' | 'name'>): Promise<Result<Workspace>> {
      try {
        const [row] = await guarded(db, (q) =>
          workspaces(q)
            .insert({ id: workspace.id, slug: workspace.slug, name: workspace.name })
            .returning('*'),
        );
        return ok(toWorkspace(row as WorkspaceRow));
      } catch (error) {
        const known = constraintError(error, SLUG_TAKEN);
        if (known) return fail(known);
        throw error;
      }
    },

    async findById(id: string): Promise<Workspace | null> {
      const row = await workspaces().where({ id }).first();
      return row ? toWorkspace(row) : null;
    },

    async findBySlug(slug: string): Promise<Workspace | null> {
      const row = await workspaces().where({ slug }).first();
      return row ? toWorkspace(row) : null;
    },

    async update(id: string, patch: WorkspacePatch): Promise<Workspace | null> {
      const changes = {
        ...(patch.name !== undefined && { name: patch.name }),
        ...(patch.replyToEmail !== undefined && { reply_to_email: patch.replyToEmail }),
        ...(patch.customerRetentionMonths !== undefined && {
          customer_retention_months: patch.customerRetentionMonths,
        }),
        ...(patch.twoFactorRequired !== undefined && { two_factor_required: patch.twoFactorRequired }),
      };
      const [row] =
        Object.keys(changes).length === 0
          ? [await workspaces().where({ id }).first()]
          : await workspaces().where({ id }).update(changes).returning('*');
      return row ? toWorkspace(row as WorkspaceRow) : null;
    },
  };
}
