import { Registry } from 'prom-client';
import { expect, it } from 'vitest';
import { countDeliveryAttempts } from './delivery-metric.js';

it('counts delivery attempts by outcome, every outcome present at 0 before the first', async () => {
  const registry = new Registry();
  const count = countDeliveryAttempts(registry);
  const line = async (outcome: string) =>
    (await registry.metrics())
      .split('\n')
      .find((l) => l.startsWith(`travelops_webhook_delivery_attempts_total{outcome="${outcome}"}`));
  expect(await line('failed')).toMatch(/ 0$/);
  count('succeeded');
  count('succeeded');
  count('retrying');
  expect([await line('succeeded'), await line('retrying'), await line('failed')]).toEqual([
    'travelops_webhook_delivery_attempts_total{outcome="succeeded"} 2',
    'travelops_webhook_delivery_attempts_total{outcome="retrying"} 1',
    'travelops_webhook_delivery_attempts_total{outcome="failed"} 0',
  ]);
});
