import { createUnitOfWork } from '@travelops/db';
import { createJobs } from '@travelops/jobs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/compose.js';
import { book, confirmedBooking, expireHold, participants } from '../support/booking-fixtures.js';
import { createDeparture, createTour, type TestWorkspace } from '../support/fixtures.js';
import { startTestApi, type TestApi } from '../support/harness.js';
import { createEndpoint, type Receiver, startReceiver } from '../support/webhook-fixtures.js';

const TOKEN = 'metrics-secret-for-tests-0123';
let t: TestApi;
let ws: TestWorkspace;
let receiver: Receiver;
beforeAll(async () => {
  t = await startTestApi({ METRICS_TOKEN: TOKEN });
  ws = await t.createWorkspace('ADMIN');
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});

const scrape = (token = TOKEN) => t.request('GET', '/metrics', { token });

/** The value of one sample line, e.g. `travelops_seats_sold` or `x{outcome="succeeded"}`. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('/metrics', () => {
  it('answers 401 without the bearer secret, or with another one', async () => {
    const none = await t.request('GET', '/metrics');
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect((await scrape('tops_not-the-metrics-token-000')).status).toBe(401);
  });

  it('reports requests by route and status, the pool, the outbox lag, holds expired, seats sold and webhook attempts', async () => {
    const tour = await createTour(t, ws, { capacity: 20 });
    const departure = await createDeparture(t, ws, tour.id, { capacity: 20 });
    await t.request('GET', `/workspaces/${ws.workspaceId}/tours`, { token: ws.token });
    // 3 seats sold; a second booking's hold expires (its seats are not sold).
    await confirmedBooking(t, ws, departure.id, { participants: participants(3) });
    const hold = await book(t, ws, departure.id);
    await expireHold(t, hold.id);
    receiver.secret = (
      await createEndpoint(t, ws, { url: receiver.url, events: ['booking.confirmed'] })
    ).secret;
    const jobs = createJobs(
      {
        uow: createUnitOfWork(t.api.database.knex),
        clock: systemClock,
        logger: { info() {}, warn() {}, error() {} },
      },
      { allowPrivateWebhookUrls: true, onDeliveryAttempt: t.api.metrics?.deliveryAttempt },
    );
    const run = (name: string) =>
      jobs.find((job) => job.name === name)?.run(new AbortController().signal) as Promise<void>;
    await run('expire-holds');

    const before = await scrape();
    expect(before.status).toBe(200);
    expect(before.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = String(before.body);
    expect(
      sample(
        text,
        'http_request_duration_seconds_count{method="GET",route="/workspaces/:workspaceId/tours",status="200"}',
      ),
    ).toBe(1);
    expect(sample(text, 'travelops_db_pool_connections{state="used"}')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'travelops_db_pool_max_connections')).toBe(10);
    // booking.confirmed (and the others) are not out yet: the oldest is seconds old, not 0.
    expect(sample(text, 'travelops_outbox_lag_seconds')).toBeGreaterThan(0);
    expect(sample(text, 'travelops_holds_expired')).toBe(1);
    expect(sample(text, 'travelops_seats_sold')).toBe(3);
    expect(sample(text, 'travelops_webhook_delivery_attempts_total{outcome="succeeded"}')).toBe(0);

    await run('deliver-webhooks');
    const after = String((await scrape()).body);
    expect(receiver.accepted().map((event) => event.type)).toEqual(['booking.confirmed']);
    expect(sample(after, 'travelops_webhook_delivery_attempts_total{outcome="succeeded"}')).toBe(1);
    expect(after).not.toContain(ws.workspaceId);
  });
});
