import type { Page, PageRequest, UnitOfWork } from '../shared/ports.js';
import type { ApiTokenStore } from './ports.js';
import type { ApiKeyView } from './schemas.js';
import type { ApiTokenRecord } from './workspace-schemas.js';

const iso = (date: Date | null) => date?.toISOString() ?? null;

/** An API token as the API-key settings show it: name, role, prefix, last use, expiry; never the hash. */
export const toApiKeyView = (token: ApiTokenRecord): ApiKeyView => ({
  id: token.id,
  name: token.name,
  role: token.role,
  prefix: token.prefix,
  lastUsedAt: iso(token.lastUsedAt),
  expiresAt: iso(token.expiresAt),
  revokedAt: iso(token.revokedAt),
  createdAt: token.createdAt.toISOString(),
});

/** The workspace's API keys that are not revoked, newest first, as the settings show them. */
export async function listApiKeys(
  deps: { uow: UnitOfWork<{ apiTokens: ApiTokenStore }> },
  workspaceId: string,
  page: PageRequest,
): Promise<Page<ApiKeyView>> {
  const tokens = await deps.uow.stores.apiTokens.listActive(workspaceId, page);
  return { ...tokens, items: tokens.items.map(toApiKeyView) };
}
