import { deriveCsrfToken, hashTokenSecret, logIn, logOut } from '@travelops/auth';
import { LoginSchema, SessionSchema, SignedOutSchema, toSessionView } from '@travelops/domain/access';
import { fail, ok } from '@travelops/domain/shared';
import { clearSessionCookie, readSessionCookie, setSessionCookie } from '../cookies.js';
import { clientKey, rateLimited } from '../rate-limit.js';
import { defineRoute } from '../route.js';

const tags = ['Sessions'];
const NO_STORE = { 'Cache-Control': 'no-store' };

/** Attempts count per e-mail whether or not it exists; the counter's key is a hash, not the address. */
const accountKey = (email: string) => hashTokenSecret(email.toLowerCase());

export const authRoutes = [
  defineRoute({
    operationId: 'logIn',
    method: 'post',
    path: '/auth/login',
    summary: 'Sign in to the application (session cookie)',
    description:
      'Sets the `tops_session` cookie (HttpOnly, SameSite=Lax, Path=/, Secure on https; a new session id on every sign-in, and the previous session of this browser ends) and answers the workspaces the e-mail is a member of, with the role in each, and the CSRF token to send as `X-CSRF-Token` on every POST, PATCH and DELETE. A wrong e-mail and a wrong password get the same 401. Attempts are limited per e-mail and client IP together (10 per 15 minutes; a success clears them), so wrong passwords from a stranger never lock the owner out of their own address, and per client IP across e-mails (100 per 15 minutes): 429 with `Retry-After`. Bodies must be JSON, so a cross-site form cannot sign a browser in.',
    tags,
    access: 'public',
    body: LoginSchema,
    success: { status: 200, description: 'Signed in.', schema: SessionSchema },
    errors: [401],
    async handle({ body, deps, use, req, res }) {
      const ip = clientKey(req.ip);
      // Per e-mail and IP together: wrong passwords from elsewhere never lock the owner out.
      const account = `${accountKey(body.email)}|${ip}`;
      for (const [policy, key] of [
        ['login-ip', ip],
        ['login-account', account],
      ] as const) {
        const counted = await deps.rateLimiter.consume(policy, key);
        if (!counted.allowed) return fail(rateLimited(res, counted));
      }
      const signedIn = await logIn(use, body, readSessionCookie(req));
      if (!signedIn.ok) return signedIn;
      await deps.rateLimiter.reset('login-account', account);
      const { session, secret } = signedIn.value;
      setSessionCookie(res, secret, deps.config.publicBaseUrl);
      return ok({
        data: toSessionView(session, deriveCsrfToken(deps.csrfSecret, secret)),
        headers: NO_STORE,
      });
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
