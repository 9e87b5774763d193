import { createDatabase, createUnitOfWork, describeConnectionError, migrateLatest } from '@travelops/db';
import { startJobRunner } from '@travelops/jobs';
import { createJsonLogger, defaultLogFormat } from '@travelops/logging';
import { parseWorkerEnv } from './config.js';
import { startWorkerMetrics } from './metrics.js';

const config = parseWorkerEnv(process.env);
if (!config.ok) {
  createJsonLogger(process.stdout, { format: defaultLogFormat() }).error(
    { problems: config.error },
    'invalid environment',
  );
  process.exit(1);
}
const logger = createJsonLogger(process.stdout, {
  level: config.value.log.level,
  format: config.value.log.format ?? defaultLogFormat(),
});
const metrics = config.value.metrics ? startWorkerMetrics(config.value.metrics) : null;
if (metrics) {
  await metrics.listening;
  logger.info(
    { host: config.value.metrics?.host, port: config.value.metrics?.port },
    'metrics at /metrics (bearer METRICS_TOKEN)',
  );
}

// The composition root: env -> db -> jobs -> run. Without a server database there is
// nothing to run: in embedded mode the API process runs the same list.
const database = config.value.databaseUrl
  ? await createDatabase({
      url: config.value.databaseUrl,
      preparedStatements: config.value.preparedStatements,
    })
  : null;
if (database) {
  await migrateLatest(database.knex).catch(async (error: unknown) => {
    // An unreachable, missing or refusing database: one line saying what to do, not a stack.
    const explained = describeConnectionError(error, config.value.databaseUrl as string);
    if (!explained) throw error;
    logger.error({ err: explained }, 'the worker could not start');
    process.stderr.write(`\n  TravelOps worker could not start. ${explained}\n\n`);
    await database.close().catch(() => {});
    process.exit(1);
  });
} else
  logger.info({ database: 'none' }, 'DATABASE_URL is unset: in embedded mode the API process runs the jobs');

const { mail } = config.value;
if (database) {
  // Never the SMTP URL itself: it may hold a password.
  if (mail.smtpUrl) logger.info({ mailFrom: mail.from }, 'guest e-mails: sent through SMTP (SMTP_URL)');
  else
    logger[config.value.production ? 'warn' : 'info'](
      {},
      'guest e-mails: SMTP_URL is unset, so they are kept in the database (the API shows them at /dev/mail outside production)',
    );
}

// The jobs as the API runs them in-process: one assembly (packages/jobs), started here.
const runner = database
  ? startJobRunner(
      { uow: createUnitOfWork(database.knex), clock: { now: () => new Date() }, logger },
      {
        settings: config.value,
        publicBaseUrl: config.value.publicBaseUrl,
        ...(metrics && { onDeliveryAttempt: metrics.deliveryAttempt }),
        listenForOutbox: (handlers) => database.listenForOutbox(handlers),
      },
    )
  : null;

// With no job scheduled nothing else holds the event loop, and the process must live until a signal.
const keepAlive = setInterval(() => {}, 2 ** 30);

let shuttingDown = false;
function shutdown(signal: NodeJS.Signals): void {
  if (shuttingDown) return;
  shuttingDown = true;
  logger.info({ signal }, 'shutting down');
  (runner?.stop() ?? Promise.resolve()).then(
    async () => {
      clearInterval(keepAlive);
      await metrics?.close();
      await database?.close();
      process.exit(0);
    },
    (error: unknown) => {
      logger.error({ err: error }, 'shutdown failed');
      process.exit(1);
    },
  );
}

// `once`: a second Ctrl-C falls through to Node's default and ends the process at once.
process.once('SIGTERM', shutdown);
process.once('SIGINT', shutdown);
process.on('uncaughtException', (error) => {
  logger.error({ err: error }, 'uncaught exception');
  process.exit(1);
});
process.on('unhandledRejection', (reason) => {
  logger.error({ err: reason }, 'unhandled rejection');
  process.exit(1);
});
