import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import {
  createDatabase,
  createUnitOfWork,
  type Database,
  describeConnectionError,
  getOrCreateSecret,
  migrateLatest,
} from '@travelops/db';
import type { Clock, Logger } from '@travelops/domain/shared';
import { createApp, createSandboxPaymentProvider, type HttpDeps } from '@travelops/http';
import { createEndpointUrlCheck } from '@travelops/jobs';
import { createOctoRouter } from '@travelops/octo';
import { createStripePayments } from '@travelops/stripe';
import type { Redis } from 'ioredis';
import { createConcurrencyLimiter } from './concurrency-limits.js';
import { type ApiConfig, ConfigError, type ServerTimeouts } from './config.js';
import { type ApiMetrics, createApiMetrics } from './metrics.js';
import { createRateLimiter } from './rate-limits.js';
import { createRedisClient } from './redis.js';
import { servedFiles } from './served-files.js';

export const systemClock: Clock = { now: () => new Date() };

export interface Api {
  app: ReturnType<typeof createApp>;
  database: Database;
  redis: Redis | null;
  /** Null when METRICS_TOKEN is unset. */
  metrics: ApiMetrics | null;
  close(): Promise<void>;
}

/**
 * The HTTP server for the app, with timeouts: a client that sends its headers or its body
 * too slowly gets 408 in seconds instead of holding a connection for minutes.
 */
export function createHttpServer(app: Api['app'], timeouts: ServerTimeouts): Server {
  const server = createServer(
    {
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      keepAliveTimeout: timeouts.keepAliveMs,
      // How often Node checks those limits (its default, 30 s, would let a slow client linger).
      connectionsCheckingInterval: Math.min(1000, timeouts.headersMs),
    },
    app,
  );
  return server;
}

/** Opens the configured database (PostgreSQL, or embedded PGlite) and applies migrations. */
export async function openDatabase(
  config: Pick<ApiConfig, 'databaseUrl' | 'pgliteDir' | 'preparedStatements'>,
  logger: Logger,
  /** The running API's embedded database, served on loopback (the CLI beside it). */
  served?: string,
) {
  const database = await createDatabase(
    served
      ? { url: served, oneSession: true }
      : config.databaseUrl
        ? { url: config.databaseUrl, preparedStatements: config.preparedStatements }
        : { dataDir: config.pgliteDir },
  );
  let applied: string[];
  try {
    applied = await migrateLatest(database.knex);
  } catch (error) {
    await database.close().catch(() => {});
    // An unreachable, missing or refusing database: one line saying what to do, not a stack.
    const explained = config.databaseUrl && describeConnectionError(error, config.databaseUrl);
    throw explained ? new ConfigError(explained) : error;
  }
  logger.info(
    {
      database: served ? 'pglite, served by the running API' : database.kind,
      ...(!config.databaseUrl && { dataDir: config.pgliteDir }),
      migrations: applied,
    },
    applied.length ? 'migrations applied' : 'database schema is up to date',
  );
  return { database, applied };
}

/** Where guests pay: Stripe (and its webhooks), or the sandbox when asked (the default outside production). */
function paymentsFor(config: Pick<ApiConfig, 'payments' | 'publicBaseUrl' | 'production'>, logger: Logger) {
  if (config.payments.provider === 'stripe') {
    const { secretKey, webhookSecret, apiUrl } = config.payments;
    logger.info({ paymentProvider: 'stripe', ...(apiUrl && { stripeApiUrl: apiUrl }) }, 'payments: Stripe');
    const stripe = createStripePayments({
      secretKey,
      webhookSecret,
      publicBaseUrl: config.publicBaseUrl,
      ...(apiUrl && { apiUrl }),
    });
    return { provider: stripe.provider, events: stripe.events, sandbox: false };
  }
  if (config.production) {
    logger.warn(
      { paymentProvider: 'sandbox' },
      'payments: the sandbox is on in production; anyone can mark a booking paid (PAYMENT_PROVIDER=sandbox)',
    );
  } else {
    logger.info({ paymentProvider: 'sandbox' }, 'payments: the sandbox (no money moves)');
  }
  return { provider: createSandboxPaymentProvider(config.publicBaseUrl), events: null, sandbox: true };
}

/** Says where guest e-mails go; never the SMTP URL itself (it may hold a password). */
function logMailMode(config: Pick<ApiConfig, 'mail' | 'production' | 'devMail'>, logger: Logger) {
  if (config.mail.smtpUrl) {
    logger.info({ mailFrom: config.mail.from }, 'guest e-mails: sent through SMTP (SMTP_URL)');
  } else if (config.production) {
    logger.warn({}, 'guest e-mails: SMTP_URL is unset, so they are kept in the database and never sent');
  } else {
    logger.info(
      { devMail: '/dev/mail' },
      'guest e-mails: SMTP_URL is unset, so they are kept and shown at /dev/mail',
    );
  }
}

/** The composition root: config -> database -> unit of work -> createApp. It does not listen. */
export async function createApi(config: ApiConfig, logger: Logger, clock: Clock = systemClock): Promise<Api> {
  const { database } = await openDatabase(config, logger);
  let redis: Redis | null = null;
  if (config.redisUrl) {
    redis = createRedisClient(config.redisUrl);
    redis.on('error', (error) => logger.warn({ err: error.message }, 'redis error'));
    await redis.connect().catch((error) => logger.warn({ err: String(error) }, 'redis is not reachable yet'));
  } else {
    logger.info({}, 'REDIS_URL is unset: using in-process stores (single instance only)');
  }
  // Every instance sharing the database signs cursors with the same key.
  const cursorSecret = await getOrCreateSecret(database.knex, 'cursor-signing', () =>
    randomBytes(32).toString('base64url'),
  );
  const csrfSecret = await getOrCreateSecret(database.knex, 'csrf-signing', () =>
    randomBytes(32).toString('base64url'),
  );
  const metrics = config.metricsToken
    ? createApiMetrics({ token: config.metricsToken, knex: database.knex, logger })
    : null;
  const payments = paymentsFor(config, logger);
  logMailMode(config, logger);
  const files = servedFiles(config, logger);
  const httpDeps: HttpDeps = {
    uow: createUnitOfWork(database.knex),
    clock,
    payments: payments.provider,
    ...(payments.events && { paymentEvents: payments.events }),
    checkWebhookUrl: createEndpointUrlCheck(config.allowPrivateWebhookUrls),
    logger,
    consoleDir: files.consoleDir,
    rateLimiter: createRateLimiter({
      rules: config.rateLimits,
      redis,
      keyPrefix: config.redisKeyPrefix,
      logger,
    }),
    concurrencyLimiter: createConcurrencyLimiter({
      limit: config.expensiveRequestsPerCredential,
      redis,
      keyPrefix: config.redisKeyPrefix,
      logger,
    }),
    cursorSecret,
    csrfSecret,
    readiness: {
      database: () => database.ping(),
      ...(redis && { redis: async () => void (await (redis as Redis).ping()) }),
    },
    widgetScript: files.widgetScript,
    config: {
      publicBaseUrl: config.publicBaseUrl,
      trustProxy: config.trustProxy,
      publicHoldsPerClient: config.publicHoldsPerClient,
      publicConfirmationsPerAddressPerHour: config.publicConfirmationsPerAddressPerHour,
      sandbox: payments.sandbox,
      devMail: config.devMail,
      mailFrom: config.mail.from,
    },
    ...(metrics && { metrics }),
  };
  // OCTO resellers: their own admission, errors and shapes over the same use cases (docs/octo.md).
  const app = createApp(httpDeps, { mounts: [{ path: '/octo', router: createOctoRouter(httpDeps) }] });
  return {
    app,
    database,
    redis,
    metrics,
    async close() {
      redis?.disconnect();
      await database.close();
    },
  };
}
