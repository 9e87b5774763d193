import {
  type ApiTokenPrincipal,
  authenticateBearer,
  authenticateSession,
  authorize,
  csrfTokenMatches,
  deriveCsrfToken,
  type Principal,
  sessionPrincipal,
} from '@travelops/auth';
import { type DomainError, fail, ok, type Result, type SessionWithMemberships } from '@travelops/domain';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { readSessionCookie } from './cookies.js';
import type { HttpDeps } from './deps.js';
import { sendError } from './errors.js';
import { clientKey, rateLimited, setRateLimitHeaders } from './rate-limit.js';
import { acceptsBearer, type RouteDefinition } from './route.js';

/** A verified credential, before anything is asked of it. */
type Credential =
  | { kind: 'api_token'; principal: ApiTokenPrincipal }
  | { kind: 'session'; session: SessionWithMemberships; secret: string };

/** Who the request acts as, once admitted; kept on `res.locals.caller`. */
export interface Caller {
  /** The caller in the path's workspace; null on `session` routes. */
  principal: Principal | null;
  session: { record: SessionWithMemberships; csrfToken: string } | null;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const forbidden = (message: string): Result<never> => {
  const error: DomainError = { code: 'FORBIDDEN', message };
  return fail(error);
};

/**
 * Bearer when an `Authorization` header is sent (the cookie is then ignored), else the
 * session cookie. A route a token may call reports a missing credential as a missing token.
 */
async function identify(req: Request, route: RouteDefinition, deps: HttpDeps): Promise<Result<Credential>> {
  const authorization = req.get('Authorization');
  const secret = readSessionCookie(req);
  if (authorization !== undefined || (secret === undefined && acceptsBearer(route.access))) {
    const bearer = await authenticateBearer(authorization, {
      uow: deps.uow,
      clock: deps.clock,
    });
    return bearer.ok ? ok({ kind: 'api_token', principal: bearer.value }) : bearer;
  }
  const session = await authenticateSession(secret, { uow: deps.uow, clock: deps.clock });
  return session.ok ? ok({ kind: 'session', session: session.value, secret: secret as string }) : session;
}

/** What the credential may do here: 403 for a token on a session-only route, a missing CSRF token, another workspace, a weak role. */
function authorizeCredential(
  req: Request,
  route: RouteDefinition,
  credential: Credential,
  deps: HttpDeps,
): Result<Caller> {
  const { access } = route;
  if (access === 'public') return ok({ principal: null, session: null });
  const workspaceId = String(req.params.workspaceId ?? '');
  if (credential.kind === 'api_token') {
    if (access === 'session' || access.sessionOnly) {
      return forbidden(
        'This operation belongs to the signed-in application: use the session cookie. An API token cannot manage API keys or members.',
      );
    }
    const authorized = authorize(credential.principal, workspaceId, access.permission);
    return authorized.ok ? ok({ principal: authorized.value, session: null }) : authorized;
  }
  if (
    !SAFE_METHODS.has(req.method) &&
    !csrfTokenMatches(deps.csrfSecret, credential.secret, req.get('X-CSRF-Token'))
  ) {
    return forbidden(
      'Missing or wrong X-CSRF-Token header: send the csrfToken of POST /auth/login or GET /auth/session.',
    );
  }
  const session = {
    record: credential.session,
    csrfToken: deriveCsrfToken(deps.csrfSecret, credential.secret),
  };
  if (access === 'session') return ok({ principal: null, session });
  const principal = sessionPrincipal(credential.session, workspaceId);
  if (!principal.ok) return principal;
  const authorized = authorize(principal.value, workspaceId, access.permission);
  return authorized.ok ? ok({ principal: authorized.value, session }) : authorized;
}

/** The counter a credential's requests go to: its API token, or its session. */
const credentialKey = (credential: Credential) =>
  credential.kind === 'api_token' ? `tok:${credential.principal.tokenId}` : `ses:${credential.session.id}`;

/**
 * Authenticates (on routes that need it), counts the request (decisions §7: per credential
 * once authenticated, else per client IP, so bad credentials are limited too), then refuses
 * what is not allowed: 429 before 401 before 403.
 */
export function admit(route: RouteDefinition, deps: HttpDeps): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    const identified = route.access === 'public' ? null : await identify(req, route, deps);
    const counted = identified?.ok
      ? await deps.rateLimiter.consume('credential', credentialKey(identified.value))
      : await deps.rateLimiter.consume('ip', clientKey(req.ip));
    if (!counted.allowed) return sendError(res, rateLimited(res, counted));
    setRateLimitHeaders(res, counted);
    if (identified === null) {
      res.locals.caller = { principal: null, session: null } satisfies Caller;
      return next();
    }
    if (!identified.ok) {
      if (req.get('Authorization') !== undefined || acceptsBearer(route.access)) {
        res.setHeader('WWW-Authenticate', 'Bearer realm="travelops"');
      }
      return sendError(res, identified.error);
    }
    const caller = authorizeCredential(req, route, identified.value, deps);
    if (!caller.ok) return sendError(res, caller.error);
    res.locals.caller = caller.value;
    res.locals.principal = caller.value.principal;
    res.locals.workspaceId = caller.value.principal?.workspaceId;
    next();
  };
}

export const callerOf = (res: Response): Caller =>
  (res.locals.caller as Caller | undefined) ?? { principal: null, session: null };
