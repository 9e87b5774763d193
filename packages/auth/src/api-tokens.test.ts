import type { ApiTokenRecord, ApiTokenStore } from '@travelops/domain/access';
import type { Clock } from '@travelops/domain/shared';
import { describe, expect, it } from 'vitest';
import type { ApiTokenDeps } from './api-tokens.js';
import {
  API_TOKEN_PREFIX,
  authenticateBearer,
  generateApiTokenSecret,
  hashTokenSecret,
  issueApiToken,
  revokeApiToken,
  tokenDisplayPrefix,
} from './api-tokens.js';

function createMemoryApiTokenStore(): ApiTokenStore & { rows: ApiTokenRecord[] } {
  const rows: ApiTokenRecord[] = [];
  return {
    rows,
    async insert(token) {
      const row = { ...token, createdAt: new Date(), revokedAt: null, lastUsedAt: null };
      rows.push(row);
      return row;
    },
    async findBySecretHash(secretHash) {
      return rows.find((row) => row.secretHash === secretHash) ?? null;
    },
    async findById(id) {
      return rows.find((row) => row.id === id) ?? null;
    },
    async listActive() {
      throw new Error('not used here');
    },
    async revoke(id, at, workspaceId) {
      const row = rows.find(
        (candidate) =>
          candidate.id === id && (workspaceId === undefined || candidate.workspaceId === workspaceId),
      );
      if (!row) return null;
      row.revokedAt ??= at;
      return row;
    },
    async touch(id, at) {
      const row = rows.find((candidate) => candidate.id === id);
      if (row) row.lastUsedAt = at;
    },
  };
}

function createTestClock(start = '2030-01-01T00:00:00.000Z'): Clock & { set(iso: string): void } {
  let current = new Date(start);
  return {
    now: () => new Date(current),
    set(iso) {
      current = new Date(iso);
    },
  };
}

function setup() {
  const apiTokens = createMemoryApiTokenStore();
  const deps = {
    apiTokens,
    uow: { stores: { apiTokens } } as unknown as ApiTokenDeps['uow'],
    clock: createTestClock(),
  };
  return deps;
}

const GENERIC_INVALID = 'The bearer token is invalid, expired or revoked.';

describe('generateApiTokenSecret', () => {
  it('is tops_ plus 43 base62 characters (about 256 bits)', () => {
    const secret = generateApiTokenSecret();
    expect(secret).toMatch(/^tops_[0-9A-Za-z]{43}$/);
    expect(secret.startsWith(API_TOKEN_PREFIX)).toBe(true);
  });

  it('never repeats over 1000 draws', () => {
    const secrets = new Set(Array.from({ length: 1000 }, generateApiTokenSecret));
    expect(secrets.size).toBe(1000);
  });

  it('uses the whole base62 alphabet', () => {
    const seen = new Set(Array.from({ length: 200 }, generateApiTokenSecret).join(''));
    for (const char of '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz') {
      expect(seen.has(char)).toBe(true);
    }
  });
});

describe('hashTokenSecret and tokenDisplayPrefix', () => {
  it('hashes to lowercase SHA-256 hex, deterministically', () => {
    expect(hashTokenSecret('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hashTokenSecret('tops_x')).toBe(hashTokenSecret('tops_x'));
  });

  it('shows the first 12 characters', () => {
    expect(tokenDisplayPrefix('tops_abcdefghijklmnop')).toBe('tops_abcdefg');
  });
});

describe('issueApiToken', () => {
  it('stores the hash and display prefix, never the secret', async () => {
    const deps = setup();
    const { token, secret } = await issueApiToken(deps, {
      workspaceId: 'ws_1',
      role: 'OPERATIONS',
      name: 'Booking sync',
    });
    expect(token.id).toMatch(/^tok_/);
    expect(token.secretHash).toBe(hashTokenSecret(secret));
    expect(token.prefix).toBe(secret.slice(0, 12));
    expect(token.expiresAt).toBeNull();
    expect(JSON.stringify(deps.apiTokens.rows)).not.toContain(secret);
  });

  it('sets expiresAt to now plus the given days', async () => {
    const deps = setup();
    const { token } = await issueApiToken(deps, {
      workspaceId: 'ws_1',
      role: 'READ_ONLY',
      name: 'Reports',
      expiresInDays: 30,
    });
    expect(token.expiresAt?.toISOString()).toBe('2030-01-31T00:00:00.000Z');
  });

  it.each([0, -1, 1.5, Number.NaN])('rejects expiresInDays %s as a bug', async (days) => {
    const deps = setup();
    await expect(
      issueApiToken(deps, { workspaceId: 'ws_1', role: 'ADMIN', name: 'x', expiresInDays: days }),
    ).rejects.toThrow(RangeError);
  });
});

describe('authenticateBearer', () => {
  it('a valid token yields its principal', async () => {
    const deps = setup();
    const { token, secret } = await issueApiToken(deps, { workspaceId: 'ws_1', role: 'ADMIN', name: 'CI' });
    const result = await authenticateBearer(`Bearer ${secret}`, deps);
    expect(result).toEqual({
      ok: true,
      value: { kind: 'api_token', tokenId: token.id, workspaceId: 'ws_1', role: 'ADMIN' },
    });
  });

  it('accepts the scheme in any case', async () => {
    const deps = setup();
    const { secret } = await issueApiToken(deps, { workspaceId: 'ws_1', role: 'ADMIN', name: 'CI' });
    for (const scheme of ['bearer', 'BEARER', 'BeArEr']) {
      expect((await authenticateBearer(`${scheme} ${secret}`, deps)).ok).toBe(true);
    }
  });

  it.each([
    ['absent', undefined],
    ['empty', ''],
    ['blank', '   '],
  ])('a %s header is 401 "missing"', async (_label, header) => {
    const result = await authenticateBearer(header, setup());
    expect(result).toEqual({
      ok: false,
      error: { code: 'UNAUTHENTICATED', message: expect.stringMatching(/^Missing/) },
    });
  });

  it.each([
    ['another scheme', 'Basic dXNlcjpwYXNz'],
    ['the scheme alone', 'Bearer'],
    ['the scheme and a space', 'Bearer '],
    ['no space', 'Bearertops_abc'],
    ['two spaces', 'Bearer  tops_abc'],
    ['a tab', 'Bearer\ttops_abc'],
    ['a leading space', ' Bearer tops_abc'],
    ['a trailing space', 'Bearer tops_abc '],
    ['two tokens', 'Bearer tops_abc tops_def'],
    ['a character outside base62 and _', 'Bearer tops_abc-def'],
    ['base64 padding', 'Bearer dG9wcw=='],
    ['a newline', 'Bearer tops_abc\n'],
    ['an absurd length', `Bearer tops_${'a'.repeat(10_000)}`],
    ['just over the bound', `Bearer ${'a'.repeat(257)}`],
  ])('a header with %s is 401 "malformed"', async (_label, header) => {
    const deps = setup();
    let lookups = 0;
    const apiTokens = {
      ...deps.apiTokens,
      findBySecretHash: async (hash: string) => {
        lookups += 1;
        return deps.apiTokens.findBySecretHash(hash);
      },
    };
    const counted = { ...deps, uow: { stores: { apiTokens } } as unknown as ApiTokenDeps['uow'] };
    const result = await authenticateBearer(header, counted);
    expect(result).toEqual({
      ok: false,
      error: { code: 'UNAUTHENTICATED', message: expect.stringMatching(/^Malformed/) },
    });
    expect(lookups).toBe(0);
  });

  it('an unknown token is 401 with the generic message', async () => {
    const result = await authenticateBearer(`Bearer ${generateApiTokenSecret()}`, setup());
    expect(result).toEqual({ ok: false, error: { code: 'UNAUTHENTICATED', message: GENERIC_INVALID } });
  });

  it('an expired token is 401 with the generic message', async () => {
    const deps = setup();
    const { secret } = await issueApiToken(deps, {
      workspaceId: 'ws_1',
      role: 'ADMIN',
      name: 'x',
      expiresInDays: 1,
    });
    deps.clock.set('2030-01-05T00:00:00.000Z');
    const result = await authenticateBearer(`Bearer ${secret}`, deps);
    expect(result).toEqual({ ok: false, error: { code: 'UNAUTHENTICATED', message: GENERIC_INVALID } });
  });

  it('a token is valid one millisecond before expiresAt and 401 exactly at it', async () => {
    const deps = setup();
    const { secret } = await issueApiToken(deps, {
      workspaceId: 'ws_1',
      role: 'ADMIN',
      name: 'x',
      expiresInDays: 1,
    });
    deps.clock.set('2030-01-01T23:59:59.999Z');
    expect((await authenticateBearer(`Bearer ${secret}`, deps)).ok).toBe(true);
    deps.clock.set('2030-01-02T00:00:00.000Z');
    expect(await authenticateBearer(`Bearer ${secret}`, deps)).toEqual({
      ok: false,
      error: { code: 'UNAUTHENTICATED', message: GENERIC_INVALID },
    });
  });

  it('a revoked token is 401 with the generic message, from the moment revoke returns', async () => {
    const deps = setup();
    const { token, secret } = await issueApiToken(deps, { workspaceId: 'ws_1', role: 'ADMIN', name: 'x' });
    expect((await authenticateBearer(`Bearer ${secret}`, deps)).ok).toBe(true);
    const revoked = await revokeApiToken(deps, token.id);
    expect(revoked.ok && revoked.value.revokedAt?.toISOString()).toBe('2030-01-01T00:00:00.000Z');
    expect(await authenticateBearer(`Bearer ${secret}`, deps)).toEqual({
      ok: false,
      error: { code: 'UNAUTHENTICATED', message: GENERIC_INVALID },
    });
  });

  it('never echoes the presented token in its message', async () => {
    const deps = setup();
    const secret = generateApiTokenSecret();
    for (const header of [`Bearer ${secret}`, `Bearer ${secret}!`, `Token ${secret}`]) {
      const result = await authenticateBearer(header, deps);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error.message).not.toContain(secret.slice(5));
    }
  });
});

describe('revokeApiToken', () => {
  it('an unknown id is NOT_FOUND', async () => {
    const result = await revokeApiToken(setup(), 'tok_missing');
    expect(result).toEqual({ ok: false, error: { code: 'NOT_FOUND', message: expect.any(String) } });
  });

  it("another workspace's token is NOT_FOUND and stays live", async () => {
    const deps = setup();
    const { token, secret } = await issueApiToken(deps, { workspaceId: 'ws_1', role: 'ADMIN', name: 'x' });
    expect((await revokeApiToken(deps, token.id, 'ws_2')).ok).toBe(false);
    expect((await authenticateBearer(`Bearer ${secret}`, deps)).ok).toBe(true);
    expect((await revokeApiToken(deps, token.id, 'ws_1')).ok).toBe(true);
    expect((await authenticateBearer(`Bearer ${secret}`, deps)).ok).toBe(false);
  });
});

describe('last use', () => {
  it('is recorded on the first use and then at most once a minute', async () => {
    const deps = setup();
    const { token, secret } = await issueApiToken(deps, { workspaceId: 'ws_1', role: 'ADMIN', name: 'x' });
    const row = () => deps.apiTokens.rows.find((candidate) => candidate.id === token.id);
    await authenticateBearer(`Bearer ${secret}`, deps);
    expect(row()?.lastUsedAt?.toISOString()).toBe('2030-01-01T00:00:00.000Z');
    deps.clock.set('2030-01-01T00:00:59.999Z');
    await authenticateBearer(`Bearer ${secret}`, deps);
    expect(row()?.lastUsedAt?.toISOString()).toBe('2030-01-01T00:00:00.000Z');
    deps.clock.set('2030-01-01T00:01:00.000Z');
    await authenticateBearer(`Bearer ${secret}`, deps);
    expect(row()?.lastUsedAt?.toISOString()).toBe('2030-01-01T00:01:00.000Z');
  });
});
