import type { Logger } from '@travelops/domain/shared';
import type { Worker } from './worker.js';

/**
 * What an app hands to its database's outbox listener (`database.listenForOutbox`): each
 * committed event wakes the worker's outbox jobs (webhook delivery). Listening again after an
 * outage wakes them too (events committed meanwhile went unheard); the outage itself is logged
 * once, and meanwhile the jobs' poll delivers.
 */
export function outboxWakeUps(worker: Pick<Worker, 'wake'>, logger: Logger) {
  return {
    onEvent: () => worker.wake('outbox'),
    onListening({ reconnected }: { reconnected: boolean }) {
      if (reconnected) logger.info({ listener: 'outbox' }, 'outbox listener connected again');
      worker.wake('outbox');
    },
    onError(error: Error) {
      logger.warn(
        { listener: 'outbox', err: error },
        'outbox listener has no connection: reconnecting; until then webhooks go out on the poll',
      );
    },
  };
}
