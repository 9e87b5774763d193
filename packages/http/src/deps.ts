import type { Clock, EndpointUrlCheck, PaymentProvider, Stores } from '@travelops/domain';
import type { RateLimiter } from './rate-limit.js';

export interface Logger {
  info(fields: object, msg?: string): void;
  warn(fields: object, msg?: string): void;
  error(fields: object, msg?: string): void;
}

export type ReadinessCheck = () => Promise<void>;

export interface HttpConfig {
  /** Base of links the service hands out, e.g. checkout URLs. */
  publicBaseUrl: string;
  /** Express `trust proxy` setting: which proxies' X-Forwarded-For to believe. */
  trustProxy?: boolean | number | string | string[];
  /** Largest accepted JSON body in bytes. */
  bodyLimitBytes?: number;
}

/** Everything the HTTP adapter needs, handed over by the composition root. */
export interface HttpDeps {
  stores: Stores;
  clock: Clock;
  /** Where guests pay (the built-in sandbox, or a real provider's adapter). */
  payments: PaymentProvider;
  /** Whether a webhook endpoint URL may be registered (scheme; private addresses in production). */
  checkWebhookUrl: EndpointUrlCheck;
  logger: Logger;
  /** Key that signs pagination cursors; shared by every API instance. */
  cursorSecret: string;
  /** Key that derives each session's CSRF token; shared by every API instance. */
  csrfSecret: string;
  /** Counters of decisions §7, shared by every instance (or in-process). */
  rateLimiter: RateLimiter;
  /** Named dependency checks for /readyz; each rejects when its dependency is unreachable. */
  readiness: Record<string, ReadinessCheck>;
  config: HttpConfig;
}
