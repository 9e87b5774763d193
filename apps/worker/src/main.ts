import { createDatabase, createUnitOfWork, migrateLatest } from '@travelops/db';
import {
  createJobs,
  createJsonLogger,
  createSmtpTransport,
  createWorker,
  defaultLogFormat,
  outboxWakeUps,
} from '@travelops/jobs';
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
if (database) await migrateLatest(database.knex);
else
  logger.info({ database: 'none' }, 'DATABASE_URL is unset: in embedded mode the API process runs the jobs');

const { mail } = config.value;
const mailer = database && mail.smtpUrl ? createSmtpTransport({ url: mail.smtpUrl }) : null;
if (database) {
  // Never the SMTP URL itself: it may hold a password.
  if (mailer) logger.info({ mailFrom: mail.from }, 'guest e-mails: sent through SMTP (SMTP_URL)');
  else
    logger[config.value.production ? 'warn' : 'info'](
      {},
      'guest e-mails: SMTP_URL is unset, so they are kept in the database (the API shows them at /dev/mail outside production)',
    );
}

const jobs = database
  ? createJobs(
      { uow: createUnitOfWork(database.knex), clock: { now: () => new Date() }, logger },
      {
        allowPrivateWebhookUrls: config.value.allowPrivateWebhookUrls,
        ...(metrics && { onDeliveryAttempt: metrics.deliveryAttempt }),
        mail: {
          transport: mailer,
          fromAddress: mail.from,
          publicBaseUrl: config.value.publicBaseUrl,
          perWorkspacePerMinute: mail.perWorkspacePerMinute,
          holdWarningMinutes: mail.holdWarningMinutes,
        },
      },
    )
  : [];

const worker = createWorker({ jobs, logger });
// A committed outbox event wakes the delivery job at once; its poll is the safety net.
const outboxListener = database?.listenForOutbox(outboxWakeUps(worker, logger));

// With no job scheduled nothing else holds the event loop, and the process must live until a signal.
const keepAlive = setInterval(() => {}, 2 ** 30);

let shuttingDown = false;
function shutdown(signal: NodeJS.Signals): void {
  if (shuttingDown) return;
  shuttingDown = true;
  logger.info({ signal }, 'shutting down');
  worker.stop().then(
    async () => {
      clearInterval(keepAlive);
      await outboxListener?.close();
      mailer?.close();
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

worker.start();
