import type { ApiTokenRecord, ApiTokenStore } from '@travelops/domain/access';
import type { Page, PageRequest } from '@travelops/domain/shared';
import type { Knex } from 'knex';
import { prepared } from '../prepared.js';
import { batchedLookup } from './batch.js';
import { type DbTimestamp, pageNewestFirst, toDateOrNull } from './columns.js';

interface ApiTokenRow {
  id: string;
  workspace_id: string;
  role: ApiTokenRecord['role'];
  name: string;
  prefix: string;
  secret_hash: string;
  expires_at: DbTimestamp | null;
  revoked_at: DbTimestamp | null;
  last_used_at: DbTimestamp | null;
  created_at: DbTimestamp;
}

const toApiToken = (row: ApiTokenRow): ApiTokenRecord => ({
  id: row.id,
  workspaceId: row.workspace_id,
  role: row.role,
  name: row.name,
  prefix: row.prefix,
  secretHash: row.secret_hash,
  expiresAt: toDateOrNull(row.expires_at),
  revokedAt: toDateOrNull(row.revoked_at),
  lastUsedAt: toDateOrNull(row.last_used_at),
  createdAt: new Date(row.created_at),
});

export function createApiTokenStore(db: Knex | Knex.Transaction): ApiTokenStore {
  const tokens = () => db<ApiTokenRow>('api_tokens');
  // Every request's credential is read at least once: on the pool, concurrent reads share a statement.
  const onPool = !db.isTransaction;
  const byColumn = (column: 'id' | 'secret_hash') =>
    batchedLookup(async (keys) => {
      const rows = await prepared(tokens().whereRaw('?? = any(?)', [column, [...keys]]));
      return new Map(rows.map((row) => [row[column], toApiToken(row)]));
    });
  const byHash = onPool ? byColumn('secret_hash') : null;
  const byId = onPool ? byColumn('id') : null;

  return {
    async insert(
      token: Omit<ApiTokenRecord, 'createdAt' | 'revokedAt' | 'lastUsedAt'>,
    ): Promise<ApiTokenRecord> {
      const [row] = await tokens()
        .insert({
          id: token.id,
          workspace_id: token.workspaceId,
          role: token.role,
          name: token.name,
          prefix: token.prefix,
          secret_hash: token.secretHash,
          expires_at: token.expiresAt,
        })
        .returning('*');
      return toApiToken(row as ApiTokenRow);
    },

    // Expiry and revocation are the auth layer's decision; the record is returned as stored.
    async findBySecretHash(secretHash: string): Promise<ApiTokenRecord | null> {
      if (byHash) return byHash(secretHash);
      const row = await tokens().where({ secret_hash: secretHash }).first();
      return row ? toApiToken(row) : null;
    },

    async findById(id: string, options: { shareLock?: boolean } = {}): Promise<ApiTokenRecord | null> {
      if (byId && !options.shareLock) return byId(id);
      const query = prepared(tokens().where({ id }));
      if (options.shareLock) query.forShare();
      const row = await query.first();
      return row ? toApiToken(row) : null;
    },

    async listActive(workspaceId: string, page: PageRequest): Promise<Page<ApiTokenRecord>> {
      return pageNewestFirst(
        tokens().where({ workspace_id: workspaceId }).whereNull('revoked_at'),
        page,
        toApiToken,
      );
    },

    async revoke(id: string, at: Date, workspaceId?: string): Promise<ApiTokenRecord | null> {
      // coalesce keeps the first revocation time when a token is revoked twice.
      const [row] = await tokens()
        .where({ id, ...(workspaceId !== undefined && { workspace_id: workspaceId }) })
        .update({ revoked_at: db.raw('coalesce(revoked_at, ?)', [at]) })
        .returning('*');
      return row ? toApiToken(row as ApiTokenRow) : null;
    },

    async touch(id: string, at: Date): Promise<void> {
      await tokens().where({ id }).update({ last_used_at: at });
    },
  };
}
