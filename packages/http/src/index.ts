export { type CreateAppOptions, createApp } from './app.js';
export { type CursorCodec, createCursorCodec } from './cursor.js';
export type { HttpConfig, HttpDeps, Logger, ReadinessCheck } from './deps.js';
export { statusForCode } from './errors.js';
export { API_VERSION, buildOpenApiDocument, type OpenApiDocument } from './openapi/document.js';
export {
  clientKey,
  type RateLimiter,
  type RateLimitOutcome,
  type RateLimitPolicy,
} from './rate-limit.js';
export type { RouteDefinition } from './route.js';
export { apiRoutes } from './routes/index.js';
export { createSandboxPaymentProvider } from './sandbox.js';
