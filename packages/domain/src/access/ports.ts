import type { Role } from '../shared/enums.js';
import type { Page, PageRequest } from '../shared/ports.js';
import type { Result } from '../shared/result.js';
import type { ApiTokenRecord, MemberRecord, TwoFactorRequirement, Workspace } from './workspace-schemas.js';

export interface WorkspaceStore {
  /** Fails with CONFLICT (field `slug`) when the slug is taken. */
  insert(workspace: Pick<Workspace, 'id' | 'slug' | 'name'>): Promise<Result<Workspace>>;
  findById(id: string): Promise<Workspace | null>;
  findBySlug(slug: string): Promise<Workspace | null>;
  /** Applies the patch; null when no such workspace. */
  update(id: string, patch: WorkspacePatch): Promise<Workspace | null>;
}

export type WorkspacePatch = Partial<
  Pick<Workspace, 'name' | 'replyToEmail' | 'customerRetentionMonths' | 'twoFactorRequired'>
>;

export interface MemberStore {
  /** Fails with CONFLICT (field `email`) when the e-mail is taken in the workspace. */
  insert(member: Omit<MemberRecord, 'createdAt'>): Promise<Result<MemberRecord>>;
  findById(workspaceId: string, id: string): Promise<MemberRecord | null>;
  /**
   * Locks the member row (FOR UPDATE) for the rest of the transaction: assignments of one
   * member serialise. False when no such member.
   */
  lock(workspaceId: string, id: string): Promise<boolean>;
  /** Every membership of one e-mail (case-insensitive), across workspaces. */
  findByEmail(email: string): Promise<MemberRecord[]>;
  /** Newest first. */
  list(workspaceId: string, page: PageRequest): Promise<Page<MemberRecord>>;
  /**
   * Locks every member of the workspace (FOR UPDATE) for the rest of the transaction and
   * returns them: role changes and removals serialise per workspace (the last ADMIN stays).
   */
  lockAll(workspaceId: string): Promise<MemberRecord[]>;
  updateRole(workspaceId: string, id: string, role: Role): Promise<MemberRecord | null>;
  /** False when there was no such member. */
  delete(workspaceId: string, id: string): Promise<boolean>;
}

export interface ApiTokenStore {
  insert(token: Omit<ApiTokenRecord, 'createdAt' | 'revokedAt' | 'lastUsedAt'>): Promise<ApiTokenRecord>;
  findBySecretHash(secretHash: string): Promise<ApiTokenRecord | null>;
  /**
   * The token by id. With `shareLock`, the row stays share-locked to the end of the current
   * transaction, so a concurrent revoke waits until that transaction ends (and one already
   * committed is seen).
   */
  findById(id: string, options?: { shareLock?: boolean }): Promise<ApiTokenRecord | null>;
  /** The workspace's tokens that are not revoked, newest first. */
  listActive(workspaceId: string, page: PageRequest): Promise<Page<ApiTokenRecord>>;
  /** Marks the token revoked (only within `workspaceId`, when given); null when no such token. */
  revoke(id: string, at: Date, workspaceId?: string): Promise<ApiTokenRecord | null>;
  /** Records a use of the token. */
  touch(id: string, at: Date): Promise<void>;
}

/** A workspace a session may act in: the member there and its current role. */
export interface SessionMembership {
  memberId: string;
  workspaceId: string;
  workspaceSlug: string;
  workspaceName: string;
  role: Role;
  /** The workspace's setting: whether this role must have passed a second factor to act there. */
  twoFactorRequired: TwoFactorRequirement;
}

/** A sign-in of the first-party application; only the hash of its secret (the cookie) is kept. */
export interface SessionRecord {
  id: string;
  /** The e-mail signed in with, lower-cased. */
  email: string;
  createdAt: Date;
  lastSeenAt: Date;
  /** Slides forward with use, never past the absolute lifetime. */
  expiresAt: Date;
  revokedAt: Date | null;
  /** When the sign-in passed a second factor (TOTP or a recovery code); null: password only. */
  twoFactorAt: Date | null;
}

export interface SessionWithMemberships extends SessionRecord {
  memberships: SessionMembership[];
  /** Whether the e-mail has a second factor turned on now (the session may predate it). */
  twoFactorEnabled: boolean;
}

export interface SessionStore {
  insert(
    session: Omit<SessionRecord, 'lastSeenAt' | 'revokedAt'> & { secretHash: string },
    memberIds: readonly string[],
  ): Promise<SessionWithMemberships>;
  /** Records that the session passed a second factor at `at` (enrolment proves one too). */
  markTwoFactor(id: string, at: Date): Promise<void>;
  findBySecretHash(secretHash: string): Promise<SessionWithMemberships | null>;
  /** Like `ApiTokenStore.findById`: with `shareLock`, a concurrent revoke waits for the current transaction. */
  findById(id: string, options?: { shareLock?: boolean }): Promise<SessionRecord | null>;
  touch(id: string, seenAt: Date, expiresAt: Date): Promise<void>;
  revoke(id: string, at: Date): Promise<void>;
  /** Ends every live session that includes the member; returns how many. */
  revokeForMember(memberId: string, at: Date): Promise<number>;
  /** Deletes sessions that expired or were revoked before `cutoff`; returns how many. */
  deleteEndedBefore(cutoff: Date): Promise<number>;
}

/** An e-mail's second factor: a TOTP secret (RFC 6238) and one-time recovery codes. */
export interface TwoFactorRecord {
  /** Lower-cased: a session is an e-mail's, over its memberships. */
  email: string;
  /** Base32; null until a code confirms the enrolment. */
  secret: string | null;
  /** The secret of an enrolment not yet confirmed. */
  pendingSecret: string | null;
  enabledAt: Date | null;
  /** The last time step a code was accepted at: a code works once. */
  lastStep: number;
  /** SHA-256 hashes of the recovery codes not used yet. */
  recoveryCodeHashes: string[];
}

export interface TwoFactorStore {
  find(email: string): Promise<TwoFactorRecord | null>;
  /** Starts (or restarts) an enrolment: the pending secret replaces any earlier pending one. */
  setPending(email: string, secret: string): Promise<void>;
  /** Turns the pending secret on with these recovery codes; false when it is no longer pending. */
  enable(email: string, pendingSecret: string, recoveryCodeHashes: string[], at: Date): Promise<boolean>;
  /** Records a code's time step unless one as late was used: false when it was (a replay). */
  useStep(email: string, step: number): Promise<boolean>;
  /** Removes one recovery code; false when it is not (or no longer) there: each works once. */
  useRecoveryCode(email: string, codeHash: string): Promise<boolean>;
  /** Turns the second factor off and forgets its secret and codes. */
  disable(email: string): Promise<void>;
}
