// The access context's face: workspaces, members, API keys and sessions.
// Other contexts, adapters and apps use these names and nothing else of this folder.
export { listApiKeys, toApiKeyView } from './api-keys.js';
export { changeMemberRole, listMembers, removeMember, toMemberView } from './members.js';
export type {
  ApiTokenStore,
  MemberStore,
  SessionMembership,
  SessionRecord,
  SessionStore,
  SessionWithMemberships,
  TwoFactorRecord,
  TwoFactorStore,
  WorkspacePatch,
  WorkspaceStore,
} from './ports.js';
export {
  ApiKeySchema,
  ApiKeyWithSecretSchema,
  CreateApiKeySchema,
  LoginSchema,
  MemberSchema,
  RecoveryCodesSchema,
  SecondFactorSchema,
  type SecondFactorInput,
  SessionSchema,
  SessionWorkspaceSchema,
  SignedOutSchema,
  TwoFactorCodeSchema,
  TwoFactorEnrolmentSchema,
  TwoFactorRequiredSchema,
  UpdateMemberSchema,
} from './schemas.js';
export { needsSecondFactor, purgeEndedSessions, toSessionView } from './sessions.js';
export {
  type ApiTokenRecord,
  CreateMemberSchema,
  CreateWorkspaceSchema,
  type MemberRecord,
  RoleSchema,
  TokenRoleSchema,
  type TwoFactorRequirement,
  TwoFactorRequirementSchema,
  UpdateWorkspaceSchema,
  type Workspace,
  WorkspaceSchema,
} from './workspace-schemas.js';
export { createWorkspace, findWorkspace, updateWorkspace } from './workspaces.js';
