import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  type ApiTokenStore,
  type MemberStore,
  needsSecondFactor,
  type SessionStore,
  type SessionWithMemberships,
  type TwoFactorStore,
} from '@travelops/domain/access';
import {
  type Clock,
  type DomainError,
  fail,
  newId,
  ok,
  type Result,
  randomBase62,
  type UnitOfWork,
} from '@travelops/domain/shared';
import { hashTokenSecret, isLive, type Principal } from './api-tokens.js';
import { hashPassword, verifyPassword } from './passwords.js';

/** The cookie holding the session secret: HttpOnly, SameSite=Lax, Secure on https. */
export const SESSION_COOKIE = 'tops_session';
/** A session ends after this long without use... */
export const SESSION_IDLE_MS = 24 * 60 * 60 * 1000;
/** ...and in any case this long after sign-in. */
export const SESSION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;
/** Use moves `expiresAt` (a write) at most this often. */
const TOUCH_EVERY_MS = 5 * 60 * 1000;
/** 43 base62 characters: about 256 bits. */
const SECRET_LENGTH = 43;
const SECRET_PATTERN = /^[A-Za-z0-9]{43}$/;

export interface SessionDeps {
  uow: UnitOfWork<{ sessions: SessionStore }>;
  clock: Clock;
}

const unauthenticated = (message: string): Result<never> => {
  const error: DomainError = { code: 'UNAUTHENTICATED', message };
  return fail(error);
};

const INVALID_LOGIN = 'The e-mail or password is incorrect.';

/** A real scrypt hash of nothing anyone knows: an unknown e-mail costs what a wrong password costs. */
let dummyHash: Promise<string> | undefined;
const timingDummy = () => {
  dummyHash ??= hashPassword(randomBase62(32));
  return dummyHash;
};

const slidingExpiry = (createdAt: Date, now: Date) =>
  new Date(Math.min(now.getTime() + SESSION_IDLE_MS, createdAt.getTime() + SESSION_LIFETIME_MS));

export interface SignedIn {
  session: SessionWithMemberships;
  /** The cookie's value; exists only here (the store keeps its hash). */
  secret: string;
}

/** The password was right, but the e-mail has a second factor: no session until a code is sent. */
export interface SecondFactorNeeded {
  twoFactorRequired: true;
  /** What the code must complete (`completeSignIn`); the caller keeps it signed (`signChallenge`). */
  challenge: SignInChallenge;
}

/** A password sign-in waiting for its second factor: whose, and which memberships it opened. */
export interface SignInChallenge {
  email: string;
  memberIds: string[];
}

type SignInDeps = {
  uow: UnitOfWork<{ members: MemberStore; sessions: SessionStore; twoFactor: TwoFactorStore }>;
  clock: Clock;
};

/**
 * Signs in with e-mail and password (decisions §6). The e-mail may belong to several
 * workspaces: the session covers every membership whose password matches. An unknown e-mail
 * and a wrong password get the same 401, after the same scrypt work. A new session id
 * is issued every time; the caller's previous session, if any, ends. An e-mail with a second
 * factor gets no session here: `SecondFactorNeeded`, and `completeSignIn` with a code.
 */
export async function logIn(
  deps: SignInDeps,
  input: { email: string; password: string },
  previousSecret?: string,
): Promise<Result<SignedIn | SecondFactorNeeded>> {
  const dummy = timingDummy();
  const candidates = await deps.uow.stores.members.findByEmail(input.email);
  if (candidates.length === 0) {
    await verifyPassword(input.password, await dummy);
    return unauthenticated(INVALID_LOGIN);
  }
  // In parallel (libuv's pool): several memberships hardly show in the timing.
  const matches = await Promise.all(
    candidates.map((member) => verifyPassword(input.password, member.passwordHash)),
  );
  const members = candidates.filter((_member, i) => matches[i]);
  if (members.length === 0) return unauthenticated(INVALID_LOGIN);
  const email = input.email.toLowerCase();
  const factor = await deps.uow.stores.twoFactor.find(email);
  if (factor?.enabledAt) {
    return ok({ twoFactorRequired: true, challenge: { email, memberIds: members.map((m) => m.id) } });
  }
  return startSession(
    deps,
    email,
    members.map((member) => member.id),
    previousSecret,
    null,
  );
}

/** A new session of `memberIds` (ending the browser's previous one), with its secret. */
export async function startSession(
  deps: { uow: UnitOfWork<{ sessions: SessionStore }>; clock: Clock },
  email: string,
  memberIds: readonly string[],
  previousSecret: string | undefined,
  twoFactorAt: Date | null,
): Promise<Result<SignedIn>> {
  const now = deps.clock.now();
  const secret = randomBase62(SECRET_LENGTH);
  const created = await deps.uow.transaction(async ({ stores }) => {
    if (previousSecret !== undefined && SECRET_PATTERN.test(previousSecret)) {
      const previous = await stores.sessions.findBySecretHash(hashTokenSecret(previousSecret));
      if (previous) await stores.sessions.revoke(previous.id, now);
    }
    const session = await stores.sessions.insert(
      {
        id: newId('session'),
        secretHash: hashTokenSecret(secret),
        email,
        createdAt: now,
        expiresAt: slidingExpiry(now, now),
        twoFactorAt,
      },
      memberIds,
    );
    return ok(session);
  });
  return created.ok ? ok({ session: created.value, secret }) : created;
}

/**
 * The live session a cookie names, with its memberships' current roles; 401 for a missing,
 * malformed, unknown, expired or revoked one. Use slides the expiry forward.
 */
export async function authenticateSession(
  secret: string | undefined,
  deps: SessionDeps,
): Promise<Result<SessionWithMemberships>> {
  if (secret === undefined || secret === '') {
    return unauthenticated('Sign in first: this operation needs the session cookie.');
  }
  if (!SECRET_PATTERN.test(secret)) return unauthenticated('The session is invalid, expired or ended.');
  const session = await deps.uow.stores.sessions.findBySecretHash(hashTokenSecret(secret));
  const now = deps.clock.now();
  if (session === null || !isLive(session, now)) {
    return unauthenticated('The session is invalid, expired or ended.');
  }
  if (now.getTime() - session.lastSeenAt.getTime() >= TOUCH_EVERY_MS) {
    const expiresAt = slidingExpiry(session.createdAt, now);
    await deps.uow.stores.sessions.touch(session.id, now, expiresAt);
    return ok({ ...session, lastSeenAt: now, expiresAt });
  }
  return ok(session);
}

/**
 * The session acting in `workspaceId`, as the member it has there; 403 when it has none, or
 * when the workspace requires a second factor of its role and this sign-in passed none.
 */
export function sessionPrincipal(session: SessionWithMemberships, workspaceId: string): Result<Principal> {
  const membership = session.memberships.find((candidate) => candidate.workspaceId === workspaceId);
  if (!membership) {
    const error: DomainError = {
      code: 'FORBIDDEN',
      message: 'This credential cannot access that workspace.',
    };
    return fail(error);
  }
  if (needsSecondFactor(membership) && session.twoFactorAt === null) {
    const error: DomainError = {
      code: 'FORBIDDEN',
      message: session.twoFactorEnabled
        ? 'This workspace requires two-factor sign-in for your role: sign in again with a code of your authenticator app.'
        : 'This workspace requires two-factor sign-in for your role: turn it on (POST /auth/2fa/enrol, then POST /auth/2fa/confirm) and go on.',
    };
    return fail(error);
  }
  return ok({
    kind: 'session',
    sessionId: session.id,
    memberId: membership.memberId,
    workspaceId,
    role: membership.role,
  });
}

export function logOut(deps: SessionDeps, sessionId: string): Promise<void> {
  return deps.uow.stores.sessions.revoke(sessionId, deps.clock.now());
}

/**
 * The CSRF token of a session: HMAC-SHA256 of its secret under the deployment's key. Nothing
 * is stored; any instance recomputes it from the cookie, and it cannot be forged without both.
 */
export function deriveCsrfToken(key: string, sessionSecret: string): string {
  return createHmac('sha256', key).update(`csrf:${sessionSecret}`).digest('base64url');
}

export function csrfTokenMatches(key: string, sessionSecret: string, presented: string | undefined): boolean {
  if (presented === undefined) return false;
  const expected = Buffer.from(deriveCsrfToken(key, sessionSecret));
  const given = Buffer.from(presented);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * Decisions §6, in-flight revocation: re-reads the credential. After the work of a
 * write's transaction, with `shareLock`: a revoke that committed first is seen (401, the
 * write rolls back); one that comes later waits for this transaction to end. A read, which
 * has nothing to commit, re-reads without a lock before it answers.
 */
export async function recheckCredential(
  principal: Principal,
  deps: { uow: UnitOfWork<{ apiTokens: ApiTokenStore; sessions: SessionStore }>; clock: Clock },
  options: { shareLock: boolean },
): Promise<Result<Principal>> {
  const current =
    principal.kind === 'api_token'
      ? await deps.uow.stores.apiTokens.findById(principal.tokenId, options)
      : await deps.uow.stores.sessions.findById(principal.sessionId, options);
  if (current === null || !isLive(current, deps.clock.now())) {
    return unauthenticated('The credential was revoked or expired while the request ran.');
  }
  return ok(principal);
}
