import { createCalendarMemo } from '@travelops/domain/catalog';
import type { DomainError } from '@travelops/domain/shared';
import express, { type NextFunction, type Request, type Response } from 'express';
import { type Caller, callerOf, createAdmission } from './admission.js';
import { consoleNotConfigured, consoleRouter } from './console-app.js';
import { publicCors } from './cors.js';
import { pagePolicy } from './csp.js';
import type { HttpDeps } from './deps.js';
import { routeDispatcher } from './dispatch.js';
import { docsRouter } from './docs-page/router.js';
import { HttpError, sendError } from './errors.js';
import { guestPagePaths } from './guest-page/paths.js';
import { guestPageRouter } from './guest-page/router.js';
import { homePage, sendPage } from './home-page.js';
import { devMailRouter, unsubscribeRouter } from './mail-pages.js';
import { metricsHandler } from './metrics.js';
import { buildOpenApiDocument } from './openapi/document.js';
import { paymentPagesRouter } from './payment-pages.js';
import { paymentWebhooksRouter } from './payment-webhooks.js';
import { clientKey, isCounted, limitByIp, setRateLimitHeaders } from './rate-limit.js';
import { registerRoute } from './register.js';
import { requestId } from './request-id.js';
import type { RouteDefinition } from './route.js';
import { apiRoutes } from './routes/index.js';
import { sandboxRouter } from './sandbox.js';
import { securityHeaders } from './security-headers.js';
import { servedSystemPaths } from './system-paths.js';
import { serveWidgetScript } from './widget-script.js';

export interface CreateAppOptions {
  /** The operations to serve; defaults to every route of the API. */
  routes?: readonly RouteDefinition[];
  /**
   * Routers of other protocols, each under its path (OCTO's under `/octo`, from @travelops/octo):
   * they come after the API's routes and before the pages, and share its logging and 404.
   */
  mounts?: readonly { path: string; router: express.Router }[];
}

/** Builds the Express application; it never listens (the caller does, on any port). */
export function createApp(deps: HttpDeps, options: CreateAppOptions = {}): express.Express {
  const routes = options.routes ?? apiRoutes;
  const sandbox = deps.config.sandbox === true;
  const openApi = buildOpenApiDocument(routes, {
    serverUrl: deps.config.publicBaseUrl,
    extraPaths: {
      ...servedSystemPaths({ sandbox, stripeWebhooks: deps.paymentEvents !== undefined }),
      ...guestPagePaths,
    },
  });
  const https = deps.config.publicBaseUrl.startsWith('https:');
  const home = homePage(openApi.info, https);

  const app = express();
  app.disable('x-powered-by');
  // Only bookings carry an ETag: their version, for If-Match (decisions §4).
  app.set('etag', false);
  app.set('trust proxy', deps.config.trustProxy ?? false);
  // helmet's headers, with our Content-Security-Policy (csp.ts): strict, and no upgrade on http.
  app.use(securityHeaders(pagePolicy({ https })));
  app.use(requestId);
  app.use(logRequests(deps));
  app.use('/public', publicCors);
  app.use('/workspaces', (_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });

  // Routes count their own requests (by credential); everything else counts per client IP.
  // Health probes only report, so a load balancer never locks itself out.
  const refuse = (res: Response, error: DomainError) => sendError(res, error);
  const countByIp = limitByIp(deps.rateLimiter, refuse);
  app.use(['/healthz', '/readyz'], limitByIp(deps.rateLimiter, refuse, 'peek'));
  app.use(['/openapi.json', '/docs', '/sandbox', '/pay', '/b', '/widget.js', '/mail', '/dev'], countByIp);

  // Not part of the contract: a landing page for whoever opens the base URL in a browser.
  app.get('/', countByIp, (_req, res) => {
    sendPage(res, home);
  });

  app.get('/healthz', (_req, res) => {
    res.json({ data: { status: 'ok' } });
  });
  app.get('/readyz', async (_req, res) => {
    const checks = await Promise.all(
      Object.entries(deps.readiness).map(async ([name, check]) => {
        try {
          await check();
          return [name, 'ok'] as const;
        } catch (error) {
          deps.logger.warn({ check: name, err: String(error) }, 'readiness check failed');
          return [name, 'unreachable'] as const;
        }
      }),
    );
    const failed = checks.filter(([, state]) => state !== 'ok');
    if (failed.length === 0) {
      res.json({ data: { status: 'ready', checks: Object.fromEntries(checks) } });
      return;
    }
    sendError(
      res,
      {
        code: 'INTERNAL_ERROR',
        message: 'A dependency is unreachable.',
        details: failed.map(([field, issue]) => ({ field, issue })),
      },
      503,
    );
  });
  app.get('/openapi.json', (_req, res) => {
    res.json(openApi);
  });
  if (deps.metrics) app.get('/metrics', countByIp, metricsHandler(deps.metrics));
  app.use(docsRouter({ document: openApi, https }));
  // The operator console's built files, when the API was given them (apps/console); else a 404 that says so.
  app.use(
    '/app',
    countByIp,
    deps.consoleDir ? consoleRouter({ dir: deps.consoleDir, https }) : consoleNotConfigured,
  );

  const admission = createAdmission(deps);
  // One memo per app: what it keeps is checked against the database on every call.
  const routeDeps = { ...deps, calendarMemo: deps.calendarMemo ?? createCalendarMemo() };
  app.use(routeDispatcher(routes, (router, route) => registerRoute(router, route, routeDeps, admission)));
  // Other protocols (OCTO resellers): their own admission, errors and shapes over the same use cases.
  for (const mount of options.mounts ?? []) app.use(mount.path, mount.router);
  app.use(paymentPagesRouter(deps));
  // Off unless asked: /sandbox/* then falls through to the 404 below.
  if (sandbox) app.use(sandboxRouter(deps));
  if (deps.paymentEvents) app.use(paymentWebhooksRouter(deps, deps.paymentEvents));
  app.use(guestPageRouter(deps));
  app.get('/widget.js', serveWidgetScript(deps.widgetScript));
  app.use(unsubscribeRouter(deps));
  // Off unless asked (and never in production): /dev/mail then falls through to the 404 below.
  if (deps.config.devMail === true) app.use(devMailRouter(deps));

  app.use(countByIp, (_req: Request, res: Response) => {
    sendError(res, { code: 'NOT_FOUND', message: 'No such route.' });
  });
  app.use(async (error: unknown, req: Request, res: Response, _next: NextFunction) => {
    // A read counted beside its work: its count settles first (the headers; a refusal wins).
    const refused = res.headersSent ? null : await admission.settleCount(res);
    if (refused) return sendError(res, refused);
    // An error before the request was counted (an undecodable path) still answers with the headers.
    if (!isCounted(res) && !res.headersSent) {
      await deps.rateLimiter
        .consume('ip', clientKey(req.ip))
        .then((outcome) => setRateLimitHeaders(res, outcome))
        .catch(() => {});
    }
    if (error instanceof HttpError) return sendError(res, error.error, error.status);
    // A path the router cannot decode (invalid percent-encoding) names no record.
    if (error instanceof URIError) return sendError(res, { code: 'NOT_FOUND', message: 'No such route.' });
    deps.logger.error({ requestId: res.locals.requestId, err: describe(error) }, 'unhandled error');
    if (res.headersSent) return;
    sendError(res, { code: 'INTERNAL_ERROR', message: 'An internal error occurred.' });
  });
  return app;
}

function describe(error: unknown) {
  return error instanceof Error
    ? { name: error.name, message: error.message, stack: error.stack }
    : String(error);
}

/** Which credential acted (ids only, never secrets). */
function credentialFields({ principal, session }: Caller) {
  if (principal?.kind === 'api_token') return { tokenId: principal.tokenId };
  if (session)
    return {
      sessionId: session.record.id,
      memberId: principal?.kind === 'session' ? principal.memberId : undefined,
    };
  return {};
}

/**
 * The route pattern that answered (`/workspaces/:workspaceId/bookings`), never the raw path; a
 * mounted router's routes (/octo) under its mount path.
 */
const routeTemplate = (req: Request): string =>
  req.route?.path ? `${req.baseUrl}${req.route.path}` : '(unmatched)';

/** One line per request: what was asked (route pattern, never the raw path), by whom, how it went. */
function logRequests(deps: HttpDeps) {
  return (req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      deps.metrics?.observeRequest({
        method: req.method,
        route: routeTemplate(req),
        status: res.statusCode,
        seconds,
      });
      deps.logger.info(
        {
          requestId: res.locals.requestId,
          method: req.method,
          route: routeTemplate(req),
          status: res.statusCode,
          ms: Number((process.hrtime.bigint() - started) / 1000n) / 1000,
          workspaceId: res.locals.workspaceId,
          ...credentialFields(callerOf(res)),
        },
        'request',
      );
    });
    next();
  };
}
