import { notFound } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import type { UnitOfWork } from '../shared/ports.js';
import { fail, ok, type Result } from '../shared/result.js';
import type { WorkspaceStore } from './ports.js';
import type { CreateWorkspaceInput, UpdateWorkspaceInput, Workspace } from './workspace-schemas.js';

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

/** Renames the workspace or sets (null clears) the reply-to of its guest e-mails. */
export async function updateWorkspace(
  deps: { uow: UnitOfWork<{ workspaces: WorkspaceStore }> },
  id: string,
  input: UpdateWorkspaceInput,
): Promise<Result<Workspace>> {
  const updated = await deps.uow.stores.workspaces.update(id, input);
  return updated ? ok(updated) : fail(notFound('workspace'));
}
