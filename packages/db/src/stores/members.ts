import type { MemberRecord, MemberStore } from '@travelops/domain/access';
import {
  conflict,
  fail,
  ok,
  type Page,
  type PageRequest,
  type Result,
  type Role,
} from '@travelops/domain/shared';
import type { Knex } from 'knex';
import { constraintError } from '../errors.js';
import { type DbTimestamp, guarded, pageNewestFirst } from './columns.js';

interface MemberRow {
  id: string;
  workspace_id: string;
  email: string;
  role: MemberRecord['role'];
  password_hash: string;
  created_at: DbTimestamp;
}

const EMAIL_TAKEN = {
  members_workspace_email_key: conflict(
    'A member with this e-mail already exists in the workspace.',
    'email',
    'already_exists',
  ),
};

const toMember = (row: MemberRow): MemberRecord => ({
  id: row.id,
  workspaceId: row.workspace_id,
  email: row.email,
  role: row.role,
  passwordHash: row.password_hash,
  createdAt: new Date(row.created_at),
});

export function createMemberStore(db: Knex | Knex.Transaction): MemberStore {
  const members = () => db<MemberRow>('members');

  return {
    async findById(workspaceId: string, id: string): Promise<MemberRecord | null> {
      const row = await members().where({ workspace_id: workspaceId, id }).first();
      return row ? toMember(row) : null;
    },

    async lock(workspaceId: string, id: string): Promise<boolean> {
      const row = await members().where({ workspace_id: workspaceId, id }).forUpdate().first('id');
      return row !== undefined;
    },

    async findByEmail(email: string): Promise<MemberRecord[]> {
      const rows = await members().whereRaw('lower(email) = lower(?)', [email]).orderBy('id');
      return rows.map(toMember);
    },

    async list(workspaceId: string, page: PageRequest): Promise<Page<MemberRecord>> {
      return pageNewestFirst(members().where({ workspace_id: workspaceId }), page, toMember);
    },

    async lockAll(workspaceId: string): Promise<MemberRecord[]> {
      const rows = await members().where({ workspace_id: workspaceId }).orderBy('id').forUpdate();
      return rows.map(toMember);
    },

    async updateRole(workspaceId: string, id: string, role: Role): Promise<MemberRecord | null> {
      const [row] = await members().where({ workspace_id: workspaceId, id }).update({ role }).returning('*');
      return row ? toMember(row as MemberRow) : null;
    },

    async delete(workspaceId: string, id: string): Promise<boolean> {
      const rows = await members().where({ workspace_id: workspaceId, id }).delete().returning('id');
      return rows.length > 0;
    },

    async insert(member: Omit<MemberRecord, 'createdAt'>): Promise<Result<MemberRecord>> {
      try {
        const [row] = await guarded(db, (q) =>
          q<MemberRow>('members')
            .insert({
              id: member.id,
              workspace_id: member.workspaceId,
              email: member.email,
              role: member.role,
              password_hash: member.passwordHash,
            })
            .returning('*'),
        );
        return ok(toMember(row as MemberRow));
      } catch (error) {
        const known = constraintError(error, EMAIL_TAKEN);
        if (known) return fail(known);
        throw error;
      }
    },
  };
}
