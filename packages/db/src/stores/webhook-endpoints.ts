import type { Page, PageRequest } from '@travelops/domain/shared';
import type {
  WebhookEndpointPatch,
  WebhookEndpointRecord,
  WebhookEndpointStore,
  WebhookEventType,
} from '@travelops/domain/webhooks';
import type { Knex } from 'knex';
import { type DbTimestamp, pageNewestFirst, toColumns, toIso, toIsoOrNull } from './columns.js';

export interface WebhookEndpointRow {
  id: string;
  workspace_id: string;
  url: string;
  events: WebhookEventType[];
  description: string | null;
  enabled: boolean;
  disabled_reason: string | null;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: DbTimestamp | null;
  created_at: DbTimestamp;
  updated_at: DbTimestamp;
}

const ENDPOINT_COLUMNS = {
  url: 'url',
  events: 'events',
  description: 'description',
  enabled: 'enabled',
  disabledReason: 'disabled_reason',
  secret: 'secret',
  previousSecret: 'previous_secret',
  previousSecretExpiresAt: 'previous_secret_expires_at',
} as const satisfies { readonly [K in keyof Required<WebhookEndpointPatch>]: string };

export function toEndpointRecord(row: WebhookEndpointRow): WebhookEndpointRecord {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    url: row.url,
    events: row.events,
    description: row.description,
    enabled: row.enabled,
    disabledReason: row.disabled_reason,
    secret: row.secret,
    previousSecret: row.previous_secret,
    previousSecretExpiresAt: toIsoOrNull(row.previous_secret_expires_at),
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
}

export function createWebhookEndpointStore(db: Knex | Knex.Transaction): WebhookEndpointStore {
  const endpoints = () => db<WebhookEndpointRow>('webhook_endpoints');

  async function findById(workspaceId: string, id: string): Promise<WebhookEndpointRecord | null> {
    const row = await endpoints().where({ workspace_id: workspaceId, id }).first();
    return row ? toEndpointRecord(row) : null;
  }

  return {
    findById,

    async insert(
      endpoint: Omit<WebhookEndpointRecord, 'createdAt' | 'updatedAt'>,
    ): Promise<WebhookEndpointRecord> {
      // text[]: both drivers send a JS array of strings as a PostgreSQL array.
      const [row] = await endpoints()
        .insert({
          id: endpoint.id,
          workspace_id: endpoint.workspaceId,
          ...toColumns<WebhookEndpointPatch>(endpoint, ENDPOINT_COLUMNS),
        })
        .returning('*');
      return toEndpointRecord(row as WebhookEndpointRow);
    },

    async list(workspaceId: string, page: PageRequest): Promise<Page<WebhookEndpointRecord>> {
      const query = endpoints().where({ workspace_id: workspaceId });
      return pageNewestFirst(query, page, toEndpointRecord);
    },

    async update(
      workspaceId: string,
      id: string,
      patch: WebhookEndpointPatch,
    ): Promise<WebhookEndpointRecord | null> {
      const changes = toColumns(patch, ENDPOINT_COLUMNS);
      if (Object.keys(changes).length === 0) return findById(workspaceId, id);
      const [row] = await endpoints()
        .where({ workspace_id: workspaceId, id })
        .update({ ...changes, updated_at: db.fn.now() })
        .returning('*');
      return row ? toEndpointRecord(row as WebhookEndpointRow) : null;
    },

    async delete(workspaceId: string, id: string): Promise<boolean> {
      // Its deliveries go with it (ON DELETE CASCADE).
      const deleted = await endpoints().where({ workspace_id: workspaceId, id }).del().returning('id');
      return deleted.length > 0;
    },
  };
}
