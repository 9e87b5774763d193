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
