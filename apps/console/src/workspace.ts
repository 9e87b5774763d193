import { createContext, useContext } from 'react';
import type { Role } from './api';

/** The workspace the page is about, and the member's role in it. */
export interface Workspace {
  workspaceId: string;
  name: string;
  slug: string;
  role: Role;
  memberId: string;
}

export const WorkspaceContext = createContext<Workspace | null>(null);

export function useWorkspace(): Workspace {
  const workspace = useContext(WorkspaceContext);
  if (!workspace) throw new Error('useWorkspace outside a workspace page');
  return workspace;
}
