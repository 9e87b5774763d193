export { listApiKeys, toApiKeyView } from './api-keys.js';
export { changeMemberRole, listMembers, type MemberDeps, removeMember, toMemberView } from './members.js';
export * from './ports.js';
export * from './schemas.js';
export { ENDED_SESSION_RETENTION_MS, purgeEndedSessions, toSessionView } from './sessions.js';
export * from './workspace-schemas.js';
export { createWorkspace, findWorkspace, updateWorkspace } from './workspaces.js';
