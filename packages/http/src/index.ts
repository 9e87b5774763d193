export {
  /** @public createApp's second argument: a caller picks the routes it serves. */
  type CreateAppOptions,
  createApp,
} from './app.js';
// What another protocol's router (packages/octo) builds on: the same body parsing, rate limits,
// error type and path syntax as the API's routes.
export { DEFAULT_BODY_LIMIT_BYTES, jsonBody } from './body.js';
export {
  type ConcurrencyLimiter,
  createLocalConcurrencyLimiter,
  holdExpensiveSlot,
  setSlotKey,
} from './concurrency.js';
export type {
  HandlerUnitOfWork,
  /** @public HttpDeps.config: the composition root fills it from its env. */
  HttpConfig,
  /** @public createApp's first argument: the composition root assembles it. */
  HttpDeps,
  /** @public HttpDeps.metrics: the composition root records request figures through it. */
  HttpMetrics,
  /** @public HttpDeps.readiness: the composition root writes one per dependency. */
  ReadinessCheck,
  UseCaseDeps,
} from './deps.js';
export { HttpError } from './errors.js';
export type { RateLimiter, RateLimitOutcome, RateLimitPolicy } from './rate-limit.js';
export { clientKey, limitByIp, rateLimited, setRateLimitHeaders } from './rate-limit.js';
export { toExpressPath } from './register.js';
export {
  /** @public The request's transaction and credential re-check: the native routes', OCTO's, an adapter's. */
  runRequestTransaction,
} from './request-transaction.js';
export type { RouteDefinition } from './route.js';
export { apiRoutes } from './routes/index.js';
export { createSandboxPaymentProvider } from './sandbox.js';
