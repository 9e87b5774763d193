import { type ClaimedDelivery, type Clock, signingSecrets, type WebhookStores } from '@travelops/domain';
import {
  DEFAULT_RETRY_POLICY,
  decideAfterAttempt,
  EVENT_ID_HEADER,
  type RetryPolicy,
  SIGNATURE_HEADER,
  sign,
} from '@travelops/webhooks';
import type { Logger } from '../logger.js';
import type { Job } from '../worker.js';
import type { WebhookSender } from './sender.js';

export interface WebhookDeliveryJobOptions {
  /** Bound to the pool: fan-out, claims and results each commit on their own (a claim is a lease). */
  stores: WebhookStores;
  clock: Clock;
  send: WebhookSender;
  logger: Logger;
  policy?: RetryPolicy;
  /** How often the outbox is polled: new events go out within about this long. */
  intervalMs?: number;
  /** A claimed delivery is another worker's to retry if this one has not finished by then. */
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
  const leaseMs = options.leaseMs ?? 60_000;

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
    intervalMs: options.intervalMs ?? 500,
    async run(signal) {
      await stores.webhookDeliveries.fanOut(500);
      while (!signal.aborted) {
        const claimed = await stores.webhookDeliveries.claimDue(
          clock.now(),
          options.batchSize ?? 20,
          leaseMs,
        );
        if (claimed.length === 0) return;
        await Promise.all(claimed.map(deliver));
      }
    },
  };
}
