import {
  type ApiTokenCache,
  type ApiTokenPrincipal,
  authenticateBearer,
  authenticateSession,
  authorize,
  createApiTokenCache,
  csrfTokenMatches,
  deriveCsrfToken,
  type Principal,
  sessionPrincipal,
} from '@travelops/auth';
import type { SessionWithMemberships } from '@travelops/domain/access';
import { type DomainError, fail, hasIdPrefix, ok, type Result } from '@travelops/domain/shared';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { setSlotKey } from './concurrency.js';
import { readSessionCookie } from './cookies.js';
import type { HttpDeps } from './deps.js';
import { sendError } from './errors.js';
import { clientKey, type RateLimitOutcome, rateLimited, setRateLimitHeaders } from './rate-limit.js';
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
async function identify(
  req: Request,
  route: RouteDefinition,
  deps: HttpDeps,
  tokens: ApiTokenCache,
): Promise<Result<Credential>> {
  const authorization = req.get('Authorization');
  const secret = readSessionCookie(req);
  if (authorization !== undefined || (secret === undefined && acceptsBearer(route.access))) {
    const bearer = await authenticateBearer(
      authorization,
      { uow: deps.uow, clock: deps.clock },
      // Reads re-check their credential before answering; writes start only on the database's word.
      route.method === 'get' ? { cache: tokens } : {},
    );
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
  // A slug where the path takes an id (decisions §10): say so, rather than 403 "another workspace".
  if (req.params.workspaceId !== undefined && !hasIdPrefix('workspace', workspaceId)) {
    const error: DomainError = {
      code: 'VALIDATION_ERROR',
      message:
        "The path takes the workspace's id (ws_...), not its slug: the first start printed it, and GET /auth/session lists yours.",
      details: [{ field: 'workspaceId', issue: 'not_a_workspace_id' }],
    };
    return fail(error);
  }
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

/** Where a request's count stands while a read runs beside it (see `admission.admit`). */
const PENDING_COUNT = 'pendingCount';

/** The request admission of one app: credentials, counters and what is refused. */
export interface Admission {
  /** The route's first handler: identifies the caller, counts the request, refuses. */
  admit(route: RouteDefinition): RequestHandler;
  /**
   * The refusal of a count still running beside a read (429, headers set), or null once it
   * allowed the request; null at once when the request was counted before it ran.
   */
  settleCount(res: Response): Promise<DomainError | null>;
  /** The database refused this credential in a re-check: it is not remembered any longer. */
  forget(principal: ApiTokenPrincipal): void;
}

/**
 * Authenticates (on routes that need it), counts the request (decisions §7: per credential
 * once authenticated, else per client IP, so bad credentials are limited too), then refuses
 * what is not allowed: 429 before 401 before 403.
 *
 * A read of a credential that its last count left well under its limit does not wait for the
 * counter: the count (a Redis round trip) runs beside the read, and the answer waits for both,
 * so a read over the limit is still a 429 and never sends its data. A credential near or over
 * its limit is counted first, so a flood does not reach the database.
 */
export function createAdmission(deps: HttpDeps): Admission {
  const tokens = createApiTokenCache();
  /** Counters whose last outcome left room: their reads may count beside the work. */
  const roomy = new Set<string>();
  const remember = (key: string, outcome: RateLimitOutcome) => {
    if (outcome.allowed && outcome.remaining >= Math.max(1, outcome.limit / 20)) {
      if (roomy.size >= 10_000) roomy.clear();
      roomy.add(key);
    } else {
      roomy.delete(key);
    }
  };
  const count = async (key: string) => {
    const outcome = await deps.rateLimiter.consume('credential', key);
    remember(key, outcome);
    return outcome;
  };

  return {
    admit: (route) => async (req: Request, res: Response, next: NextFunction) => {
      const identified = route.access === 'public' ? null : await identify(req, route, deps, tokens);
      const key = identified?.ok ? credentialKey(identified.value) : null;
      let counting: Promise<RateLimitOutcome> | null = null;
      if (key !== null) {
        counting = count(key);
        if (!(route.method === 'get' && roomy.has(key))) {
          const counted = await counting;
          if (!counted.allowed) return sendError(res, rateLimited(res, counted));
          setRateLimitHeaders(res, counted);
          counting = null;
        }
      } else {
        const counted = await deps.rateLimiter.consume('ip', clientKey(req.ip));
        if (!counted.allowed) return sendError(res, rateLimited(res, counted));
        setRateLimitHeaders(res, counted);
      }
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
      if (!caller.ok) {
        // 429 before 403: a refused caller still waits for its count.
        const counted = counting ? await counting : null;
        if (counted && !counted.allowed) return sendError(res, rateLimited(res, counted));
        if (counted) setRateLimitHeaders(res, counted);
        return sendError(res, caller.error);
      }
      if (key) setSlotKey(res, key);
      res.locals.caller = caller.value;
      res.locals.principal = caller.value.principal;
      res.locals.workspaceId = caller.value.principal?.workspaceId;
      if (counting) res.locals[PENDING_COUNT] = counting;
      next();
    },

    async settleCount(res) {
      const counting = res.locals[PENDING_COUNT] as Promise<RateLimitOutcome> | undefined;
      if (!counting) return null;
      res.locals[PENDING_COUNT] = undefined;
      const counted = await counting;
      if (!counted.allowed) return rateLimited(res, counted);
      setRateLimitHeaders(res, counted);
      return null;
    },

    forget: (principal) => tokens.forget(principal.tokenId),
  };
}

export const callerOf = (res: Response): Caller =>
  (res.locals.caller as Caller | undefined) ?? { principal: null, session: null };
