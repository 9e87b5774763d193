import type { Server } from 'node:http';
import { createUnitOfWork } from '@travelops/db';
import { createJobs, createJsonLogger, createWorker } from '@travelops/jobs';
import { seedDemo } from './cli/seed.js';
import { createApi, createHttpServer, systemClock } from './compose.js';
import { ConfigError, loadConfig } from './config.js';
import { lockDataDir } from './data-lock.js';

const logger = createJsonLogger();

async function main() {
  const config = loadConfig(process.env);
  const unlock = config.databaseUrl ? () => {} : lockDataDir(config.pgliteDir);
  const api = await createApi(config, logger);

  // A newcomer's first start on an empty embedded database gets a demo workspace and a token.
  let firstRun: Awaited<ReturnType<typeof seedDemo>> | null = null;
  if (!config.databaseUrl && !(await api.database.knex('workspaces').first('id'))) {
    firstRun = await seedDemo({ uow: createUnitOfWork(api.database.knex), clock: systemClock });
  }

  const jobs = createJobs(
    { uow: createUnitOfWork(api.database.knex), clock: systemClock, logger },
    { allowPrivateWebhookUrls: config.allowPrivateWebhookUrls },
  );
  const worker = config.workerInProcess ? createWorker({ jobs, logger }) : null;
  worker?.start();

  const server: Server = createHttpServer(api.app, config.timeouts).listen(config.port, config.host);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const url = `http://localhost:${config.port}`;
  logger.info(
    {
      url,
      publicBaseUrl: config.publicBaseUrl,
      database: api.database.kind,
      workerInProcess: Boolean(worker),
    },
    'TravelOps API listening',
  );
  process.stderr.write(
    `${[
      '',
      `  TravelOps API: ${url}   (reference: ${url}/docs, contract: ${url}/openapi.json)`,
      firstRun
        ? `  Demo workspace ${firstRun.workspaceId} (slug "${firstRun.slug}") with an ADMIN token, shown once:\n\n      ${firstRun.token}\n\n  Try: curl -H "Authorization: Bearer ${firstRun.token}" ${url}/workspaces/${firstRun.workspaceId}/tours`
        : config.databaseUrl
          ? '  Get a token: pnpm cli seed:demo --json   (or workspace:create, then token:create)'
          : '  Get a token: stop the API, then pnpm cli token:create --workspace demo --role ADMIN --name me',
      '',
    ].join('\n')}\n`,
  );

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    server.close();
    server.closeIdleConnections();
    await worker?.stop();
    await api.close();
    unlock();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((error: unknown) => {
  logger.error({ err: error instanceof ConfigError ? error.message : error }, 'the API could not start');
  process.exit(1);
});
