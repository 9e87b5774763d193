import type { Role } from '../shared/enums.js';
import { notFound, unprocessable } from '../shared/errors.js';
import type { Clock, PageRequest, UnitOfWork } from '../shared/ports.js';
import { fail, ok, type Result } from '../shared/result.js';
import type { MemberStore, SessionStore } from './ports.js';
import type { MemberView } from './schemas.js';
import type { MemberRecord } from './workspace-schemas.js';

export interface MemberDeps {
  uow: UnitOfWork<{ members: MemberStore; sessions: SessionStore }>;
  clock: Clock;
}

/** A member as the API shows it: never the password hash. */
export const toMemberView = (member: MemberRecord): MemberView => ({
  id: member.id,
  email: member.email,
  role: member.role,
  createdAt: member.createdAt.toISOString(),
});

export function listMembers(
  deps: { uow: UnitOfWork<{ members: MemberStore }> },
  workspaceId: string,
  page: PageRequest,
) {
  return deps.uow.stores.members.list(workspaceId, page);
}

const lastAdmin = () =>
  unprocessable('A workspace keeps at least one ADMIN: promote another member first.', 'role', 'last_admin');

/** Is `member` the workspace's only ADMIN, among the locked `members`? */
const isLastAdmin = (members: MemberRecord[], member: MemberRecord) =>
  member.role === 'ADMIN' && members.filter((candidate) => candidate.role === 'ADMIN').length === 1;

/**
 * Decisions §6: a privilege change ends the member's sessions at once (they sign in again
 * and get a new session id). Setting the role it already has changes nothing.
 */
export function changeMemberRole(
  deps: MemberDeps,
  workspaceId: string,
  memberId: string,
  role: Role,
): Promise<Result<MemberRecord>> {
  return deps.uow.transaction(async ({ stores }) => {
    const members = await stores.members.lockAll(workspaceId);
    const member = members.find((candidate) => candidate.id === memberId);
    if (!member) return fail(notFound('member'));
    if (member.role === role) return ok(member);
    if (role !== 'ADMIN' && isLastAdmin(members, member)) return fail(lastAdmin());
    const updated = await stores.members.updateRole(workspaceId, memberId, role);
    if (!updated) return fail(notFound('member'));
    await endSessions(stores.sessions, memberId, deps.clock);
    return ok(updated);
  });
}

/** Removes the member and ends every session that included it, in one transaction. */
export function removeMember(
  deps: MemberDeps,
  workspaceId: string,
  memberId: string,
): Promise<Result<{ id: string; deleted: true }>> {
  return deps.uow.transaction(async ({ stores }) => {
    const members = await stores.members.lockAll(workspaceId);
    const member = members.find((candidate) => candidate.id === memberId);
    if (!member) return fail(notFound('member'));
    if (isLastAdmin(members, member)) return fail(lastAdmin());
    await endSessions(stores.sessions, memberId, deps.clock);
    await stores.members.delete(workspaceId, memberId);
    return ok({ id: memberId, deleted: true as const });
  });
}

const endSessions = (sessions: SessionStore, memberId: string, clock: Clock) =>
  sessions.revokeForMember(memberId, clock.now());
