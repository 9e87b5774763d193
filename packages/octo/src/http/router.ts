import { type ApiTokenPrincipal, authenticateBearer, authorize } from '@travelops/auth';
import { type ErrorDetail, parseInput } from '@travelops/domain/shared';
import type { HandlerUnitOfWork, HttpDeps } from '@travelops/http';
import {
  clientKey,
  DEFAULT_BODY_LIMIT_BYTES,
  HttpError,
  holdExpensiveSlot,
  jsonBody,
  limitByIp,
  rateLimited,
  runRequestTransaction,
  setRateLimitHeaders,
  setSlotKey,
  toExpressPath,
} from '@travelops/http';
import express, {
  type NextFunction,
  type Request,
  type RequestHandler,
  type Response,
  type Router,
} from 'express';
import type { OctoFailure } from '../errors.js';
import type { OctoCaller } from '../ports.js';
import { sendOctoError } from './errors.js';
import type { OctoRouteDefinition } from './route.js';
import { octoRoutes } from './routes.js';

/** The capabilities served beside OCTO core; a request's others are ignored (and not echoed). */
const SERVED_CAPABILITIES = ['octo/pricing'];

/**
 * `Octo-Capabilities` as sent (comma-separated, possibly empty or absent) -> the ones served.
 * The answer echoes them in the same header, so a reseller sees what was applied.
 */
export function capabilitiesOf(header: string | undefined): string[] {
  const asked = (header ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  return SERVED_CAPABILITIES.filter((capability) => asked.includes(capability));
}

const badRequest = (message: string, details: ErrorDetail[] = []): OctoFailure => ({
  code: 'BAD_REQUEST',
  message: details.length
    ? `${message} ${details.map((d) => `${d.field}: ${d.issue}`).join('; ')}.`
    : message,
});

/**
 * Admission for OCTO: a bearer token only (OCTO has no session), counted per token (or per IP
 * when it fails), then the `octo:sell` permission in the token's own workspace: RESELLER
 * connections and ADMIN tokens. 401 UNAUTHORIZED, 403 FORBIDDEN, in OCTO's shape.
 */
function admitReseller(deps: HttpDeps) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const bearer = await authenticateBearer(req.get('Authorization'), { uow: deps.uow, clock: deps.clock });
    const counted = bearer.ok
      ? await deps.rateLimiter.consume('credential', `tok:${bearer.value.tokenId}`)
      : await deps.rateLimiter.consume('ip', clientKey(req.ip));
    if (!counted.allowed) return sendOctoError(res, rateLimited(res, counted));
    setRateLimitHeaders(res, counted);
    if (!bearer.ok) {
      res.setHeader('WWW-Authenticate', 'Bearer realm="travelops"');
      return sendOctoError(res, bearer.error);
    }
    const authorized = authorize(bearer.value, bearer.value.workspaceId, 'octo:sell');
    if (!authorized.ok) return sendOctoError(res, authorized.error);
    res.locals.principal = authorized.value;
    res.locals.caller = { principal: authorized.value, session: null };
    res.locals.workspaceId = authorized.value.workspaceId;
    // The same slots as the token's native calls.
    setSlotKey(res, `tok:${bearer.value.tokenId}`);
    next();
  };
}

function registerOctoRoute(router: Router, route: OctoRouteDefinition, deps: HttpDeps): void {
  const endpoint = `${deps.config.publicBaseUrl.replace(/\/$/, '')}/octo`;
  const handler = async (req: Request, res: Response) => {
    const capabilities = capabilitiesOf(req.get('Octo-Capabilities'));
    const principal = res.locals.principal as ApiTokenPrincipal;
    const params = route.params ? parseInput(route.params, req.params) : { ok: true as const, value: {} };
    if (!params.ok) return sendOctoError(res, badRequest('The path is invalid:', params.error.details));
    const query = route.query ? parseInput(route.query, req.query) : { ok: true as const, value: {} };
    if (!query.ok) return sendOctoError(res, badRequest('The query is invalid:', query.error.details));
    const body = route.body ? parseInput(route.body, req.body) : { ok: true as const, value: undefined };
    if (!body.ok) return sendOctoError(res, badRequest('The body is invalid:', body.error.details));
    const caller: OctoCaller = {
      workspaceId: principal.workspaceId,
      connectionId: principal.tokenId,
      pricing: capabilities.includes('octo/pricing'),
    };
    // The native routes' transaction and credential re-check (@travelops/http).
    const outcome = await runRequestTransaction<unknown, OctoFailure>(
      deps,
      { method: route.method, principal },
      (uow) =>
        route.handle({
          params: params.value,
          query: query.value,
          body: body.value,
          caller,
          use: {
            uow: uow as HandlerUnitOfWork,
            clock: deps.clock,
            payments: deps.payments,
            checkUrl: deps.checkWebhookUrl,
          },
          endpoint,
        }),
    );
    if (!outcome.ok) {
      if (outcome.error.code === 'UNAUTHENTICATED')
        res.setHeader('WWW-Authenticate', 'Bearer realm="travelops"');
      return sendOctoError(res, outcome.error);
    }
    res.status(200).json(outcome.value);
  };
  const chain: RequestHandler[] = [admitReseller(deps)];
  if (route.expensive) chain.push(holdExpensiveSlot(deps.concurrencyLimiter, sendOctoError));
  if (route.method !== 'get') chain.push(jsonBody(deps.config.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES));
  router[route.method](toExpressPath(route.path), ...chain, handler);
}

/**
 * The OCTO supplier API, mounted at `/octo`: its own admission, errors and shapes, over the
 * same use cases (and seats) as the native API. Unknown paths and bodies that cannot be read
 * answer in OCTO's shape too.
 */
export function createOctoRouter(
  deps: HttpDeps,
  routes: readonly OctoRouteDefinition[] = octoRoutes,
): Router {
  const router = express.Router();
  router.use((req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    // Every answer, a refusal included, says which of the asked capabilities apply.
    res.setHeader('Octo-Capabilities', capabilitiesOf(req.get('Octo-Capabilities')).join(', '));
    next();
  });
  for (const route of routes) registerOctoRoute(router, route, deps);
  router.use(
    limitByIp(deps.rateLimiter, (res, error) => sendOctoError(res, error)),
    (_req: Request, res: Response) => {
      sendOctoError(res, { code: 'NOT_FOUND', message: 'No such OCTO operation.' });
    },
  );
  router.use((error: unknown, _req: Request, res: Response, next: NextFunction) => {
    // Bodies that cannot be read keep their status (413, 415) with OCTO's BAD_REQUEST.
    if (error instanceof HttpError) return sendOctoError(res, badRequest(error.error.message), error.status);
    if (error instanceof URIError)
      return sendOctoError(res, { code: 'NOT_FOUND', message: 'No such OCTO operation.' });
    deps.logger.error(
      { requestId: res.locals.requestId, err: error instanceof Error ? error.message : String(error) },
      'unhandled error',
    );
    if (res.headersSent) return next(error);
    sendOctoError(res, {
      code: 'INTERNAL_ERROR',
      message: 'There was an un-recoverable error, please try again.',
    });
  });
  return router;
}
