import type { TwoFactorRecord, TwoFactorStore } from '@travelops/domain/access';
import type { Knex } from 'knex';
import type { DbTimestamp } from './columns.js';

interface TwoFactorRow {
  email: string;
  secret: string | null;
  pending_secret: string | null;
  enabled_at: DbTimestamp | null;
  last_step: string | number;
  recovery_code_hashes: string[];
}

const toRecord = (row: TwoFactorRow): TwoFactorRecord => ({
  email: row.email,
  secret: row.secret,
  pendingSecret: row.pending_secret,
  enabledAt: row.enabled_at === null ? null : new Date(row.enabled_at),
  lastStep: Number(row.last_step),
  recoveryCodeHashes: row.recovery_code_hashes,
});

/** Every change is one statement whose condition decides it: two requests at once cannot both use one code. */
export function createTwoFactorStore(db: Knex | Knex.Transaction): TwoFactorStore {
  const table = () => db<TwoFactorRow>('two_factor');
  return {
    async find(email) {
      const row = await table().where({ email }).first();
      return row ? toRecord(row) : null;
    },

    async setPending(email, secret) {
      await db.raw(
        `insert into two_factor (email, pending_secret) values (?, ?)
         on conflict (email) do update set pending_secret = excluded.pending_secret`,
        [email, secret],
      );
    },

    async enable(email, pendingSecret, recoveryCodeHashes, at) {
      const updated = await table()
        .where({ email, pending_secret: pendingSecret })
        .update({
          secret: pendingSecret,
          pending_secret: null,
          enabled_at: at,
          last_step: 0,
          recovery_code_hashes: recoveryCodeHashes,
        })
        .returning('email');
      return updated.length === 1;
    },

    async useStep(email, step) {
      const updated = await table()
        .where({ email })
        .where('last_step', '<', step)
        .update({ last_step: step })
        .returning('email');
      return updated.length === 1;
    },

    async useRecoveryCode(email, codeHash) {
      const result: { rows: unknown[] } = await db.raw(
        `update two_factor set recovery_code_hashes = array_remove(recovery_code_hashes, ?)
          where email = ? and ? = any(recovery_code_hashes) returning email`,
        [codeHash, email, codeHash],
      );
      return result.rows.length === 1;
    },

    async disable(email) {
      await table().where({ email }).del();
    },
  };
}
