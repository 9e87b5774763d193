import { newId } from '../shared/ids.js';
import type { WorkspaceStore } from '../shared/ports.js';
import type { Result } from '../shared/result.js';
import type { CreateWorkspaceInput, Workspace } from './workspace-schemas.js';

export function createWorkspace(
  deps: { workspaces: WorkspaceStore },
  input: CreateWorkspaceInput,
): Promise<Result<Workspace>> {
  return deps.workspaces.insert({ id: newId('workspace'), slug: input.slug, name: input.name });
}

/** Finds a workspace by id (`ws_...`) or by slug, as operators type either. */
export async function findWorkspace(deps: { workspaces: WorkspaceStore }, idOrSlug: string) {
  return idOrSlug.startsWith('ws_')
    ? deps.workspaces.findById(idOrSlug)
    : deps.workspaces.findBySlug(idOrSlug);
}
