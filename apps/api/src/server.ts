import type { Server } from 'node:http';
import { createUnitOfWork } from '@travelops/db';
import { startJobRunner } from '@travelops/jobs';
import { coalescedStream, createJsonLogger, defaultLogFormat } from '@travelops/logging';
import { seedDemo } from './cli/seed.js';
import { createApi, createHttpServer, systemClock } from './compose.js';
import { type ApiConfig, ConfigError, loadConfig } from './config.js';
import { DataDirInUseError, lockDataDir } from './data-lock.js';
import { recordEmbeddedServer } from './embedded-server.js';

// Replaced by one with LOG_LEVEL and LOG_FORMAT once the environment has been read.
let logger = createJsonLogger(process.stdout, { format: defaultLogFormat() });

/** How long requests in flight may take to finish after SIGTERM or Ctrl-C. */
const SHUTDOWN_GRACE_MS = 10_000;

/** Listens, or explains in one line why not (a taken port is the usual first-hour surprise). */
async function listen(server: Server, config: ApiConfig): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE')
        reject(
          new ConfigError(
            `PORT: ${config.port} is in use on ${config.host} (another TravelOps?). Stop that process or start with another port, e.g. PORT=${config.port + 1}.`,
          ),
        );
      else if (error.code === 'EACCES')
        reject(
          new ConfigError(`PORT: ${config.port} needs privileges on ${config.host}; pick one above 1023.`),
        );
      else reject(error);
    });
  });
}

async function main() {
  const config = loadConfig(process.env);
  // One write per turn of the event loop for a burst of request lines.
  logger = createJsonLogger(coalescedStream(process.stdout), {
    level: config.log.level,
    format: config.log.format ?? defaultLogFormat(),
  });
  const unlock = config.databaseUrl ? () => {} : lockDataDir(config.pgliteDir);
  const api = await createApi(config, logger);

  const server: Server = createHttpServer(api.app, config.timeouts).listen(config.port, config.host);
  try {
    await listen(server, config);
  } catch (error) {
    await api.close();
    unlock();
    throw error;
  }

  // A newcomer's first start on an empty embedded database gets a demo workspace and a token,
  // made only once the port is open: a start that cannot listen shows no secret it would lose.
  let firstRun: Awaited<ReturnType<typeof seedDemo>> | null = null;
  if (!config.databaseUrl && !(await api.database.knex('workspaces').first('id'))) {
    firstRun = await seedDemo({ uow: createUnitOfWork(api.database.knex), clock: systemClock });
  }

  // The embedded database, served to the CLI on a loopback port while this process owns it
  // (decisions §11): no stopping the API to make a token.
  let localServer: { close(): Promise<void> } | null = null;
  let forgetLocalServer = () => {};
  if (api.database.serve) {
    try {
      const served = await api.database.serve({ host: '127.0.0.1' });
      localServer = served;
      forgetLocalServer = recordEmbeddedServer(config.pgliteDir, served.port);
      logger.info(
        { port: served.port, host: '127.0.0.1' },
        'embedded database served to local tools (the CLI)',
      );
    } catch (error) {
      logger.warn(
        { err: String(error) },
        'the embedded database is not served to local tools: stop the API to use the CLI',
      );
    }
  }

  // The worker's jobs, assembled as the worker assembles them (packages/jobs). On PGlite the
  // outbox notifications come from this process's own commits; on PostgreSQL, from any.
  const jobs = config.workerInProcess
    ? startJobRunner(
        { uow: createUnitOfWork(api.database.knex), clock: systemClock, logger },
        {
          settings: config,
          publicBaseUrl: config.publicBaseUrl,
          ...(api.metrics && { onDeliveryAttempt: api.metrics.deliveryAttempt }),
          listenForOutbox: (handlers) => api.database.listenForOutbox(handlers),
        },
      )
    : null;

  const url = `http://localhost:${config.port}`;
  logger.info(
    {
      url,
      publicBaseUrl: config.publicBaseUrl,
      database: api.database.kind,
      workerInProcess: Boolean(jobs),
      metrics: api.metrics ? '/metrics (bearer METRICS_TOKEN)' : 'off (METRICS_TOKEN unset)',
    },
    'TravelOps API listening',
  );
  process.stderr.write(
    `${[
      '',
      `  TravelOps API: ${url}   (reference: ${url}/docs, contract: ${url}/openapi.json, health: ${url}/healthz)`,
      firstRun
        ? `  Demo workspace ${firstRun.workspaceId} (slug "${firstRun.slug}") with an ADMIN token, shown once:\n\n      ${firstRun.token}\n\n  Try: curl -H "Authorization: Bearer ${firstRun.token}" ${url}/workspaces/${firstRun.workspaceId}/tours`
        : config.databaseUrl
          ? '  Get a token: npm run cli -- seed:demo --json   (or workspace:create, then token:create)'
          : '  Get a token: npm run cli -- token:create --workspace demo --role ADMIN --name me',
      '',
    ].join('\n')}\n`,
  );

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    // No new connections; requests in flight finish (up to the grace period) before the
    // database closes under them.
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    const grace = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
    await closed;
    clearTimeout(grace);
    forgetLocalServer();
    await localServer?.close();
    await jobs?.stop();
    await api.close();
    unlock();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((error: unknown) => {
  const known = error instanceof ConfigError || error instanceof DataDirInUseError;
  logger.error({ err: known ? error.message : error }, 'the API could not start');
  // The person at the terminal reads one line naming the problem; the stack is for the unexpected.
  if (known) process.stderr.write(`\n  TravelOps API could not start. ${error.message}\n\n`);
  process.exit(1);
});
