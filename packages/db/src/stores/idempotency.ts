import type { IdempotencyClaim, IdempotencyRecord, IdempotencyStore } from '@travelops/domain/idempotency';
import type { Knex } from 'knex';
import { prepared } from '../prepared.js';
import type { DbTimestamp } from './columns.js';

interface IdempotencyRow {
  scope: string;
  key: string;
  fingerprint: string;
  response_status: number;
  response_body: unknown;
  created_at: DbTimestamp;
}

const toRecord = (row: IdempotencyRow): IdempotencyRecord => ({
  scope: row.scope,
  key: row.key,
  fingerprint: row.fingerprint,
  responseStatus: row.response_status,
  responseBody: row.response_body,
  createdAt: new Date(row.created_at),
});

/**
 * The advisory lock's name: text cannot hold NUL, so a NUL separator fails; JSON of the pair is
 * unambiguous (no scope/key split can collide) and escapes every control character.
 */
const lockName = (scope: string, key: string): string => JSON.stringify([scope, key]);

export function createIdempotencyStore(db: Knex | Knex.Transaction): IdempotencyStore {
  const records = () => db<IdempotencyRow>('idempotency_keys');

  return {
    async claim(scope: string, key: string, notBefore: Date): Promise<IdempotencyClaim> {
      // A transaction-level lock outside a transaction would be released at once.
      if (!db.isTransaction) throw new Error('idempotency.claim needs a transaction.');
      // One round trip: the lock and the record (as of the statement's start; see `save`).
      const result: { rows: { locked: boolean; existing: IdempotencyRow | null }[] } = await prepared(
        db.raw(
          `select pg_try_advisory_xact_lock(hashtextextended(?, 0)) as locked,
                  (select to_jsonb(k) from idempotency_keys k
                    where k.scope = ? and k.key = ? and k.created_at >= ?) as existing`,
          [lockName(scope, key), scope, key, notBefore],
        ),
      );
      const row = result.rows[0];
      if (row?.locked !== true) return { taken: false };
      return { taken: true, existing: row.existing ? toRecord(row.existing) : null };
    },

    async save(record: Omit<IdempotencyRecord, 'createdAt'>, notBefore: Date): Promise<boolean> {
      // An expired record under the same key is replaced, and its clock starts again; a live
      // one stays (a twin that committed after our claim's read) and nothing is written.
      const written = await prepared(records())
        .insert({
          scope: record.scope,
          key: record.key,
          fingerprint: record.fingerprint,
          response_status: record.responseStatus,
          response_body: record.responseBody === undefined ? null : JSON.stringify(record.responseBody),
          created_at: db.fn.now(),
        })
        .onConflict(['scope', 'key'])
        .merge(['fingerprint', 'response_status', 'response_body', 'created_at'])
        .where('idempotency_keys.created_at', '<', notBefore)
        .returning('key');
      return written.length === 1;
    },

    async deleteOlderThan(cutoff: Date): Promise<number> {
      // Counted in SQL: knex-pglite answers del() with a result object where pg gives a number.
      const result: { rows: { deleted: number }[] } = await db.raw(
        `with deleted as (delete from idempotency_keys where created_at < ? returning 1)
         select count(*)::integer as deleted from deleted`,
        [cutoff],
      );
      return result.rows[0]?.deleted ?? 0;
    },
  };
}
