import type {
  ApiTokenStore,
  MemberRecord,
  MemberStore,
  SessionRecord,
  SessionStore,
  SessionWithMemberships,
  TwoFactorStore,
} from '@travelops/domain/access';
import type { Result, UnitOfWork } from '@travelops/domain/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { hashTokenSecret } from './api-tokens.js';
import { hashPassword } from './passwords.js';
import {
  authenticateSession,
  csrfTokenMatches,
  deriveCsrfToken,
  logIn,
  recheckCredential,
  SESSION_IDLE_MS,
  SESSION_LIFETIME_MS,
  type SignedIn,
  sessionPrincipal,
} from './sessions.js';

type StoredSession = SessionRecord & { secretHash: string; memberIds: readonly string[] };

/** A unit of work over stores in memory: `transaction` runs the work on the same stores. */
function inMemoryUnitOfWork<S>(stores: S): UnitOfWork<S> {
  const uow: UnitOfWork<S> = {
    stores,
    transaction: (work) => work(uow),
  };
  return uow;
}

/** Members and sessions in memory. */
function createWorld(members: MemberRecord[]) {
  const sessions: StoredSession[] = [];
  let now = new Date('2030-01-01T00:00:00.000Z');
  const withMemberships = (session: StoredSession): SessionWithMemberships => {
    const { secretHash: _hash, memberIds, ...record } = session;
    return {
      ...record,
      memberships: members
        .filter((member) => memberIds.includes(member.id))
        .map((member) => ({
          memberId: member.id,
          workspaceId: member.workspaceId,
          workspaceSlug: member.workspaceId,
          workspaceName: member.workspaceId,
          role: member.role,
          twoFactorRequired: 'NONE' as const,
        })),
      twoFactorEnabled: false,
    };
  };
  const sessionStore: SessionStore = {
    async insert(session, memberIds) {
      const stored = { ...session, lastSeenAt: session.createdAt, revokedAt: null, memberIds };
      sessions.push(stored);
      return withMemberships(stored);
    },
    async findBySecretHash(hash) {
      const found = sessions.find((session) => session.secretHash === hash);
      return found ? withMemberships(found) : null;
    },
    async findById(id) {
      return sessions.find((session) => session.id === id) ?? null;
    },
    async markTwoFactor(id, at) {
      const found = sessions.find((session) => session.id === id);
      if (found) found.twoFactorAt = at;
    },
    async touch(id, seenAt, expiresAt) {
      const found = sessions.find((session) => session.id === id);
      if (found) Object.assign(found, { lastSeenAt: seenAt, expiresAt });
    },
    async revoke(id, at) {
      const found = sessions.find((session) => session.id === id);
      if (found) found.revokedAt ??= at;
    },
    async revokeForMember() {
      return 0;
    },
    async deleteEndedBefore() {
      return 0;
    },
  };
  const stores = {
    members: { findByEmail: async (email: string) => members.filter((m) => m.email === email.toLowerCase()) },
    sessions: sessionStore,
    twoFactor: { find: async () => null },
  } as unknown as {
    members: MemberStore;
    sessions: SessionStore;
    apiTokens: ApiTokenStore;
    twoFactor: TwoFactorStore;
  };
  const clock = { now: () => new Date(now) };
  return {
    sessions,
    deps: { uow: inMemoryUnitOfWork(stores), clock },
    advance(ms: number) {
      now = new Date(now.getTime() + ms);
    },
  };
}

/** `logIn` for e-mails without a second factor (all of these tests'): the session, or the refusal. */
async function passwordLogIn(...args: Parameters<typeof logIn>): Promise<Result<SignedIn>> {
  const result = await logIn(...args);
  if (result.ok && 'twoFactorRequired' in result.value) throw new Error('no second factor here');
  return result as Result<SignedIn>;
}

let members: MemberRecord[];
beforeAll(async () => {
  const member = async (id: string, workspaceId: string, password: string, role: MemberRecord['role']) => ({
    id,
    workspaceId,
    email: 'pat@example.com',
    role,
    passwordHash: await hashPassword(password),
    createdAt: new Date(),
  });
  members = [
    await member('mem_a', 'ws_a', 'correct horse battery', 'ADMIN'),
    await member('mem_b', 'ws_b', 'correct horse battery', 'READ_ONLY'),
    await member('mem_c', 'ws_c', 'another password here', 'OPERATIONS'),
  ];
});

describe('logIn', () => {
  it('covers every membership whose password matches, and only those', async () => {
    const { deps } = createWorld(members);
    const result = await passwordLogIn(deps, { email: 'PAT@example.com', password: 'correct horse battery' });
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.session.email).toBe('pat@example.com');
    expect(result.value.session.memberships.map((m) => [m.workspaceId, m.role])).toEqual([
      ['ws_a', 'ADMIN'],
      ['ws_b', 'READ_ONLY'],
    ]);
    expect(result.value.secret).toMatch(/^[A-Za-z0-9]{43}$/);
    expect(result.value.session.expiresAt.getTime() - result.value.session.createdAt.getTime()).toBe(
      SESSION_IDLE_MS,
    );
  });

  it('an unknown e-mail and a wrong password get the same 401', async () => {
    const { deps } = createWorld(members);
    const unknown = await passwordLogIn(deps, {
      email: 'nobody@example.com',
      password: 'correct horse battery',
    });
    const wrong = await passwordLogIn(deps, { email: 'pat@example.com', password: 'wrong horse battery' });
    expect(unknown).toEqual(wrong);
    expect(wrong).toEqual({
      ok: false,
      error: { code: 'UNAUTHENTICATED', message: 'The e-mail or password is incorrect.' },
    });
  });

  it('stores only the hash of the secret, and ends the previous session it is given', async () => {
    const world = createWorld(members);
    const first = await passwordLogIn(world.deps, {
      email: 'pat@example.com',
      password: 'another password here',
    });
    if (!first.ok) throw new Error('login');
    expect(JSON.stringify(world.sessions)).not.toContain(first.value.secret);
    expect(world.sessions[0]?.secretHash).toBe(hashTokenSecret(first.value.secret));
    const second = await passwordLogIn(
      world.deps,
      { email: 'pat@example.com', password: 'another password here' },
      first.value.secret,
    );
    if (!second.ok) throw new Error('login');
    expect(second.value.session.id).not.toBe(first.value.session.id);
    expect((await authenticateSession(first.value.secret, world.deps)).ok).toBe(false);
    expect((await authenticateSession(second.value.secret, world.deps)).ok).toBe(true);
  });
});

describe('authenticateSession', () => {
  it.each([
    ['absent', undefined, /^Sign in/],
    ['empty', '', /^Sign in/],
    ['malformed', 'not a secret!', /invalid/],
    ['unknown', 'A'.repeat(43), /invalid/],
  ])('an %s cookie is 401', async (_label, secret, message) => {
    const { deps } = createWorld(members);
    const result = await authenticateSession(secret, deps);
    expect(result).toEqual({
      ok: false,
      error: { code: 'UNAUTHENTICATED', message: expect.stringMatching(message) },
    });
  });

  it('slides with use, ends after a day idle, and never outlives its absolute lifetime', async () => {
    const world = createWorld(members);
    const signedIn = await passwordLogIn(world.deps, {
      email: 'pat@example.com',
      password: 'another password here',
    });
    if (!signedIn.ok) throw new Error('login');
    const { secret } = signedIn.value;
    for (let day = 0; day < 6; day++) {
      world.advance(SESSION_IDLE_MS - 60_000);
      expect((await authenticateSession(secret, world.deps)).ok, `day ${day}`).toBe(true);
    }
    world.advance(SESSION_LIFETIME_MS);
    expect((await authenticateSession(secret, world.deps)).ok).toBe(false);

    const idle = await passwordLogIn(world.deps, {
      email: 'pat@example.com',
      password: 'another password here',
    });
    if (!idle.ok) throw new Error('login');
    world.advance(SESSION_IDLE_MS);
    expect((await authenticateSession(idle.value.secret, world.deps)).ok).toBe(false);
  });
});

describe('sessionPrincipal', () => {
  it("acts as the member of the path's workspace, with its role; no membership is 403", async () => {
    const { deps } = createWorld(members);
    const signedIn = await passwordLogIn(deps, {
      email: 'pat@example.com',
      password: 'correct horse battery',
    });
    if (!signedIn.ok) throw new Error('login');
    const { session } = signedIn.value;
    expect(sessionPrincipal(session, 'ws_b')).toEqual({
      ok: true,
      value: {
        kind: 'session',
        sessionId: session.id,
        memberId: 'mem_b',
        workspaceId: 'ws_b',
        role: 'READ_ONLY',
      },
    });
    expect(sessionPrincipal(session, 'ws_c')).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
  });
});

describe('CSRF tokens', () => {
  it('are derived from the session secret under the key, and compared exactly', () => {
    const token = deriveCsrfToken('key', 'secret-one');
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(deriveCsrfToken('key', 'secret-one')).toBe(token);
    expect(deriveCsrfToken('key', 'secret-two')).not.toBe(token);
    expect(deriveCsrfToken('other key', 'secret-one')).not.toBe(token);
    expect(csrfTokenMatches('key', 'secret-one', token)).toBe(true);
    for (const wrong of [undefined, '', token.slice(1), `${token}x`, deriveCsrfToken('key', 'secret-two')]) {
      expect(csrfTokenMatches('key', 'secret-one', wrong)).toBe(false);
    }
  });
});

describe('recheckCredential', () => {
  it('passes a live session and refuses one revoked meanwhile', async () => {
    const { deps } = createWorld(members);
    const signedIn = await passwordLogIn(deps, {
      email: 'pat@example.com',
      password: 'correct horse battery',
    });
    if (!signedIn.ok) throw new Error('login');
    const principal = sessionPrincipal(signedIn.value.session, 'ws_a');
    if (!principal.ok) throw new Error('principal');
    expect((await recheckCredential(principal.value, deps, { shareLock: true })).ok).toBe(true);
    await deps.uow.stores.sessions.revoke(signedIn.value.session.id, new Date());
    expect(await recheckCredential(principal.value, deps, { shareLock: true })).toMatchObject({
      ok: false,
      error: { code: 'UNAUTHENTICATED' },
    });
  });
});
