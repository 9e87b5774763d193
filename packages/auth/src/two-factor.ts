import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import type {
  MemberStore,
  SecondFactorInput,
  SessionStore,
  SessionWithMemberships,
  TwoFactorStore,
} from '@travelops/domain/access';
import {
  type Clock,
  conflict,
  type DomainError,
  fail,
  ok,
  type Result,
  type UnitOfWork,
  unprocessable,
} from '@travelops/domain/shared';
import { Secret, TOTP } from 'otpauth';
import { hashTokenSecret } from './api-tokens.js';
import { type SignedIn, type SignInChallenge, startSession } from './sessions.js';

/** RFC 6238 as every authenticator app reads it: SHA-1, 6 digits, 30 s steps. */
const PERIOD_SECONDS = 30;
/** A code of the step before or after now is accepted too (clocks drift, people type slowly). */
const WINDOW_STEPS = 1;
const ISSUER = 'TravelOps';
const RECOVERY_CODE_COUNT = 10;
/** Ten characters of an alphabet without look-alikes (no 0/o, 1/l/i): about 48 bits each. */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
/** How long a password sign-in waits for its code. */
export const SIGN_IN_CHALLENGE_MS = 5 * 60 * 1000;

type TwoFactorDeps = {
  uow: UnitOfWork<{ twoFactor: TwoFactorStore; sessions: SessionStore }>;
  clock: Clock;
};

const totpOf = (secret: string, email: string) =>
  new TOTP({
    issuer: ISSUER,
    label: email,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD_SECONDS,
    secret: Secret.fromBase32(secret),
  });

/** The time step `code` belongs to (within a step of now), or null when it matches none. */
function totpStep(secret: string, code: string, now: Date): number | null {
  const delta = totpOf(secret, '').validate({ token: code, timestamp: now.getTime(), window: WINDOW_STEPS });
  if (delta === null) return null;
  return Math.floor(now.getTime() / 1000 / PERIOD_SECONDS) + delta;
}

/** The code an authenticator app shows at `now` (what tests and tools type). */
export function totpCode(secret: string, now: Date): string {
  return totpOf(secret, '').generate({ timestamp: now.getTime() });
}

/** Spaces, dashes and case do not matter: a recovery code is compared as its letters. */
const normalRecoveryCode = (code: string) => code.toLowerCase().replace(/[\s-]/g, '');

function newRecoveryCode(): string {
  const letters = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]);
  return `${letters.slice(0, 5).join('')}-${letters.slice(5).join('')}`;
}

const unauthenticated = (message: string): Result<never> => {
  const error: DomainError = { code: 'UNAUTHENTICATED', message };
  return fail(error);
};

/**
 * Starts an enrolment for the session's e-mail: a new secret, pending until a code of it is
 * confirmed. 409 `already_enabled` while a second factor is on (turn it off first).
 */
export async function enrolTwoFactor(
  deps: TwoFactorDeps,
  session: SessionWithMemberships,
): Promise<Result<{ secret: string; otpauthUrl: string }>> {
  const current = await deps.uow.stores.twoFactor.find(session.email);
  if (current?.enabledAt) {
    return fail(
      conflict('Two-factor sign-in is already on for this e-mail.', 'twoFactor', 'already_enabled'),
    );
  }
  const secret = new Secret({ size: 20 }).base32;
  await deps.uow.stores.twoFactor.setPending(session.email, secret);
  return ok({ secret, otpauthUrl: totpOf(secret, session.email).toString() });
}

/**
 * Turns the pending enrolment on with a code of it, and answers ten recovery codes, the only
 * time they are shown (only their hashes are kept). The session counts as having passed the
 * second factor. 422 `no_pending_enrolment` without an enrolment, `incorrect_code` on `code`.
 */
export async function confirmTwoFactor(
  deps: TwoFactorDeps,
  session: SessionWithMemberships,
  code: string,
): Promise<Result<{ recoveryCodes: string[] }>> {
  const now = deps.clock.now();
  const current = await deps.uow.stores.twoFactor.find(session.email);
  const pending = current?.pendingSecret;
  if (!pending) {
    return fail(unprocessable('Start with POST /auth/2fa/enrol.', 'code', 'no_pending_enrolment'));
  }
  const step = totpStep(pending, code, now);
  if (step === null) return fail(unprocessable('The code is incorrect.', 'code', 'incorrect_code'));
  const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  return deps.uow.transaction(async ({ stores }) => {
    const hashes = recoveryCodes.map((recovery) => hashTokenSecret(normalRecoveryCode(recovery)));
    if (!(await stores.twoFactor.enable(session.email, pending, hashes, now))) {
      return fail(unprocessable('Start with POST /auth/2fa/enrol.', 'code', 'no_pending_enrolment'));
    }
    await stores.twoFactor.useStep(session.email, step);
    await stores.sessions.markTwoFactor(session.id, now);
    return ok({ recoveryCodes });
  });
}

/** Turns the second factor off, with a current code. 422 `not_enabled`, `incorrect_code` on `code`. */
export async function disableTwoFactor(
  deps: TwoFactorDeps,
  session: SessionWithMemberships,
  code: string,
): Promise<Result<{ disabled: true }>> {
  const current = await deps.uow.stores.twoFactor.find(session.email);
  if (!current?.secret) return fail(unprocessable('Two-factor sign-in is off.', 'code', 'not_enabled'));
  const step = totpStep(current.secret, code, deps.clock.now());
  if (step === null || !(await deps.uow.stores.twoFactor.useStep(session.email, step))) {
    return fail(unprocessable('The code is incorrect.', 'code', 'incorrect_code'));
  }
  await deps.uow.stores.twoFactor.disable(session.email);
  return ok({ disabled: true });
}

/**
 * The second step of a sign-in: a code of the app (each accepted once: a replay in the same
 * 30 s is refused) or one recovery code (each works once), then the session, marked as having
 * passed the second factor. The memberships are the password step's that still exist.
 */
export async function completeSignIn(
  deps: {
    uow: UnitOfWork<{ members: MemberStore; sessions: SessionStore; twoFactor: TwoFactorStore }>;
    clock: Clock;
  },
  challenge: SignInChallenge,
  input: SecondFactorInput,
  previousSecret?: string,
): Promise<Result<SignedIn>> {
  const now = deps.clock.now();
  const factor = await deps.uow.stores.twoFactor.find(challenge.email);
  if (!factor?.secret)
    return unauthenticated('Sign in again: two-factor sign-in is no longer on for this e-mail.');
  if ('code' in input) {
    const step = totpStep(factor.secret, input.code, now);
    if (step === null || !(await deps.uow.stores.twoFactor.useStep(challenge.email, step))) {
      return unauthenticated('The code is incorrect, or was used already.');
    }
  } else {
    const hash = hashTokenSecret(normalRecoveryCode(input.recoveryCode));
    if (!(await deps.uow.stores.twoFactor.useRecoveryCode(challenge.email, hash))) {
      return unauthenticated('The recovery code is incorrect, or was used already.');
    }
  }
  const members = await deps.uow.stores.members.findByEmail(challenge.email);
  const still = members
    .filter((member) => challenge.memberIds.includes(member.id))
    .map((member) => member.id);
  if (still.length === 0) return unauthenticated('Sign in again: the memberships are gone.');
  return startSession(deps, challenge.email, still, previousSecret, now);
}

const challengeKey = (key: string) => createHmac('sha256', key).update('two-factor-challenge').digest();

/**
 * A challenge as a cookie value: its JSON (e-mail, member ids, expiry) in base64url, a dot,
 * and an HMAC-SHA256 of that under the deployment's key. Nothing is stored.
 */
export function signChallenge(key: string, challenge: SignInChallenge, now: Date): string {
  const body = Buffer.from(
    JSON.stringify({ e: challenge.email, m: challenge.memberIds, x: now.getTime() + SIGN_IN_CHALLENGE_MS }),
  ).toString('base64url');
  return `${body}.${createHmac('sha256', challengeKey(key)).update(body).digest('base64url')}`;
}

/** The challenge a cookie value carries, if its signature holds and it has not expired. */
export function readChallenge(key: string, value: string | undefined, now: Date): SignInChallenge | null {
  if (!value || value.length > 4096) return null;
  const [body = '', mac = ''] = value.split('.');
  const expected = Buffer.from(createHmac('sha256', challengeKey(key)).update(body).digest('base64url'));
  const given = Buffer.from(mac);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const parsed = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as {
      e?: unknown;
      m?: unknown;
      x?: unknown;
    };
    if (typeof parsed.e !== 'string' || typeof parsed.x !== 'number' || !Array.isArray(parsed.m)) return null;
    if (parsed.x <= now.getTime()) return null;
    return { email: parsed.e, memberIds: parsed.m.filter((id): id is string => typeof id === 'string') };
  } catch {
    return null;
  }
}
