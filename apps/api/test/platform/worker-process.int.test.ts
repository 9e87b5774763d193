import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { book } from '../support/booking-fixtures.js';
import { createDeparture, createTour } from '../support/fixtures.js';
import { startTestApi, type TestApi } from '../support/harness.js';
import { apiDir, freePort } from '../support/processes.js';
import { createEndpoint, type Receiver, startReceiver } from '../support/webhook-fixtures.js';

// The worker as its own process (`node apps/worker/dist/main.js`) against the API's database.
let t: TestApi;
let receiver: Receiver;
beforeAll(async () => {
  t = await startTestApi();
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});

it('the worker process delivers a booking event from the outbox, signed, and stops cleanly on SIGTERM', async () => {
  const entry = join(apiDir, '..', 'worker', 'dist', 'main.js');
  if (!existsSync(entry)) throw new Error(`${entry} is missing: run the build first (pnpm test does)`);
  const ws = await t.createWorkspace('ADMIN');
  const endpoint = await createEndpoint(t, ws, { url: receiver.url, events: ['booking.created'] });
  receiver.secret = endpoint.secret;
  const tour = await createTour(t, ws);
  const departure = await createDeparture(t, ws, tour.id);
  const booking = await book(t, ws, departure.id);

  const metricsPort = await freePort();
  const metricsToken = 'worker-metrics-secret-0123';
  const worker = spawn(process.execPath, [entry], {
    env: {
      PATH: process.env.PATH ?? '',
      DATABASE_URL: t.database.url,
      METRICS_PORT: String(metricsPort),
      METRICS_TOKEN: metricsToken,
    },
  });
  let logs = '';
  worker.stdout.on('data', (chunk) => (logs += chunk));
  const exited = new Promise<number | null>((resolve) => worker.on('exit', resolve));
  try {
    for (let i = 0; i < 200 && receiver.accepted().length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const [event] = receiver.accepted();
    expect(event).toMatchObject({
      type: 'booking.created',
      workspaceId: ws.workspaceId,
      data: { id: booking.id },
    });
    expect(receiver.requests[0]?.verified).toBe(true);
    expect(logs).toContain('deliver-webhooks');
    expect(logs).not.toContain(endpoint.secret);
    // Its own /metrics: the attempt it made, behind the bearer secret.
    const metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
    expect((await fetch(metricsUrl)).status).toBe(401);
    // Bound to METRICS_HOST (unset: 127.0.0.1): another address of this machine reaches nothing.
    await expect(fetch(`http://127.0.0.2:${metricsPort}/metrics`)).rejects.toThrow();
    const metrics = await fetch(metricsUrl, { headers: { Authorization: `Bearer ${metricsToken}` } });
    expect(await metrics.text()).toContain(
      'travelops_webhook_delivery_attempts_total{outcome="succeeded"} 1',
    );
  } finally {
    worker.kill('SIGTERM');
  }
  expect(await exited).toBe(0);
}, 60_000);
