import { Counter, type Registry } from 'prom-client';
import type { DeliveryAttemptOutcome } from './webhooks/delivery-job.js';

const OUTCOMES: readonly DeliveryAttemptOutcome[] = ['succeeded', 'retrying', 'failed'];

/**
 * The webhook delivery attempts of this process by outcome, in the app's registry (the API's
 * /metrics or the worker's): the `onDeliveryAttempt` to hand to `startJobRunner`. Every outcome
 * is there from the start, at 0, so a rate over it is defined before the first attempt.
 */
export function countDeliveryAttempts(registry: Registry): (outcome: DeliveryAttemptOutcome) => void {
  const attempts = new Counter({
    name: 'travelops_webhook_delivery_attempts_total',
    help: 'Webhook delivery attempts made by this process, by outcome: succeeded, retrying, failed (gave up).',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  for (const outcome of OUTCOMES) attempts.inc({ outcome }, 0);
  return (outcome) => attempts.inc({ outcome });
}
