import { createHash } from 'node:crypto';
import type { ApiTokenRecord, ApiTokenStore } from '@travelops/domain/access';
import {
  type Clock,
  type DomainError,
  fail,
  newId,
  notFound,
  ok,
  type Result,
  type Role,
  randomBase62,
  type TokenRole,
  type UnitOfWork,
} from '@travelops/domain/shared';

export const API_TOKEN_PREFIX = 'tops_';

/** 43 base62 characters carry about 256 bits; the spec asks for at least 128. */
const SECRET_RANDOM_LENGTH = 43;
const DISPLAY_PREFIX_LENGTH = 12;
/** Far above any secret we issue; longer values are rejected before any hashing or lookup. */
const MAX_TOKEN_LENGTH = 256;
const BEARER_PATTERN = new RegExp(`^bearer ([A-Za-z0-9_]{1,${MAX_TOKEN_LENGTH}})$`, 'i');
const DAY_MS = 24 * 60 * 60 * 1000;

export interface ApiTokenDeps {
  uow: UnitOfWork<{ apiTokens: ApiTokenStore }>;
  clock: Clock;
}

/**
 * Who is calling, once a credential has been verified: an API token (bound to its workspace),
 * or a session acting through its member in the path's workspace.
 */
export type Principal = ApiTokenPrincipal | SessionPrincipal;
export type ApiTokenPrincipal = {
  kind: 'api_token';
  tokenId: string;
  workspaceId: string;
  role: TokenRole;
};
export type SessionPrincipal = {
  kind: 'session';
  sessionId: string;
  memberId: string;
  workspaceId: string;
  role: Role;
};

/** Last use is recorded at most this often per token, so reads do not each cost a write. */
const LAST_USED_RESOLUTION_MS = 60_000;

export function generateApiTokenSecret(): string {
  return `${API_TOKEN_PREFIX}${randomBase62(SECRET_RANDOM_LENGTH)}`;
}

/**
 * SHA-256 hex of a token secret. The secrets are random with >= 128 bits, so no guessing
 * attack benefits from a slow hash; a fast one keeps every authenticated request cheap.
 */
export function hashTokenSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** The leading characters shown in token listings, so an operator can tell tokens apart. */
export function tokenDisplayPrefix(secret: string): string {
  return secret.slice(0, DISPLAY_PREFIX_LENGTH);
}

export interface IssueApiTokenInput {
  workspaceId: string;
  role: TokenRole;
  name: string;
  expiresInDays?: number;
}

/** Creates a token and returns its secret, which exists only in this return value. */
export async function issueApiToken(
  deps: ApiTokenDeps,
  input: IssueApiTokenInput,
): Promise<{ token: ApiTokenRecord; secret: string }> {
  const { expiresInDays } = input;
  if (expiresInDays !== undefined && !(Number.isInteger(expiresInDays) && expiresInDays > 0)) {
    throw new RangeError('expiresInDays must be a positive integer');
  }
  const secret = generateApiTokenSecret();
  const expiresAt =
    expiresInDays === undefined ? null : new Date(deps.clock.now().getTime() + expiresInDays * DAY_MS);
  const token = await deps.uow.stores.apiTokens.insert({
    id: newId('apiToken'),
    workspaceId: input.workspaceId,
    role: input.role,
    name: input.name,
    prefix: tokenDisplayPrefix(secret),
    secretHash: hashTokenSecret(secret),
    expiresAt,
  });
  return { token, secret };
}

/** Revokes the token (within `workspaceId` only, when given): every later request with it is 401. */
export async function revokeApiToken(
  deps: ApiTokenDeps,
  tokenId: string,
  workspaceId?: string,
): Promise<Result<ApiTokenRecord>> {
  const revoked = await deps.uow.stores.apiTokens.revoke(tokenId, deps.clock.now(), workspaceId);
  return revoked ? ok(revoked) : fail(notFound('API token'));
}

/** Not revoked and not expired at `now` (an expiry instant is already expired). */
export const isLive = (token: { revokedAt: Date | null; expiresAt: Date | null }, now: Date) =>
  token.revokedAt === null && (token.expiresAt === null || token.expiresAt.getTime() > now.getTime());

const unauthenticated = (message: string): Result<never> => {
  const error: DomainError = { code: 'UNAUTHENTICATED', message };
  return fail(error);
};

/**
 * Verifies an `Authorization` header. Every failure is 401 UNAUTHENTICATED; the message
 * never repeats the token and does not say whether it was unknown, expired or revoked.
 */
export async function authenticateBearer(
  authorizationHeader: string | undefined,
  deps: ApiTokenDeps,
  options: { cache?: ApiTokenCache } = {},
): Promise<Result<ApiTokenPrincipal>> {
  if (authorizationHeader === undefined || authorizationHeader.trim() === '') {
    return unauthenticated('Missing bearer token: send the header "Authorization: Bearer <token>".');
  }
  // The length check first keeps an absurd header from reaching the regex, the hash or the store.
  const match =
    authorizationHeader.length <= 'bearer '.length + MAX_TOKEN_LENGTH
      ? BEARER_PATTERN.exec(authorizationHeader)
      : null;
  const secret = match?.[1];
  if (secret === undefined) {
    return unauthenticated('Malformed Authorization header: expected "Bearer <token>".');
  }
  const hash = hashTokenSecret(secret);
  const now = deps.clock.now();
  const { cache } = options;
  // Looking up by hash needs no constant-time compare: timing reveals nothing about a secret's hash.
  let token = cache?.get(hash, now) ?? null;
  if (token === null) {
    token = await deps.uow.stores.apiTokens.findBySecretHash(hash);
    if (token && cache) cache.set(token, now);
  }
  if (token === null || !isLive(token, now)) {
    return unauthenticated('The bearer token is invalid, expired or revoked.');
  }
  if (token.lastUsedAt === null || now.getTime() - token.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
    await deps.uow.stores.apiTokens.touch(token.id, now);
    cache?.set({ ...token, lastUsedAt: now }, now);
  }
  return ok({ kind: 'api_token', tokenId: token.id, workspaceId: token.workspaceId, role: token.role });
}

/**
 * Tokens verified in the last seconds, by secret hash, so that a read does not look its token
 * up twice (on admission and in the re-check before it answers). Only for reads, which always
 * re-check the credential against the database before answering (decisions §6): a token
 * revoked meanwhile is admitted from here, then refused by the re-check, which also makes
 * the caller `forget` it. A write never starts on a remembered token.
 */
export interface ApiTokenCache {
  get(secretHash: string, now: Date): ApiTokenRecord | null;
  set(token: ApiTokenRecord, now: Date): void;
  /** Drops a token the database refused (revoked or expired meanwhile). */
  forget(tokenId: string): void;
}

export function createApiTokenCache(options: { ttlMs?: number; maxEntries?: number } = {}): ApiTokenCache {
  const ttlMs = options.ttlMs ?? 10_000;
  const maxEntries = options.maxEntries ?? 10_000;
  const byHash = new Map<string, { token: ApiTokenRecord; until: number }>();
  return {
    get(secretHash, now) {
      const entry = byHash.get(secretHash);
      if (!entry) return null;
      if (entry.until > now.getTime()) return entry.token;
      byHash.delete(secretHash);
      return null;
    },
    set(token, now) {
      // Oldest first: a full cache drops the entry inserted longest ago.
      if (byHash.size >= maxEntries && !byHash.has(token.secretHash)) {
        const oldest = byHash.keys().next().value;
        if (oldest !== undefined) byHash.delete(oldest);
      }
      byHash.set(token.secretHash, { token, until: now.getTime() + ttlMs });
    },
    forget(tokenId) {
      for (const [hash, entry] of byHash) if (entry.token.id === tokenId) byHash.delete(hash);
    },
  };
}
