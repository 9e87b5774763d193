import type { Clock, Logger } from '@travelops/domain/shared';
import { type ClaimedDelivery, signingSecrets, type WebhookStores } from '@travelops/domain/webhooks';
import {
  DEFAULT_RETRY_POLICY,
  decideAfterAttempt,
  EVENT_ID_HEADER,
  type RetryPolicy,
  SIGNATURE_HEADER,
  sign,
} from '@travelops/webhooks';
import type { Job } from '../worker.js';
import type { WebhookSender } from './sender.js';

export interface WebhookDeliveryJobOptions {
  /** Bound to the pool: fan-out, claims and results each commit on their own (a claim is a lease). */
  stores: WebhookStores;
  clock: Clock;
  send: WebhookSender;
  logger: Logger;
  policy?: RetryPolicy;
  /**
   * How often the outbox is polled when nothing wakes the job. New events wake it at once
   * (the app's outbox listener calls `worker.wake('outbox')`); the poll catches what a lost
   * listener connection missed and retries that come due.
   */
  intervalMs?: number;
  /**
   * A claimed delivery is another worker's to retry if this one has not renewed its lease by
   * then. It is renewed every third of it while the attempt is in flight, so a worker that dies
   * (SIGKILL) holds its deliveries for at most this long; a live one holds them for as long
   * as its sender takes (its own limit, DELIVERY_TIMEOUT_MS).
   */
  leaseMs?: number;
  batchSize?: number;
  /** Told the outcome of every attempt (metrics): delivered, to be retried, or given up. */
  onAttempt?: (outcome: DeliveryAttemptOutcome) => void;
}

export type DeliveryAttemptOutcome = 'succeeded' | 'retrying' | 'failed';

const OUTCOME_OF = { SUCCEEDED: 'succeeded', PENDING: 'retrying', FAILED: 'failed' } as const;

/**
 * Delivers the outbox to webhook endpoints: fans new events out to subscribed endpoints,
 * claims due deliveries (several workers never take the same one), POSTs each signed
 * envelope with the event id, and records the outcome with the retry policy's decision.
 */
export function createWebhookDeliveryJob(options: WebhookDeliveryJobOptions): Job {
  const { stores, clock, send, logger } = options;
  const policy = options.policy ?? DEFAULT_RETRY_POLICY;
  const leaseMs = options.leaseMs ?? 10_000;
  const batchSize = options.batchSize ?? 20;

  /**
   * Keeps the lease of a claimed batch while its attempts are in flight: every third of the
   * lease, the deliveries not yet recorded get a new end. A renewal that fails is logged; the
   * lease may then run out and another worker send the delivery again (at least once; the
   * receiver de-duplicates on the event id, and recordAttempt keeps only one result per attempt).
   */
  function holdLeases(ids: string[], heldUntil: Date) {
    const inFlight = new Set(ids);
    let renewing: Promise<void> | null = null;
    const timer = setInterval(() => {
      if (renewing || inFlight.size === 0) return;
      const until = new Date(clock.now().getTime() + leaseMs);
      renewing = stores.webhookDeliveries
        .renewLeases([...inFlight], heldUntil, until)
        .then(
          () => {
            heldUntil = until;
          },
          (error: unknown) => logger.warn({ job: 'deliver-webhooks', err: error }, 'lease renewal failed'),
        )
        .finally(() => {
          renewing = null;
        });
    }, leaseMs / 3);
    return {
      finished: (id: string) => inFlight.delete(id),
      async release() {
        clearInterval(timer);
        await renewing;
      },
    };
  }

  async function deliver({ delivery, endpoint, event }: ClaimedDelivery) {
    const body = JSON.stringify(event);
    const now = clock.now();
    const response = await send({
      url: endpoint.url,
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': 'TravelOps-Webhooks/1.0',
        // The timestamp and signature are fresh on every attempt; the event id never changes.
        [SIGNATURE_HEADER]: sign(signingSecrets(endpoint, now), body, now),
        [EVENT_ID_HEADER]: event.id,
      },
      body,
    });
    const attempts = delivery.attempts + 1;
    const finished = clock.now();
    const decision = decideAfterAttempt({
      outcome: {
        ...(response.statusCode !== undefined && { statusCode: response.statusCode }),
        retryAfter: response.retryAfter ?? null,
      },
      attempts,
      eventCreatedAt: new Date(event.createdAt),
      now: finished,
      policy,
    });
    await stores.webhookDeliveries.recordAttempt(delivery.id, {
      status: decision.status,
      attempts,
      nextAttemptAt: decision.nextAttemptAt,
      lastStatusCode: response.statusCode ?? null,
      lastError:
        response.error ?? (decision.status === 'SUCCEEDED' ? null : response.body?.slice(0, 500) || null),
      deliveredAt: decision.status === 'SUCCEEDED' ? finished : null,
    });
    options.onAttempt?.(OUTCOME_OF[decision.status]);
    if (decision.disableEndpoint) {
      await stores.webhookEndpoints.update(endpoint.workspaceId, endpoint.id, {
        enabled: false,
        disabledReason: 'gone',
      });
    }
    logger.info(
      {
        job: 'deliver-webhooks',
        deliveryId: delivery.id,
        eventId: event.id,
        eventType: event.type,
        endpointId: endpoint.id,
        attempt: attempts,
        statusCode: response.statusCode ?? null,
        error: response.error ?? null,
        outcome: decision.status,
        ...(decision.disableEndpoint && { endpointDisabled: true }),
      },
      'webhook delivery attempt',
    );
  }

  return {
    name: 'deliver-webhooks',
    intervalMs: options.intervalMs ?? 1_000,
    wakeOn: ['outbox'],
    // One wake-up, one run: the new events are fanned out, claimed and sent without a wait.
    async run(signal) {
      await stores.webhookDeliveries.fanOut(500);
      while (!signal.aborted) {
        const now = clock.now();
        const claimed = await stores.webhookDeliveries.claimDue(now, batchSize, leaseMs);
        if (claimed.length === 0) return;
        const leases = holdLeases(
          claimed.map((c) => c.delivery.id),
          new Date(now.getTime() + leaseMs),
        );
        // Settled, not Promise.all: the other attempts keep their leases until they end too.
        const attempts = await Promise.allSettled(
          claimed.map((c) => deliver(c).finally(() => leases.finished(c.delivery.id))),
        );
        await leases.release();
        const failed = attempts.find((attempt) => attempt.status === 'rejected');
        if (failed) throw failed.reason;
      }
    },
  };
}
