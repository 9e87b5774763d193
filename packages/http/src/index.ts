export {
  /** @public createApp's second argument: a caller picks the routes it serves. */
  type CreateAppOptions,
  createApp,
} from './app.js';
export type {
  /** @public HttpDeps.config: the composition root fills it from its env. */
  HttpConfig,
  /** @public createApp's first argument: the composition root assembles it. */
  HttpDeps,
  /** @public HttpDeps.metrics: the composition root records request figures through it. */
  HttpMetrics,
  Logger,
  /** @public HttpDeps.readiness: the composition root writes one per dependency. */
  ReadinessCheck,
} from './deps.js';
export type { RateLimiter, RateLimitOutcome, RateLimitPolicy } from './rate-limit.js';
export type { RouteDefinition } from './route.js';
export { apiRoutes } from './routes/index.js';
export { createSandboxPaymentProvider } from './sandbox.js';
