import { resolve } from 'node:path';
import * as v from 'valibot';
import type { RateLimitRules } from './rate-limits.js';

const Port = v.pipe(
  v.string(),
  v.regex(/^\d{1,5}$/, 'must be a port number'),
  v.transform(Number),
  v.maxValue(65535),
);
const Url = (protocols: string[]) =>
  v.pipe(
    v.string(),
    v.url('must be a URL'),
    v.check((s) => protocols.includes(new URL(s).protocol), `must use ${protocols.join(' or ')}`),
  );
const Count = v.pipe(
  v.string(),
  v.regex(/^\d{1,9}$/, 'must be a whole number'),
  v.transform(Number),
  v.minValue(1),
);
const Flag = v.pipe(
  v.picklist(['true', 'false', '1', '0']),
  v.transform((s) => s === 'true' || s === '1'),
);

const EnvObject = v.object({
  PORT: v.optional(Port, '3000'),
  HOST: v.optional(v.string(), '0.0.0.0'),
  DATABASE_URL: v.optional(Url(['postgres:', 'postgresql:'])),
  REDIS_URL: v.optional(Url(['redis:', 'rediss:'])),
  DATA_DIR: v.optional(v.string(), '.data'),
  PUBLIC_BASE_URL: v.optional(Url(['http:', 'https:'])),
  TRUST_PROXY: v.optional(v.string()),
  WORKER_IN_PROCESS: v.optional(Flag),
  WEBHOOK_ALLOW_PRIVATE_URLS: v.optional(Flag),
  NODE_ENV: v.optional(v.string()),
  REDIS_KEY_PREFIX: v.optional(
    v.pipe(v.string(), v.regex(/^[\w:.-]{1,64}$/, 'must be 1-64 of [A-Za-z0-9_:.-]')),
    'travelops:',
  ),
  RATE_LIMIT_PER_TOKEN: v.optional(Count, '600'),
  RATE_LIMIT_PER_IP: v.optional(Count, '120'),
  RATE_LIMIT_WINDOW_SECONDS: v.optional(Count, '60'),
  LOGIN_LIMIT_PER_ACCOUNT: v.optional(Count, '10'),
  LOGIN_LIMIT_PER_IP: v.optional(Count, '100'),
  LOGIN_LIMIT_WINDOW_SECONDS: v.optional(Count, '900'),
  PUBLIC_HOLDS_PER_CLIENT: v.optional(Count, '2'),
  HEADERS_TIMEOUT_SECONDS: v.optional(Count, '10'),
  REQUEST_TIMEOUT_SECONDS: v.optional(Count, '30'),
  KEEP_ALIVE_TIMEOUT_SECONDS: v.optional(Count, '5'),
  PAYMENT_PROVIDER: v.optional(v.picklist(['sandbox', 'stripe'], 'must be sandbox or stripe')),
  STRIPE_SECRET_KEY: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^(sk|rk)_(test|live)_\w+$/, 'must be a Stripe secret key (sk_... or rk_...)'),
    ),
  ),
  STRIPE_WEBHOOK_SECRET: v.optional(
    v.pipe(v.string(), v.regex(/^whsec_\w+$/, "must be the webhook endpoint's signing secret (whsec_...)")),
  ),
  STRIPE_API_URL: v.optional(Url(['http:', 'https:'])),
});

const STRIPE_NEEDS = 'is required when PAYMENT_PROVIDER=stripe';

// No payment provider by default in production: a forgotten setting must not open the sandbox,
// where any guest can mark a booking paid. Each check names its key, beside every other bad key.
const EnvSchema = v.pipe(
  EnvObject,
  v.forward(
    v.partialCheck(
      [['NODE_ENV'], ['PAYMENT_PROVIDER']],
      (env) => env.NODE_ENV !== 'production' || env.PAYMENT_PROVIDER !== undefined,
      'is required when NODE_ENV=production: stripe (with STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET), or sandbox to let anyone mark bookings paid',
    ),
    ['PAYMENT_PROVIDER'],
  ),
  v.forward(
    v.partialCheck(
      [['PAYMENT_PROVIDER'], ['STRIPE_SECRET_KEY']],
      (env) => env.PAYMENT_PROVIDER !== 'stripe' || env.STRIPE_SECRET_KEY !== undefined,
      STRIPE_NEEDS,
    ),
    ['STRIPE_SECRET_KEY'],
  ),
  v.forward(
    v.partialCheck(
      [['PAYMENT_PROVIDER'], ['STRIPE_WEBHOOK_SECRET']],
      (env) => env.PAYMENT_PROVIDER !== 'stripe' || env.STRIPE_WEBHOOK_SECRET !== undefined,
      STRIPE_NEEDS,
    ),
    ['STRIPE_WEBHOOK_SECRET'],
  ),
);

/** Where guests pay: the built-in sandbox, or Stripe. */
type PaymentsConfig =
  | { provider: 'sandbox' }
  | { provider: 'stripe'; secretKey: string; webhookSecret: string; apiUrl?: string };

/** How long a client may take (milliseconds); a slow one gets 408 and its connection closes. */
export interface ServerTimeouts {
  /** To send the request's headers. */
  headersMs: number;
  /** To send the whole request, body included. */
  requestMs: number;
  /** An idle keep-alive connection stays open this long. */
  keepAliveMs: number;
}

export interface ApiConfig {
  port: number;
  /** Unpaid public holds one client may have on one departure at once. */
  publicHoldsPerClient: number;
  timeouts: ServerTimeouts;
  host: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  /** PGlite directory when DATABASE_URL is unset. */
  pgliteDir: string;
  publicBaseUrl: string;
  trustProxy: boolean | string | string[];
  /** Runs the worker's jobs inside the API process (always so on embedded PGlite). */
  workerInProcess: boolean;
  /** Webhook endpoints may be private/loopback addresses (development); off in production. */
  allowPrivateWebhookUrls: boolean;
  /** Prefix of every Redis key this deployment writes. */
  redisKeyPrefix: string;
  rateLimits: RateLimitRules;
  payments: PaymentsConfig;
  /** NODE_ENV=production. */
  production: boolean;
}

export class ConfigError extends Error {}

/** Parses the environment once at start; a bad value stops the process, naming every bad key. */
export function loadConfig(env: Record<string, string | undefined>): ApiConfig {
  const present = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ''),
  );
  const parsed = v.safeParse(EnvSchema, present);
  if (!parsed.success) {
    const problems = parsed.issues.map((issue) => `${v.getDotPath(issue) ?? '?'}: ${issue.message}`);
    throw new ConfigError(`Invalid environment: ${problems.join('; ')}`);
  }
  const e = parsed.output;
  const embedded = e.DATABASE_URL === undefined;
  return {
    port: e.PORT,
    host: e.HOST,
    publicHoldsPerClient: e.PUBLIC_HOLDS_PER_CLIENT,
    timeouts: {
      headersMs: e.HEADERS_TIMEOUT_SECONDS * 1000,
      // Node requires the whole-request limit to be at least the headers limit.
      requestMs: Math.max(e.REQUEST_TIMEOUT_SECONDS, e.HEADERS_TIMEOUT_SECONDS) * 1000,
      keepAliveMs: e.KEEP_ALIVE_TIMEOUT_SECONDS * 1000,
    },
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    pgliteDir: resolve(e.DATA_DIR, 'pglite'),
    publicBaseUrl: (e.PUBLIC_BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    workerInProcess: embedded || (e.WORKER_IN_PROCESS ?? false),
    // Unset: private receivers are allowed except in production (development ones live on localhost).
    allowPrivateWebhookUrls: e.WEBHOOK_ALLOW_PRIVATE_URLS ?? e.NODE_ENV !== 'production',
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
    rateLimits: {
      credential: { points: e.RATE_LIMIT_PER_TOKEN, windowSeconds: e.RATE_LIMIT_WINDOW_SECONDS },
      ip: { points: e.RATE_LIMIT_PER_IP, windowSeconds: e.RATE_LIMIT_WINDOW_SECONDS },
      'login-account': { points: e.LOGIN_LIMIT_PER_ACCOUNT, windowSeconds: e.LOGIN_LIMIT_WINDOW_SECONDS },
      'login-ip': { points: e.LOGIN_LIMIT_PER_IP, windowSeconds: e.LOGIN_LIMIT_WINDOW_SECONDS },
    },
    payments: paymentsConfig(e),
    production: e.NODE_ENV === 'production',
  };
}

/** The schema has checked that a Stripe deployment names both of its secrets. */
function paymentsConfig(e: v.InferOutput<typeof EnvSchema>): PaymentsConfig {
  if (e.PAYMENT_PROVIDER !== 'stripe') return { provider: 'sandbox' };
  return {
    provider: 'stripe',
    secretKey: e.STRIPE_SECRET_KEY as string,
    webhookSecret: e.STRIPE_WEBHOOK_SECRET as string,
    ...(e.STRIPE_API_URL && { apiUrl: e.STRIPE_API_URL }),
  };
}

/** `TRUST_PROXY`: unset (trust no proxy), `loopback`, or a comma list of addresses/CIDRs. */
function parseTrustProxy(value: string | undefined): boolean | string | string[] {
  if (!value || value === 'false') return false;
  if (value === 'true')
    throw new ConfigError(
      'TRUST_PROXY: name the trusted proxies (for example loopback or 10.0.0.0/8), not true',
    );
  const list = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return list.length === 1 ? (list[0] as string) : list;
}
