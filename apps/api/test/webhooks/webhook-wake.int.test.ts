import { createDatabase, createUnitOfWork, migrateLatest } from '@travelops/db';
import { newId, ok } from '@travelops/domain/shared';
import { newWebhookSecret } from '@travelops/domain/webhooks';
import {
  createWebhookDeliveryJob,
  createWebhookSender,
  createWorker,
  type Job,
  outboxWakeUps,
  type Worker,
} from '@travelops/jobs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { book, setStatus } from '../support/booking-fixtures.js';
import { createDeparture, createTour } from '../support/fixtures.js';
import { startTestApi, type TestApi } from '../support/harness.js';
import { createEndpoint, deliveryJob, type Receiver, startReceiver } from '../support/webhook-fixtures.js';

// The delivery job in a worker as the apps assemble it: woken by the database's outbox
// listener, with its poll set to a minute so that only a wake-up can explain a delivery.
const POLL_MS = 60_000;

let t: TestApi;
let receiver: Receiver;
let worker: Worker;
let runs = 0;
let listener: { close(): Promise<void> };
beforeAll(async () => {
  t = await startTestApi();
  receiver = await startReceiver();
  const delivery = deliveryJob(t, { now: () => new Date() }, { intervalMs: POLL_MS });
  const counted: Job = {
    ...delivery,
    async run(signal) {
      runs += 1;
      await delivery.run(signal);
    },
  };
  worker = createWorker({ jobs: [counted], logger: { info() {}, warn() {}, error() {} } });
  worker.start();
  listener = t.api.database.listenForOutbox(outboxWakeUps(worker, { info() {}, warn() {}, error() {} }));
});
afterAll(async () => {
  await worker?.stop();
  await listener?.close();
  await receiver?.close();
  await t?.close();
});

describe('on PostgreSQL, with the worker in its own process', () => {
  it('a confirm that commits wakes the delivery job: booking.confirmed arrives though the poll is a minute away', async () => {
    const ws = await t.createWorkspace('ADMIN');
    const endpoint = await createEndpoint(t, ws, { url: receiver.url, events: ['booking.confirmed'] });
    receiver.secret = endpoint.secret;
    const tour = await createTour(t, ws);
    const departure = await createDeparture(t, ws, tour.id);
    const booking = await book(t, ws, departure.id, { paymentMode: 'MANUAL' });
    // The start's run and the listener's first wake-up are behind us; the poll is not due for a minute.
    await vi.waitFor(() => expect(runs).toBeGreaterThanOrEqual(1));
    const runsBefore = runs;

    expect((await setStatus(t, ws, booking.id, 'CONFIRMED')).status).toBe(200);
    await vi.waitFor(
      () =>
        expect(receiver.accepted().map((event) => [event.type, event.data.id])).toEqual([
          ['booking.confirmed', booking.id],
        ]),
      { timeout: POLL_MS / 4 },
    );
    expect(runs).toBeGreaterThan(runsBefore);
  });

  it('after its listener connection is terminated, the worker listens again and the next confirm is delivered at once', async () => {
    const ws = await t.createWorkspace('ADMIN');
    const endpoint = await createEndpoint(t, ws, { url: receiver.url, events: ['booking.confirmed'] });
    receiver.secret = endpoint.secret;
    const tour = await createTour(t, ws);
    const departure = await createDeparture(t, ws, tour.id);
    const booking = await book(t, ws, departure.id, { paymentMode: 'MANUAL' });
    const listenerPids = async () =>
      (
        await t.api.database.knex.raw<{ rows: { pid: number }[] }>(
          `select pid from pg_stat_activity
         where application_name = 'travelops-outbox-listener' and datname = current_database()`,
        )
      ).rows.map((row) => row.pid);
    const [old] = await listenerPids();
    expect(old).toBeDefined();
    await t.api.database.knex.raw('select pg_terminate_backend(?)', [old as number]);
    await vi.waitFor(
      async () => expect((await listenerPids()).filter((pid) => pid !== old)).toHaveLength(1),
      {
        timeout: 10_000,
      },
    );

    expect((await setStatus(t, ws, booking.id, 'CONFIRMED')).status).toBe(200);
    await vi.waitFor(
      () =>
        expect(
          receiver
            .accepted()
            .filter((event) => event.data.id === booking.id)
            .map((event) => event.type),
        ).toEqual(['booking.confirmed']),
      { timeout: POLL_MS / 4 },
    );
  });
});

describe('on embedded PGlite, where the API process runs the jobs', () => {
  it('an event committed in this process wakes the delivery job: delivered though the poll is a minute away', async () => {
    const silent = { info() {}, warn() {}, error() {} };
    const database = await createDatabase({ dataDir: 'memory://' });
    const embeddedReceiver = await startReceiver();
    let embeddedRuns = 0;
    let embeddedWorker: Worker | undefined;
    let embeddedListener: { close(): Promise<void> } | undefined;
    try {
      await migrateLatest(database.knex);
      const uow = createUnitOfWork(database.knex);
      const workspaceId = newId('workspace');
      await uow.stores.workspaces.insert({ id: workspaceId, slug: 'embedded', name: 'Embedded' });
      embeddedReceiver.secret = newWebhookSecret();
      await uow.stores.webhookEndpoints.insert({
        id: newId('webhookEndpoint'),
        workspaceId,
        url: embeddedReceiver.url,
        events: ['booking.confirmed'],
        description: null,
        enabled: true,
        disabledReason: null,
        secret: embeddedReceiver.secret,
        previousSecret: null,
        previousSecretExpiresAt: null,
      });
      const delivery = createWebhookDeliveryJob({
        stores: uow.stores,
        clock: { now: () => new Date() },
        send: createWebhookSender({ allowPrivateAddresses: true }),
        logger: silent,
        intervalMs: POLL_MS,
      });
      embeddedWorker = createWorker({
        jobs: [
          {
            ...delivery,
            async run(signal) {
              embeddedRuns += 1;
              await delivery.run(signal);
            },
          },
        ],
        logger: silent,
      });
      embeddedWorker.start();
      embeddedListener = database.listenForOutbox(outboxWakeUps(embeddedWorker, silent));
      await vi.waitFor(() => expect(embeddedRuns).toBeGreaterThanOrEqual(1));

      const eventId = newId('event');
      await uow.transaction(async (tx) => {
        await tx.stores.outbox.append(
          {
            id: eventId,
            type: 'booking.confirmed',
            createdAt: new Date().toISOString(),
            workspaceId,
            data: { id: 'bkg_embedded' },
          },
          'bkg_embedded',
        );
        return ok(null);
      });
      await vi.waitFor(
        () => expect(embeddedReceiver.accepted().map((event) => event.id)).toEqual([eventId]),
        {
          timeout: POLL_MS / 4,
        },
      );
    } finally {
      await embeddedWorker?.stop();
      await embeddedListener?.close();
      await embeddedReceiver.close();
      await database.close();
    }
  });
});
