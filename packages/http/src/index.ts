export { createApp } from './app.js';
export type { HttpMetrics, Logger } from './deps.js';
export type {
  RateLimiter,
  RateLimitOutcome,
  RateLimitPolicy,
} from './rate-limit.js';
export type { RouteDefinition } from './route.js';
export { apiRoutes } from './routes/index.js';
export { createSandboxPaymentProvider } from './sandbox.js';
