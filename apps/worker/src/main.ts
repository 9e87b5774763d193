import { createDatabase, createStores, migrateLatest } from '@travelops/db';
import { parseWorkerEnv } from './config.js';
import { createBookingJobs, createSessionJobs } from './jobs.js';
import { createJsonLogger } from './logger.js';
import { allowPrivateWebhookUrls } from './webhooks/address-guard.js';
import { createWebhookDeliveryJob } from './webhooks/delivery-job.js';
import { createWebhookSender } from './webhooks/sender.js';
import { createWorker, type Job } from './worker.js';

const logger = createJsonLogger();

const config = parseWorkerEnv(process.env);
if (!config.ok) {
  logger.error({ problems: config.error }, 'invalid environment');
  process.exit(1);
}

// The composition root hands the runner its jobs as data; each job closes over the stores
// it needs. Webhook delivery joins this list with its issue.
const jobs: Job[] = [];
const database = config.value.databaseUrl ? await createDatabase({ url: config.value.databaseUrl }) : null;
if (database) {
  await migrateLatest(database.knex);
  const stores = createStores(database.knex);
  const clock = { now: () => new Date() };
  const allowPrivateAddresses = allowPrivateWebhookUrls(process.env);
  jobs.push(
    ...createBookingJobs({ stores, clock }, logger),
    ...createSessionJobs({ sessions: stores.sessions, clock }, logger),
    createWebhookDeliveryJob({ stores, clock, logger, send: createWebhookSender({ allowPrivateAddresses }) }),
  );
} else {
  logger.info({ database: 'none' }, 'DATABASE_URL is unset: in embedded mode the API process runs the jobs');
}

const worker = createWorker({ jobs, logger });

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
