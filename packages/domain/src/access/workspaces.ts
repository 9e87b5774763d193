import { newId } from '../shared/ids.js';
import type { UnitOfWork } from '../shared/ports.js';
import type { Result } from '../shared/result.js';
import type { WorkspaceStore } from './ports.js';
import type { CreateWorkspaceInput, Workspace } from './workspace-schemas.js';

export function createWorkspace(
  deps: { uow: UnitOfWork<{ workspaces: WorkspaceStore }> },
  input: CreateWorkspaceInput,
): Promise<Result<Workspace>> {
  return deps.uow.stores.workspaces.insert({ id: newId('workspace'), slug: input.slug, name: input.name });
}

/** Finds a workspace by id (`ws_...`) or by slug, as operators type either. */
export async function findWorkspace(
  deps: { uow: UnitOfWork<{ workspaces: WorkspaceStore }> },
  idOrSlug: string,
) {
  return idOrSlug.startsWith('ws_')
    ? deps.uow.stores.workspaces.findById(idOrSlug)
    : deps.uow.stores.workspaces.findBySlug(idOrSlug);
}
