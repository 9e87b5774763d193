import { conflict, fail, ok, type Result, type Workspace, type WorkspaceStore } from '@travelops/domain';
import type { Knex } from 'knex';
import { constraintError } from '../errors.js';
import { type DbTimestamp, guarded, toIso } from './columns.js';

interface WorkspaceRow {
  id: string;
  slug: string;
  name: string;
  created_at: DbTimestamp;
}

const SLUG_TAKEN = {
  workspaces_slug_key: conflict('A workspace with this slug already exists.', 'slug', 'already_exists'),
};

const toWorkspace = (row: WorkspaceRow): Workspace => ({
  id: row.id,
  slug: row.slug,
  name: row.name,
  createdAt: toIso(row.created_at),
});

export function createWorkspaceStore(db: Knex | Knex.Transaction): WorkspaceStore {
  const workspaces = (q: Knex = db) => q<WorkspaceRow>('workspaces');

  return {
    async insert(workspace: Omit<Workspace, 'createdAt'>): Promise<Result<Workspace>> {
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
  };
}
