import type { MemberRecord, MemberStore } from '@travelops/domain/access';
import { newId, type Result, type Role, type UnitOfWork } from '@travelops/domain/shared';
import { hashPassword } from './passwords.js';

/** Adds a member who signs in with this e-mail and password (only its scrypt hash is kept). */
export async function addMember(
  deps: { uow: UnitOfWork<{ members: MemberStore }> },
  input: { workspaceId: string; email: string; password: string; role: Role },
): Promise<Result<MemberRecord>> {
  return deps.uow.stores.members.insert({
    id: newId('member'),
    workspaceId: input.workspaceId,
    email: input.email,
    role: input.role,
    passwordHash: await hashPassword(input.password),
  });
}
