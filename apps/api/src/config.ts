import { existsSync, statSync } from 'node:fs';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';
import {
  EnvFlagSchema,
  JOB_ENV,
  type JobSettings,
  jobSettingsOf,
  MAIL_FROM_REQUIRED,
  mailFromIsGiven,
} from '@travelops/jobs';
import { LOG_FORMATS, LOG_LEVELS, type LogLevel } from '@travelops/logging';
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
    // valibot runs every check of a pipe: an unparsable value (reported by v.url) must not throw here.
    v.check(
      (s) => !URL.canParse(s) || protocols.includes(new URL(s).protocol),
      `must use ${protocols.join(' or ')}`,
    ),
  );
const Count = v.pipe(
  v.string(),
  v.regex(/^\d{1,9}$/, 'must be a whole number'),
  v.transform(Number),
  v.minValue(1),
);
// Express's names for address ranges (proxy-addr), beside literal addresses and CIDRs.
const PROXY_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** One entry of TRUST_PROXY: a named range, an IPv4/IPv6 address, or a CIDR of one. */
function isProxyEntry(entry: string): boolean {
  if (PROXY_RANGES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

// Checked here rather than by Express, which would throw on the first request with no key named.
const TrustProxy = v.pipe(
  v.string(),
  v.check(
    (value) =>
      value === 'false' ||
      value
        .split(',')
        .map((s) => s.trim())
        .every(isProxyEntry),
    'must be loopback, linklocal, uniquelocal, or a comma list of IP addresses and CIDRs (for example loopback,10.0.0.0/8)',
  ),
);

// A host name or an address to bind; a typo fails here, not as an obscure listen error.
const Host = v.pipe(
  v.string(),
  v.check(
    (value) => isIP(value) !== 0 || /^[A-Za-z0-9]([A-Za-z0-9.-]{0,252})$/.test(value),
    'must be an IP address or a host name to listen on (for example 0.0.0.0 or 127.0.0.1)',
  ),
);

// Built files the API serves, named by path (relative to the working directory). Set and missing
// is a deployment mistake: the start stops, naming the key, rather than serve a 404 for weeks.
const ConsoleDir = v.pipe(
  v.string(),
  v.check(
    (path) => existsSync(join(resolve(path), 'index.html')),
    'must be the directory of the built operator console, holding index.html (apps/console/dist after npm start or npm run build)',
  ),
);
const WidgetScript = v.pipe(
  v.string(),
  v.check(
    (path) => existsSync(resolve(path)) && statSync(resolve(path)).isFile(),
    'must be the path of the built booking widget (apps/widget/dist/widget.js after npm start or npm run build)',
  ),
);

const EnvObject = v.object({
  PORT: v.optional(Port, '3000'),
  HOST: v.optional(Host, '0.0.0.0'),
  DATABASE_URL: v.optional(Url(['postgres:', 'postgresql:'])),
  // false behind a pooler in transaction mode that cannot carry named statements (PgBouncer < 1.21).
  PG_PREPARED_STATEMENTS: v.optional(EnvFlagSchema, 'true'),
  REDIS_URL: v.optional(Url(['redis:', 'rediss:'])),
  DATA_DIR: v.optional(v.string(), '.data'),
  PUBLIC_BASE_URL: v.optional(Url(['http:', 'https:'])),
  TRUST_PROXY: v.optional(TrustProxy),
  WORKER_IN_PROCESS: v.optional(EnvFlagSchema),
  NODE_ENV: v.optional(
    v.picklist(['production', 'development', 'test'], 'must be production, development or test'),
  ),
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
  PUBLIC_CONFIRMATIONS_PER_ADDRESS_PER_HOUR: v.optional(Count, '5'),
  EXPENSIVE_REQUESTS_PER_CREDENTIAL: v.optional(Count, '4'),
  HEADERS_TIMEOUT_SECONDS: v.optional(Count, '10'),
  REQUEST_TIMEOUT_SECONDS: v.optional(Count, '30'),
  KEEP_ALIVE_TIMEOUT_SECONDS: v.optional(Count, '5'),
  // A secret a scraper presents; long enough not to be guessed. Unset: no /metrics at all.
  METRICS_TOKEN: v.optional(
    v.pipe(v.string(), v.regex(/^[\x21-\x7e]{16,200}$/, 'must be 16 to 200 printable characters, no spaces')),
  ),
  LOG_LEVEL: v.optional(v.picklist(LOG_LEVELS, `must be one of ${LOG_LEVELS.join(', ')}`), 'info'),
  LOG_FORMAT: v.optional(v.picklist(LOG_FORMATS, `must be one of ${LOG_FORMATS.join(', ')}`)),
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
  // The jobs' keys (webhook receivers, guest e-mails), read as the worker reads them.
  ...JOB_ENV,
  // Unset: /app/ and /widget.js answer 404 saying they are not configured here.
  CONSOLE_DIR: v.optional(ConsoleDir),
  WIDGET_SCRIPT: v.optional(WidgetScript),
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
  v.forward(v.partialCheck([['SMTP_URL'], ['MAIL_FROM']], mailFromIsGiven, MAIL_FROM_REQUIRED), [
    'MAIL_FROM',
  ]),
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

/** The jobs' settings (`allowPrivateWebhookUrls`, `mail`: for the jobs it runs in-process), and the API's own. */
export interface ApiConfig extends JobSettings {
  port: number;
  /** Unpaid public holds one client may have on one departure at once. */
  publicHoldsPerClient: number;
  /** Confirmation e-mails of free public bookings to one address per workspace and hour. */
  publicConfirmationsPerAddressPerHour: number;
  /** Expensive requests (calendars, OCTO availability, manifests, schedule writes) one credential runs at once. */
  expensiveRequestsPerCredential: number;
  timeouts: ServerTimeouts;
  host: string;
  databaseUrl: string | undefined;
  /** `PG_PREPARED_STATEMENTS`: the hot statements go to PostgreSQL as named prepared statements. */
  preparedStatements: boolean;
  redisUrl: string | undefined;
  /** PGlite directory when DATABASE_URL is unset. */
  pgliteDir: string;
  publicBaseUrl: string;
  trustProxy: boolean | string | string[];
  /** Runs the worker's jobs inside the API process (always so on embedded PGlite). */
  workerInProcess: boolean;
  /** Prefix of every Redis key this deployment writes. */
  redisKeyPrefix: string;
  rateLimits: RateLimitRules;
  /** Bearer secret of /metrics; undefined: metrics are off. */
  metricsToken: string | undefined;
  log: { level: LogLevel; format: 'json' | 'pretty' | undefined };
  payments: PaymentsConfig;
  /** The built operator console (absolute), served under /app/; undefined: not served (404). */
  consoleDir: string | undefined;
  /** The built booking widget's file (absolute), served at /widget.js; undefined: not served (404). */
  widgetScript: string | undefined;
  /** Serve `/dev/mail`: outside production, while e-mails are kept (no SMTP_URL). */
  devMail: boolean;
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
    // Unset WEBHOOK_ALLOW_PRIVATE_URLS: private receivers are allowed except in production.
    ...jobSettingsOf(e, e.NODE_ENV === 'production'),
    port: e.PORT,
    host: e.HOST,
    publicHoldsPerClient: e.PUBLIC_HOLDS_PER_CLIENT,
    publicConfirmationsPerAddressPerHour: e.PUBLIC_CONFIRMATIONS_PER_ADDRESS_PER_HOUR,
    expensiveRequestsPerCredential: e.EXPENSIVE_REQUESTS_PER_CREDENTIAL,
    timeouts: {
      headersMs: e.HEADERS_TIMEOUT_SECONDS * 1000,
      // Node requires the whole-request limit to be at least the headers limit.
      requestMs: Math.max(e.REQUEST_TIMEOUT_SECONDS, e.HEADERS_TIMEOUT_SECONDS) * 1000,
      keepAliveMs: e.KEEP_ALIVE_TIMEOUT_SECONDS * 1000,
    },
    databaseUrl: e.DATABASE_URL,
    preparedStatements: e.PG_PREPARED_STATEMENTS,
    redisUrl: e.REDIS_URL,
    pgliteDir: resolve(e.DATA_DIR, 'pglite'),
    publicBaseUrl: (e.PUBLIC_BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    workerInProcess: embedded || (e.WORKER_IN_PROCESS ?? false),
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
    metricsToken: e.METRICS_TOKEN,
    // Unset format: the app picks (pretty on a terminal).
    log: { level: e.LOG_LEVEL, format: e.LOG_FORMAT },
    rateLimits: {
      credential: { points: e.RATE_LIMIT_PER_TOKEN, windowSeconds: e.RATE_LIMIT_WINDOW_SECONDS },
      ip: { points: e.RATE_LIMIT_PER_IP, windowSeconds: e.RATE_LIMIT_WINDOW_SECONDS },
      'login-account': { points: e.LOGIN_LIMIT_PER_ACCOUNT, windowSeconds: e.LOGIN_LIMIT_WINDOW_SECONDS },
      'login-ip': { points: e.LOGIN_LIMIT_PER_IP, windowSeconds: e.LOGIN_LIMIT_WINDOW_SECONDS },
    },
    payments: paymentsConfig(e),
    consoleDir: e.CONSOLE_DIR === undefined ? undefined : resolve(e.CONSOLE_DIR),
    widgetScript: e.WIDGET_SCRIPT === undefined ? undefined : resolve(e.WIDGET_SCRIPT),
    devMail: e.NODE_ENV !== 'production' && e.SMTP_URL === undefined,
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

/** `TRUST_PROXY` (checked by the schema): unset or `false` (trust no proxy), a named range, or a list. */
function parseTrustProxy(value: string | undefined): boolean | string | string[] {
  if (!value || value === 'false') return false;
  const list = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return list.length === 1 ? (list[0] as string) : list;
}
