import type {
  SessionMembership,
  SessionRecord,
  SessionStore,
  SessionWithMemberships,
  TwoFactorRequirement,
} from '@travelops/domain/access';
import type { Role } from '@travelops/domain/shared';
import type { Knex } from 'knex';
import type { DbTimestamp } from './columns.js';

interface SessionRow {
  id: string;
  secret_hash: string;
  email: string;
  created_at: DbTimestamp;
  last_seen_at: DbTimestamp;
  expires_at: DbTimestamp;
  revoked_at: DbTimestamp | null;
  two_factor_at: DbTimestamp | null;
}

interface MembershipRow {
  member_id: string;
  workspace_id: string;
  workspace_slug: string;
  workspace_name: string;
  role: Role;
  two_factor_required: TwoFactorRequirement;
}

const toSession = (row: SessionRow): SessionRecord => ({
  id: row.id,
  email: row.email,
  createdAt: new Date(row.created_at),
  lastSeenAt: new Date(row.last_seen_at),
  expiresAt: new Date(row.expires_at),
  revokedAt: row.revoked_at === null ? null : new Date(row.revoked_at),
  twoFactorAt: row.two_factor_at === null ? null : new Date(row.two_factor_at),
});

const toMembership = (row: MembershipRow): SessionMembership => ({
  memberId: row.member_id,
  workspaceId: row.workspace_id,
  workspaceSlug: row.workspace_slug,
  workspaceName: row.workspace_name,
  role: row.role,
  twoFactorRequired: row.two_factor_required,
});

export function createSessionStore(db: Knex | Knex.Transaction): SessionStore {
  const sessions = () => db<SessionRow>('sessions');

  /** The session's memberships with each member's current role, by workspace slug. */
  async function withMemberships(row: SessionRow): Promise<SessionWithMemberships> {
    const rows: MembershipRow[] = await db('session_members as sm')
      .join('members as m', 'm.id', 'sm.member_id')
      .join('workspaces as w', 'w.id', 'm.workspace_id')
      .where('sm.session_id', row.id)
      .orderBy('w.slug')
      .select(
        'm.id as member_id',
        'm.workspace_id',
        'w.slug as workspace_slug',
        'w.name as workspace_name',
        'm.role',
        'w.two_factor_required',
      );
    const enabled = await db('two_factor')
      .where({ email: row.email })
      .whereNotNull('enabled_at')
      .first('email');
    return {
      ...toSession(row),
      memberships: rows.map(toMembership),
      twoFactorEnabled: enabled !== undefined,
    };
  }

  return {
    async insert(session, memberIds) {
      const [row] = await sessions()
        .insert({
          id: session.id,
          secret_hash: session.secretHash,
          email: session.email,
          created_at: session.createdAt,
          last_seen_at: session.createdAt,
          expires_at: session.expiresAt,
          two_factor_at: session.twoFactorAt,
        })
        .returning('*');
      if (memberIds.length) {
        await db('session_members').insert(
          memberIds.map((memberId) => ({ session_id: session.id, member_id: memberId })),
        );
      }
      return withMemberships(row as SessionRow);
    },

    // Expiry and revocation are the auth layer's decision; the record is returned as stored.
    async findBySecretHash(secretHash) {
      const row = await sessions().where({ secret_hash: secretHash }).first();
      return row ? withMemberships(row) : null;
    },

    async findById(id, options = {}) {
      const query = sessions().where({ id });
      if (options.shareLock) query.forShare();
      const row = await query.first();
      return row ? toSession(row) : null;
    },

    async markTwoFactor(id, at) {
      await sessions().where({ id }).update({ two_factor_at: at });
    },

    async touch(id, seenAt, expiresAt) {
      await sessions().where({ id }).whereNull('revoked_at').update({
        last_seen_at: seenAt,
        expires_at: expiresAt,
      });
    },

    async revoke(id, at) {
      await sessions().where({ id }).whereNull('revoked_at').update({ revoked_at: at });
    },

    async deleteEndedBefore(cutoff) {
      // Counted in SQL: knex-pglite answers del() with a result object where pg gives a number.
      const result: { rows: { deleted: number }[] } = await db.raw(
        `with deleted as (
           delete from sessions where expires_at < ? or revoked_at < ? returning 1
         ) select count(*)::integer as deleted from deleted`,
        [cutoff, cutoff],
      );
      return result.rows[0]?.deleted ?? 0;
    },

    async revokeForMember(memberId, at) {
      const rows = await sessions()
        .whereIn('id', db('session_members').select('session_id').where({ member_id: memberId }))
        .whereNull('revoked_at')
        .update({ revoked_at: at })
        .returning('id');
      return rows.length;
    },
  };
}
