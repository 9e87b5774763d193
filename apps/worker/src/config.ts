import { isIP } from 'node:net';
import { fail, ok, type Result } from '@travelops/domain/shared';
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

// Messages are ours, not valibot's defaults, because those quote the received value (a password).
const WorkerEnvSchema = v.object({
  DATABASE_URL: v.optional(
    v.pipe(
      v.string(),
      v.check(
        (value) => /^postgres(ql)?:\/\//.test(value) && URL.canParse(value),
        'must be a PostgreSQL URL such as postgres://user:password@host:5432/travelops',
      ),
    ),
  ),
  // false behind a pooler in transaction mode that cannot carry named statements (PgBouncer < 1.21).
  PG_PREPARED_STATEMENTS: v.optional(EnvFlagSchema, 'true'),
  NODE_ENV: v.optional(
    v.picklist(['production', 'development', 'test'], 'must be production, development or test'),
  ),
  LOG_LEVEL: v.optional(v.picklist(LOG_LEVELS, `must be one of ${LOG_LEVELS.join(', ')}`), 'info'),
  LOG_FORMAT: v.optional(v.picklist(LOG_FORMATS, `must be one of ${LOG_FORMATS.join(', ')}`)),
  // The worker's own /metrics (its webhook attempts): on METRICS_HOST:METRICS_PORT, behind METRICS_TOKEN.
  METRICS_TOKEN: v.optional(
    v.pipe(v.string(), v.regex(/^[\x21-\x7e]{16,200}$/, 'must be 16 to 200 printable characters, no spaces')),
  ),
  METRICS_PORT: v.optional(
    v.pipe(v.string(), v.regex(/^\d{1,5}$/, 'must be a port number'), v.transform(Number), v.maxValue(65535)),
  ),
  // This machine only unless asked: a scraper elsewhere needs METRICS_HOST=0.0.0.0 (or an address).
  METRICS_HOST: v.optional(
    v.pipe(
      v.string(),
      v.check(
        (value) => isIP(value) !== 0 || /^[A-Za-z0-9]([A-Za-z0-9.-]{0,252})$/.test(value),
        'must be an IP address or a host name to listen on (for example 127.0.0.1 or 0.0.0.0)',
      ),
    ),
    '127.0.0.1',
  ),
  // Guest e-mails: their links are built on the API's public address, as the API builds them.
  PUBLIC_BASE_URL: v.optional(
    v.pipe(
      v.string(),
      v.check(
        (value) => URL.canParse(value) && ['http:', 'https:'].includes(new URL(value).protocol),
        'must be the http(s) address guests reach the API at, such as https://book.example.com',
      ),
    ),
  ),
  // The jobs' own keys (webhook receivers, guest e-mails), read as the API reads them.
  ...JOB_ENV,
});

/** The jobs' settings (`allowPrivateWebhookUrls`, `mail`), and the worker's own. */
export interface WorkerConfig extends JobSettings {
  /** null: no server database; in embedded (PGlite) mode the API process runs the jobs. */
  databaseUrl: string | null;
  /** `PG_PREPARED_STATEMENTS`: the hot statements go to PostgreSQL as named prepared statements. */
  preparedStatements: boolean;
  /**
   */
  log: { level: LogLevel; format: 'json' | 'pretty' | undefined };
  /** Where the worker serves /metrics (`METRICS_HOST`, default 127.0.0.1), and the bearer secret; null: not served. */
  metrics: { host: string; port: number; token: string } | null;
  /** Base of the guests' links in e-mails (`PUBLIC_BASE_URL`, as the API's). */
  publicBaseUrl: string;
  /** NODE_ENV=production. */
  production: boolean;
}

/** Parses the worker's environment; the error lists every bad key as `KEY: problem`. */
export function parseWorkerEnv(env: Record<string, string | undefined>): Result<WorkerConfig, string[]> {
  // An empty variable (`DATABASE_URL=`) means unset, as in most deployment tools.
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const parsed = v.safeParse(WorkerEnvSchema, present);
  if (!parsed.success) {
    return fail(parsed.issues.map((issue) => `${v.getDotPath(issue) ?? '(environment)'}: ${issue.message}`));
  }
  const e = parsed.output;
  // Both or neither: a port without a secret would publish metrics to anyone, and the reverse does nothing.
  if ((e.METRICS_PORT === undefined) !== (e.METRICS_TOKEN === undefined)) {
    return fail([
      `${e.METRICS_PORT === undefined ? 'METRICS_PORT' : 'METRICS_TOKEN'}: set it too, or neither`,
    ]);
  }
  const missing = [
    // A worker with work to do writes guests' links: in production never to localhost.
    ...(e.NODE_ENV === 'production' && e.DATABASE_URL !== undefined && e.PUBLIC_BASE_URL === undefined
      ? ['PUBLIC_BASE_URL: is required when NODE_ENV=production: guest e-mails link to it']
      : []),
    ...(mailFromIsGiven(e) ? [] : [`MAIL_FROM: ${MAIL_FROM_REQUIRED}`]),
  ];
  if (missing.length > 0) return fail(missing);
  return ok({
    ...jobSettingsOf(e, e.NODE_ENV === 'production'),
    databaseUrl: e.DATABASE_URL ?? null,
    preparedStatements: e.PG_PREPARED_STATEMENTS,
    log: { level: e.LOG_LEVEL, format: e.LOG_FORMAT },
    metrics:
      e.METRICS_PORT !== undefined && e.METRICS_TOKEN !== undefined
        ? { host: e.METRICS_HOST, port: e.METRICS_PORT, token: e.METRICS_TOKEN }
        : null,
    publicBaseUrl: (e.PUBLIC_BASE_URL ?? 'http://localhost:3000').replace(/\/+$/, ''),
    production: e.NODE_ENV === 'production',
  });
}
