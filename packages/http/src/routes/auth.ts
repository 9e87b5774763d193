import {
  completeSignIn,
  confirmTwoFactor,
  deriveCsrfToken,
  disableTwoFactor,
  enrolTwoFactor,
  hashTokenSecret,
  logIn,
  logOut,
  readChallenge,
  type SignedIn,
  signChallenge,
} from '@travelops/auth';
import {
  LoginSchema,
  RecoveryCodesSchema,
  SecondFactorSchema,
  SessionSchema,
  SignedOutSchema,
  TwoFactorCodeSchema,
  TwoFactorEnrolmentSchema,
  TwoFactorRequiredSchema,
  toSessionView,
} from '@travelops/domain/access';
import { type DomainError, fail, ok, type Result } from '@travelops/domain/shared';
import type { Request, Response } from 'express';
import * as v from 'valibot';
import {
  clearChallengeCookie,
  clearSessionCookie,
  readChallengeCookie,
  readSessionCookie,
  setChallengeCookie,
  setSessionCookie,
} from '../cookies.js';
import type { HttpDeps } from '../deps.js';
import { clientKey, rateLimited } from '../rate-limit.js';
import { defineRoute } from '../route.js';

const tags = ['Sessions'];
const NO_STORE = { 'Cache-Control': 'no-store' };

/** Attempts count per e-mail whether or not it exists; the counter's key is a hash, not the address. */
const accountKey = (email: string) => hashTokenSecret(email.toLowerCase());

/**
 * Counts a sign-in attempt (a password or a code) per client IP and per e-mail and IP
 * together; the refusal when either is spent. Returns the account key, to clear on success.
 */
async function countAttempt(
  deps: Pick<HttpDeps, 'rateLimiter'>,
  req: Request,
  res: Response,
  email: string,
): Promise<Result<string>> {
  const ip = clientKey(req.ip);
  // Per e-mail and IP together: wrong passwords from elsewhere never lock the owner out.
  const account = `${accountKey(email)}|${ip}`;
  for (const [policy, key] of [
    ['login-ip', ip],
    ['login-account', account],
  ] as const) {
    const counted = await deps.rateLimiter.consume(policy, key);
    if (!counted.allowed) return fail(rateLimited(res, counted));
  }
  return ok(account);
}

/** The session cookie set and the session answered, as both sign-in steps end. */
function signedInReply(
  deps: Pick<HttpDeps, 'config' | 'csrfSecret'>,
  res: Response,
  { session, secret }: SignedIn,
) {
  setSessionCookie(res, secret, deps.config.publicBaseUrl);
  return ok({ data: toSessionView(session, deriveCsrfToken(deps.csrfSecret, secret)), headers: NO_STORE });
}

const LoginAnswerSchema = v.union([SessionSchema, TwoFactorRequiredSchema]);

const noChallenge: DomainError = {
  code: 'UNAUTHENTICATED',
  message: 'Sign in with your password first (POST /auth/login); a sign-in waits 5 minutes for its code.',
};

export const authRoutes = [
  defineRoute({
    operationId: 'logIn',
    method: 'post',
    path: '/auth/login',
    summary: 'Sign in to the application (session cookie)',
    description:
      'Sets the `tops_session` cookie (HttpOnly, SameSite=Lax, Path=/, Secure on https; a new session id on every sign-in, and the previous session of this browser ends) and answers the workspaces the e-mail is a member of, with the role in each, and the CSRF token to send as `X-CSRF-Token` on every POST, PATCH and DELETE. A wrong e-mail and a wrong password get the same 401. Attempts are limited per e-mail and client IP together (10 per 15 minutes; a success clears them), so wrong passwords from a stranger never lock the owner out of their own address, and per client IP across e-mails (100 per 15 minutes): 429 with `Retry-After`. Bodies must be JSON, so a cross-site form cannot sign a browser in. **Two-factor sign-in:** when the e-mail has it on, the right password answers `{ twoFactorRequired: true }` with no session (and a signed `tops_2fa` cookie on `/auth`, valid 5 minutes): send a code to `POST /auth/login/2fa`. A workspace may require it (`twoFactorRequired`: `ADMINS` or `ALL`, CLI `workspace:update`): a session that did not pass it gets 403 on that workspace until it does.',
    tags,
    access: 'public',
    body: LoginSchema,
    success: {
      status: 200,
      description:
        'Signed in, or (an e-mail with two-factor sign-in on) `{ twoFactorRequired: true }`: send a code to `POST /auth/login/2fa`.',
      schema: LoginAnswerSchema,
    },
    errors: [401],
    async handle({ body, deps, use, req, res }) {
      const counted = await countAttempt(deps, req, res, body.email);
      if (!counted.ok) return counted;
      const signedIn = await logIn(use, body, readSessionCookie(req));
      if (!signedIn.ok) return signedIn;
      await deps.rateLimiter.reset('login-account', counted.value);
      if ('twoFactorRequired' in signedIn.value) {
        const now = use.clock.now();
        setChallengeCookie(
          res,
          signChallenge(deps.csrfSecret, signedIn.value.challenge, now),
          deps.config.publicBaseUrl,
        );
        return ok({ data: { twoFactorRequired: true as const }, headers: NO_STORE });
      }
      return signedInReply(deps, res, signedIn.value);
    },
  }),
  defineRoute({
    operationId: 'logInSecondFactor',
    method: 'post',
    path: '/auth/login/2fa',
    summary: 'Sign in, second step: a code of the authenticator app or a recovery code',
    description:
      'After `POST /auth/login` answered `{ twoFactorRequired: true }` (it set a signed `tops_2fa` cookie on `/auth`, valid 5 minutes, and no session), send `{ code }` (six digits of the app; the step before or after now is accepted, and each code works once) or `{ recoveryCode }` (one of the ten shown at enrolment, `xxxxx-xxxxx`; each works once). Answers what a sign-in answers, with the session cookie, and the session records that it passed the second factor. Attempts count with the password attempts (10 per 15 minutes per e-mail and client IP, 100 per IP): 429 with `Retry-After`. A wrong or used code, or no sign-in waiting, is 401.',
    tags,
    access: 'public',
    body: SecondFactorSchema,
    success: { status: 200, description: 'Signed in.', schema: SessionSchema },
    errors: [401],
    async handle({ body, deps, use, req, res }) {
      const challenge = readChallenge(deps.csrfSecret, readChallengeCookie(req), use.clock.now());
      if (!challenge) return fail(noChallenge);
      const counted = await countAttempt(deps, req, res, challenge.email);
      if (!counted.ok) return counted;
      const signedIn = await completeSignIn(use, challenge, body, readSessionCookie(req));
      if (!signedIn.ok) return signedIn;
      await deps.rateLimiter.reset('login-account', counted.value);
      clearChallengeCookie(res, deps.config.publicBaseUrl);
      return signedInReply(deps, res, signedIn.value);
    },
  }),
  defineRoute({
    operationId: 'enrolTwoFactor',
    method: 'post',
    path: '/auth/2fa/enrol',
    summary: 'Start turning on two-factor sign-in (TOTP)',
    description:
      'For the signed-in e-mail (every membership it signs in to): a new secret, pending until `POST /auth/2fa/confirm` sends a code of it. Answers the secret (base32, to type into an authenticator app) and the `otpauth://` URL a QR code encodes (issuer TravelOps, SHA-1, 6 digits, 30 s). Asking again replaces a pending secret. 409 `already_enabled` while two-factor sign-in is on. Needs `X-CSRF-Token`.',
    tags,
    access: 'session',
    success: { status: 200, description: 'The pending secret.', schema: TwoFactorEnrolmentSchema },
    errors: [409],
    async handle({ session, use }) {
      if (!session) throw new Error('a session route ran without a session');
      const enrolled = await enrolTwoFactor(use, session.record);
      return enrolled.ok ? ok({ data: enrolled.value, headers: NO_STORE }) : enrolled;
    },
  }),
  defineRoute({
    operationId: 'confirmTwoFactor',
    method: 'post',
    path: '/auth/2fa/confirm',
    summary: 'Turn on two-factor sign-in with a code; get the recovery codes',
    description:
      'Sends a code of the pending secret: two-factor sign-in is on from now for this e-mail, and the answer holds ten one-time recovery codes, shown this once (only their hashes are kept). The current session counts as having passed the second factor. 422 `no_pending_enrolment` (enrol first) or `incorrect_code` on `code`; code attempts count like sign-in attempts (429). Needs `X-CSRF-Token`.',
    tags,
    access: 'session',
    body: TwoFactorCodeSchema,
    success: { status: 200, description: 'On; the recovery codes.', schema: RecoveryCodesSchema },
    errors: [422],
    async handle({ body, session, deps, use, req, res }) {
      if (!session) throw new Error('a session route ran without a session');
      const counted = await countAttempt(deps, req, res, session.record.email);
      if (!counted.ok) return counted;
      const confirmed = await confirmTwoFactor(use, session.record, body.code);
      return confirmed.ok ? ok({ data: confirmed.value, headers: NO_STORE }) : confirmed;
    },
  }),
  defineRoute({
    operationId: 'disableTwoFactor',
    method: 'post',
    path: '/auth/2fa/disable',
    summary: 'Turn off two-factor sign-in, with a current code',
    description:
      "Forgets the secret and the recovery codes of the signed-in e-mail. A workspace that requires two-factor sign-in for the member's role then refuses the member's new sessions (403) until it is on again. 422 `not_enabled` or `incorrect_code` on `code`; attempts count like sign-in attempts. Needs `X-CSRF-Token`.",
    tags,
    access: 'session',
    body: TwoFactorCodeSchema,
    success: { status: 200, description: 'Off.', schema: v.object({ disabled: v.literal(true) }) },
    errors: [422],
    async handle({ body, session, deps, use, req, res }) {
      if (!session) throw new Error('a session route ran without a session');
      const counted = await countAttempt(deps, req, res, session.record.email);
      if (!counted.ok) return counted;
      const disabled = await disableTwoFactor(use, session.record, body.code);
      return disabled.ok ? ok({ data: disabled.value }) : disabled;
    },
  }),
  defineRoute({
    operationId: 'getSession',
    method: 'get',
    path: '/auth/session',
    summary: 'The current session',
    description:
      'Who is signed in, the workspaces with the current role in each, the CSRF token and when the session ends (24 h after its last use, 7 days after sign-in at most).',
    tags,
    access: 'session',
    success: { status: 200, description: 'The session.', schema: SessionSchema },
    errors: [],
    async handle({ session }) {
      if (!session) throw new Error('a session route ran without a session');
      return ok({ data: toSessionView(session.record, session.csrfToken), headers: NO_STORE });
    },
  }),
  defineRoute({
    operationId: 'logOut',
    method: 'post',
    path: '/auth/logout',
    summary: 'Sign out',
    description: 'Ends the session on every instance at once and clears the cookie. Needs `X-CSRF-Token`.',
    tags,
    access: 'session',
    success: { status: 200, description: 'Signed out.', schema: SignedOutSchema },
    errors: [],
    async handle({ session, deps, use, res }) {
      if (!session) throw new Error('a session route ran without a session');
      await logOut(use, session.record.id);
      clearSessionCookie(res, deps.config.publicBaseUrl);
      return ok({ data: { signedOut: true as const } });
    },
  }),
];
