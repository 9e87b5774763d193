import { createStores } from '@travelops/db';
import { createWebhookSender, type WebhookSender } from '@travelops/jobs';
import { sign, verify } from '@travelops/webhooks';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  book,
  bookingInput,
  bookingsPath,
  eventsOf,
  getBooking,
  participants,
  setStatus,
} from '../support/booking-fixtures.js';
import { createDeparture, createTour, expectError, ISO_MS, type TestWorkspace } from '../support/fixtures.js';
import { startTestApi, type TestApi } from '../support/harness.js';
import {
  answer,
  createEndpoint,
  deliveriesOf,
  deliveryJob,
  deliveryOf,
  endpointsPath,
  getEndpoint,
  type JobOptions,
  patchEndpoint,
  type Receiver,
  runJob,
  SECOND,
  startReceiver,
  testClock,
} from '../support/webhook-fixtures.js';

let t: TestApi;
let ws: TestWorkspace;
let tourId: string;
let departureId: string;
let receiver: Receiver;
/** Every endpoint secret this file sees; none may reach the logs. */
const secrets = new Set<string>();

beforeAll(async () => {
  t = await startTestApi();
  ws = await t.createWorkspace('ADMIN');
  tourId = (await createTour(t, ws, { name: 'Glacier Hike', capacity: 500 })).id;
  departureId = (await createDeparture(t, ws, tourId, { capacity: 500 })).id;
});
beforeEach(async () => {
  receiver = await startReceiver();
});
// Each test has its own receiver and endpoint; deliveries of earlier tests go with their endpoint.
afterEach(async () => {
  await receiver.close();
  await t.api.database.knex('webhook_endpoints').del();
});
afterAll(() => t?.close());

/** An endpoint aimed at this test's receiver, which verifies with its secret, and a delivery job. */
async function setup(options: { events?: string[]; job?: JobOptions } = {}) {
  const endpoint = await createEndpoint(t, ws, {
    url: receiver.url,
    ...(options.events && { events: options.events }),
  });
  secrets.add(endpoint.secret);
  receiver.secret = endpoint.secret;
  const clock = testClock();
  const job = deliveryJob(t, clock, options.job);
  return {
    endpoint,
    clock,
    job,
    /** Runs the job at (just ahead of) the real time, as a worker polling now would. */
    async deliverNow() {
      clock.catchUp();
      await runJob(job);
    },
  };
}

const manualBooking = () => book(t, ws, departureId, { paymentMode: 'MANUAL' });

async function confirm(bookingId: string) {
  const res = await setStatus(t, ws, bookingId, 'CONFIRMED');
  if (res.status !== 200) throw new Error(`confirm: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

const eventsFor = (bookingId: string) =>
  receiver.accepted().filter((event) => event.data.id === bookingId || event.data.bookingId === bookingId);

const DELIVERY_KEYS = [
  'attempts',
  'createdAt',
  'deliveredAt',
  'endpointId',
  'eventId',
  'eventType',
  'id',
  'lastAttemptAt',
  'lastError',
  'lastStatusCode',
  'nextAttemptAt',
  'status',
];

describe('delivery', () => {
  it('a booking created over HTTP reaches the receiver as booking.created: signed, with the event id header', async () => {
    const { endpoint, clock, deliverNow } = await setup();
    const booking = await manualBooking();
    const expected = await getBooking(t, ws, booking.id);
    await deliverNow();

    expect(receiver.requests).toHaveLength(1);
    const [received] = receiver.requests;
    if (!received) return;
    expect(received).toMatchObject({ path: '/hooks', verified: true, status: 204 });
    expect(received.headers['content-type']).toBe('application/json');
    expect(received.signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(
      verify({ rawBody: received.rawBody, header: received.signature, secret: endpoint.secret }),
    ).toEqual({
      ok: true,
      timestamp: received.t,
    });
    // t is the worker's clock at sending, within the receiver's 300 s window.
    expect(received.t).toBe(Math.floor(clock.now().getTime() / 1000));
    expect(Math.abs((received.t ?? 0) - Date.now() / 1000)).toBeLessThanOrEqual(300);

    const event = received.event;
    expect(Object.keys(event).sort()).toEqual(['createdAt', 'data', 'id', 'type', 'workspaceId']);
    expect(event).toEqual({
      id: expect.stringMatching(/^evt_[0-9A-Za-z]{22}$/),
      type: 'booking.created',
      createdAt: expect.stringMatching(ISO_MS),
      workspaceId: ws.workspaceId,
      data: expected,
    });
    expect(received.eventId).toBe(event.id);
    expect(event.id).toBe((await eventsOf(t, booking.id))[0].id);

    const [delivery] = await deliveriesOf(t, ws, endpoint.id);
    expect(Object.keys(delivery).sort()).toEqual(DELIVERY_KEYS);
    expect(delivery).toMatchObject({
      id: expect.stringMatching(/^whd_/),
      endpointId: endpoint.id,
      eventId: event.id,
      eventType: 'booking.created',
      status: 'SUCCEEDED',
      attempts: 1,
      nextAttemptAt: null,
      lastStatusCode: 204,
      lastError: null,
      deliveredAt: clock.now().toISOString(),
      lastAttemptAt: expect.stringMatching(ISO_MS),
    });

    // Delivered is done: another turn sends nothing.
    clock.advance(60 * SECOND);
    await runJob(deliveryJob(t, clock));
    expect(receiver.requests).toHaveLength(1);
  });

  it('confirming emits booking.confirmed carrying the confirmed Booking, after booking.created', async () => {
    const { deliverNow } = await setup();
    const booking = await manualBooking();
    const confirmed = await confirm(booking.id);
    await deliverNow();
    expect(eventsFor(booking.id).map((e) => e.type)).toEqual(['booking.created', 'booking.confirmed']);
    expect(eventsFor(booking.id)[1].data).toEqual(confirmed);
    expect(confirmed.status).toBe('CONFIRMED');
  });

  it('only the event types the endpoint subscribes to are delivered', async () => {
    const { endpoint, deliverNow } = await setup({ events: ['booking.confirmed'] });
    const kept = await manualBooking();
    await confirm(kept.id);
    const cancelled = await manualBooking();
    expect((await setStatus(t, ws, cancelled.id, 'CANCELLED')).status).toBe(200);
    await deliverNow();
    expect(receiver.accepted().map((e) => [e.type, e.data.id])).toEqual([['booking.confirmed', kept.id]]);
    expect((await deliveriesOf(t, ws, endpoint.id)).map((d) => d.eventType)).toEqual(['booking.confirmed']);
  });

  it('a disabled endpoint receives nothing; enabled again, its pending deliveries resume', async () => {
    const { endpoint, clock, job, deliverNow } = await setup();
    receiver.behave(answer.status(500));
    const before = await manualBooking();
    await deliverNow();
    expect(receiver.requests).toHaveLength(1);

    receiver.behave(answer.ok);
    expect(await patchEndpoint(t, ws, endpoint.id, { enabled: false })).toMatchObject({ enabled: false });
    const during = await manualBooking();
    clock.advance(SECOND);
    await deliverNow();
    clock.advance(60 * SECOND);
    await runJob(job);
    expect(receiver.requests).toHaveLength(1);

    await patchEndpoint(t, ws, endpoint.id, { enabled: true });
    clock.advance(SECOND);
    await runJob(job);
    expect(receiver.accepted().map((e) => e.data.id)).toEqual([before.id]);
    // Events emitted while it was disabled were never queued for it (not subscribed then).
    await deliverNow();
    expect(eventsFor(during.id)).toEqual([]);
  });

  it('deliveries are listed with status and attempts; resend sends the same event again, freshly signed', async () => {
    const { endpoint, clock, job, deliverNow } = await setup();
    const booking = await manualBooking();
    await deliverNow();
    const [delivery] = await deliveriesOf(t, ws, endpoint.id);
    expect(delivery).toMatchObject({ status: 'SUCCEEDED', attempts: 1 });

    const resent = await t.request(
      'POST',
      endpointsPath(ws, endpoint.id, `/deliveries/${delivery.id}/resend`),
      {
        token: ws.token,
      },
    );
    expect(resent.status, JSON.stringify(resent.body)).toBe(200);
    expect(resent.body.data).toMatchObject({
      id: delivery.id,
      eventId: delivery.eventId,
      status: 'PENDING',
      attempts: 1,
      nextAttemptAt: expect.stringMatching(ISO_MS),
      // Queued again, so not delivered: the first attempt's deliveredAt is cleared.
      deliveredAt: null,
    });
    clock.advance(2 * SECOND);
    await runJob(job);

    const [first, second] = receiver.requests;
    expect(receiver.requests).toHaveLength(2);
    if (!first || !second) return;
    expect(second.verified).toBe(true);
    expect(second.eventId).toBe(first.eventId);
    expect(second.rawBody.equals(first.rawBody)).toBe(true);
    expect(second.t).toBe((first.t ?? 0) + 2);
    expect(second.v1).not.toEqual(first.v1);
    expect(eventsFor(booking.id)).toHaveLength(2);
    expect(await deliveryOf(t, ws, endpoint.id, delivery.eventId)).toMatchObject({
      status: 'SUCCEEDED',
      attempts: 2,
      deliveredAt: expect.stringMatching(ISO_MS),
    });

    const unknown = await t.request(
      'POST',
      endpointsPath(ws, endpoint.id, `/deliveries/whd_${'0'.repeat(22)}/resend`),
      { token: ws.token },
    );
    expectError(unknown, 404, 'NOT_FOUND');
  });
});

describe('faults', () => {
  it('receiver down, then back: after retries every event arrives, none lost, in order per booking', async () => {
    const { endpoint, clock, job } = await setup();
    await receiver.stop();
    const first = await manualBooking();
    await confirm(first.id);
    const second = await manualBooking();
    expect((await setStatus(t, ws, second.id, 'CANCELLED')).status).toBe(200);
    const third = await manualBooking();
    const bookings = [first, second, third];

    clock.catchUp();
    for (let turn = 0; turn < 3; turn++) {
      await runJob(job);
      clock.advance(SECOND);
    }
    const down = await deliveriesOf(t, ws, endpoint.id);
    expect(down).toHaveLength(5);
    expect(down.every((d) => d.status === 'PENDING')).toBe(true);
    // The first event of each booking was tried and refused; the later ones waited their turn.
    const tried = down.filter((d) => d.attempts > 0);
    expect(tried).toHaveLength(3);
    expect(tried.every((d) => d.eventType === 'booking.created' && d.lastError === 'ECONNREFUSED')).toBe(
      true,
    );
    expect(tried.every((d) => d.attempts === 3)).toBe(true);

    await receiver.start();
    for (let turn = 0; turn < 5; turn++) {
      clock.advance(SECOND);
      await runJob(job);
    }
    for (const booking of bookings) {
      const outbox = await eventsOf(t, booking.id);
      expect(eventsFor(booking.id).map((e) => e.id)).toEqual(outbox.map((e) => e.id));
    }
    expect(receiver.requests).toHaveLength(5);
    expect((await deliveriesOf(t, ws, endpoint.id)).every((d) => d.status === 'SUCCEEDED')).toBe(true);
  });

  it('500: retried with exponential backoff; the event id stays, t and the signature are fresh each attempt', async () => {
    const { endpoint, clock, job } = await setup();
    receiver.behave(answer.status(500, { 'Content-Type': 'text/plain' }, 'upstream broke'));
    await manualBooking();
    clock.catchUp();
    const delays: number[] = [];
    for (let attempt = 1; attempt <= 4; attempt++) {
      const at = clock.now().getTime();
      await runJob(job);
      const [delivery] = await deliveriesOf(t, ws, endpoint.id);
      expect(delivery).toMatchObject({
        status: 'PENDING',
        attempts: attempt,
        lastStatusCode: 500,
        lastError: 'upstream broke',
        deliveredAt: null,
      });
      delays.push(Date.parse(delivery.nextAttemptAt) - at);
      clock.advance(SECOND);
    }
    // baseDelayMs 50 doubling, capped at 200, each jittered between 0.5x and 1.5x.
    const steps = [50, 100, 200, 200];
    delays.forEach((delay, i) => {
      expect(delay).toBeGreaterThanOrEqual(0.5 * (steps[i] ?? 0));
      expect(delay).toBeLessThanOrEqual(1.5 * (steps[i] ?? 0));
    });

    expect(receiver.requests).toHaveLength(4);
    const ids = new Set(receiver.requests.map((r) => r.eventId));
    expect(ids.size).toBe(1);
    const ts = receiver.requests.map((r) => r.t ?? 0);
    expect(ts).toEqual([...ts].sort((x, y) => x - y));
    expect(new Set(ts).size).toBe(4);
    expect(new Set(receiver.requests.map((r) => r.v1[0])).size).toBe(4);
    expect(new Set(receiver.requests.map((r) => r.rawBody.toString())).size).toBe(1);

    receiver.behave(answer.ok);
    await runJob(job);
    const [done] = await deliveriesOf(t, ws, endpoint.id);
    expect(done).toMatchObject({ status: 'SUCCEEDED', attempts: 5, lastStatusCode: 204, lastError: null });
  });

  it('410: the delivery fails at once and the endpoint is disabled with reason gone', async () => {
    const { endpoint, clock, job, deliverNow } = await setup();
    receiver.behave(answer.status(410));
    const booking = await manualBooking();
    await confirm(booking.id);
    await deliverNow();
    const deliveries = await deliveriesOf(t, ws, endpoint.id);
    const created = deliveries.find((d) => d.eventType === 'booking.created');
    expect(created).toMatchObject({
      status: 'FAILED',
      attempts: 1,
      lastStatusCode: 410,
      nextAttemptAt: null,
    });
    expect(await getEndpoint(t, ws, endpoint.id)).toMatchObject({ enabled: false, disabledReason: 'gone' });
    expect(receiver.requests).toHaveLength(1);

    clock.advance(60 * SECOND);
    await runJob(job);
    expect(receiver.requests).toHaveLength(1);
    // Enabling it again clears the reason.
    expect(await patchEndpoint(t, ws, endpoint.id, { enabled: true })).toMatchObject({
      enabled: true,
      disabledReason: null,
    });
  });

  it.each([429, 503])(
    '%i with Retry-After: 1: the next attempt is due one second later, not before',
    async (status) => {
      const { endpoint, clock, job, deliverNow } = await setup();
      receiver.behave(answer.status(status, { 'Retry-After': '1' }));
      await manualBooking();
      await deliverNow();
      const attemptedAt = clock.now().getTime();
      const [waiting] = await deliveriesOf(t, ws, endpoint.id);
      expect(waiting).toMatchObject({ status: 'PENDING', attempts: 1, lastStatusCode: status });
      expect(Date.parse(waiting.nextAttemptAt) - attemptedAt).toBe(SECOND);

      receiver.behave(answer.ok);
      clock.advance(SECOND - 1);
      await runJob(job);
      expect(receiver.requests).toHaveLength(1);
      clock.advance(1);
      await runJob(job);
      expect(receiver.requests).toHaveLength(2);
      expect(await deliveryOf(t, ws, endpoint.id, waiting.eventId)).toMatchObject({
        status: 'SUCCEEDED',
        attempts: 2,
      });
    },
  );

  it('a 302 redirect is not followed and counts as a failure', async () => {
    const { endpoint, deliverNow } = await setup();
    receiver.behave(answer.status(302, { Location: `${receiver.url}/elsewhere` }));
    await manualBooking();
    await deliverNow();
    expect(receiver.requests.map((r) => r.path)).toEqual(['/hooks']);
    const [delivery] = await deliveriesOf(t, ws, endpoint.id);
    expect(delivery).toMatchObject({
      status: 'PENDING',
      attempts: 1,
      lastStatusCode: 302,
      deliveredAt: null,
    });
  });

  it('a receiver that never answers: the attempt times out, is recorded and retried', async () => {
    const { endpoint, clock, job, deliverNow } = await setup({ job: { timeoutMs: 200 } });
    receiver.behave(answer.hang);
    await manualBooking();
    const started = Date.now();
    await deliverNow();
    expect(Date.now() - started).toBeLessThan(5 * SECOND);
    const [timedOut] = await deliveriesOf(t, ws, endpoint.id);
    expect(timedOut).toMatchObject({
      status: 'PENDING',
      attempts: 1,
      lastStatusCode: null,
      lastError: 'timeout',
    });

    receiver.behave(answer.ok);
    clock.advance(SECOND);
    await runJob(job);
    expect(receiver.requests).toHaveLength(2);
    expect(await deliveryOf(t, ws, endpoint.id, timedOut.eventId)).toMatchObject({
      status: 'SUCCEEDED',
      attempts: 2,
    });
  });

  it('once the retry window has passed, a failing delivery is FAILED and not tried again', async () => {
    const { endpoint, clock, job, deliverNow } = await setup({ job: { windowMs: 10 * SECOND } });
    receiver.behave(answer.status(500));
    await manualBooking();
    await deliverNow();
    const [first] = await deliveriesOf(t, ws, endpoint.id);
    expect(first).toMatchObject({ status: 'PENDING', attempts: 1 });

    clock.advance(10 * SECOND);
    await runJob(job);
    const [given] = await deliveriesOf(t, ws, endpoint.id);
    expect(given).toMatchObject({ status: 'FAILED', attempts: 2, nextAttemptAt: null, lastStatusCode: 500 });
    // Giving up on one delivery does not disable the endpoint.
    expect(await getEndpoint(t, ws, endpoint.id)).toMatchObject({ enabled: true, disabledReason: null });

    receiver.behave(answer.ok);
    clock.advance(60 * SECOND);
    await runJob(job);
    expect(receiver.requests).toHaveLength(2);
  });

  it('a receiver verifying with another secret answers 401: the delivery is retried, not succeeded', async () => {
    const { endpoint, clock, job, deliverNow } = await setup();
    receiver.secret = 'whsec_someoneelsessecret';
    await manualBooking();
    await deliverNow();
    const [refused] = await deliveriesOf(t, ws, endpoint.id);
    expect(receiver.requests.map((r) => [r.verified, r.status])).toEqual([[false, 401]]);
    expect(refused).toMatchObject({ status: 'PENDING', attempts: 1, lastStatusCode: 401, deliveredAt: null });

    receiver.secret = endpoint.secret;
    clock.advance(SECOND);
    await runJob(job);
    expect(await deliveryOf(t, ws, endpoint.id, refused.eventId)).toMatchObject({
      status: 'SUCCEEDED',
      attempts: 2,
    });
  });

  it("order per booking: while A's first event fails, A's later events wait and B's are delivered", async () => {
    const { endpoint, clock, job, deliverNow } = await setup();
    const a = await manualBooking();
    await confirm(a.id);
    const b = await manualBooking();
    await confirm(b.id);
    receiver.behave((request) => (request.event.data.id === a.id ? { status: 500 } : { status: 204 }));
    await deliverNow();

    expect(eventsFor(b.id).map((e) => e.type)).toEqual(['booking.created', 'booking.confirmed']);
    expect(eventsFor(a.id)).toEqual([]);
    const tried = receiver.requests.filter((r) => r.event.data.id === a.id);
    expect(tried.map((r) => r.event.type)).toEqual(['booking.created']);
    const [aCreated, aConfirmed] = (await eventsOf(t, a.id)).map((e) => e.id);
    expect(await deliveryOf(t, ws, endpoint.id, aConfirmed)).toMatchObject({
      status: 'PENDING',
      attempts: 0,
    });
    expect(await deliveryOf(t, ws, endpoint.id, aCreated)).toMatchObject({ status: 'PENDING', attempts: 1 });

    receiver.behave(answer.ok);
    clock.advance(SECOND);
    await runJob(job);
    expect(eventsFor(a.id).map((e) => e.id)).toEqual([aCreated, aConfirmed]);
  });

  it('a change that is rolled back (a create answered 409) is never delivered', async () => {
    const { endpoint, deliverNow } = await setup();
    const small = await createDeparture(t, ws, tourId, { capacity: 2 });
    const booked = await book(t, ws, small.id, { participants: participants(2) });
    const eventsBefore = await t.api.database.knex('outbox_events').where({ workspace_id: ws.workspaceId });
    const refused = await t.request('POST', bookingsPath(ws), {
      token: ws.token,
      body: bookingInput(small.id, { notes: 'never happened' }),
    });
    expectError(refused, 409, 'CONFLICT');
    const eventsAfter = await t.api.database.knex('outbox_events').where({ workspace_id: ws.workspaceId });
    expect(eventsAfter).toHaveLength(eventsBefore.length);

    await deliverNow();
    expect(receiver.accepted().map((e) => [e.type, e.data.id])).toEqual([['booking.created', booked.id]]);
    expect(JSON.stringify(receiver.requests.map((r) => r.event))).not.toContain('never happened');
    expect(await deliveriesOf(t, ws, endpoint.id)).toHaveLength(1);
  });
});

describe('several workers', () => {
  it('two delivery jobs running at once deliver each event exactly once', async () => {
    const { endpoint, clock } = await setup();
    const bookings = [];
    for (let i = 0; i < 6; i++) {
      const booking = await manualBooking();
      await confirm(booking.id);
      bookings.push(booking);
    }
    const one = deliveryJob(t, clock);
    const two = deliveryJob(t, clock);
    clock.catchUp();
    await Promise.all([runJob(one), runJob(two), runJob(one), runJob(two)]);
    await runJob(two);

    const counts = new Map<string, number>();
    for (const request of receiver.requests) {
      counts.set(request.eventId ?? '', (counts.get(request.eventId ?? '') ?? 0) + 1);
    }
    const expected = (await Promise.all(bookings.map((b) => eventsOf(t, b.id)))).flat().map((e) => e.id);
    expect(expected).toHaveLength(12);
    expect([...counts.keys()].sort()).toEqual([...expected].sort());
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    for (const booking of bookings) {
      expect(eventsFor(booking.id).map((e) => e.type)).toEqual(['booking.created', 'booking.confirmed']);
    }
    const deliveries = await deliveriesOf(t, ws, endpoint.id);
    expect(deliveries.map((d) => [d.status, d.attempts])).toEqual(Array(12).fill(['SUCCEEDED', 1]));
  });

  it('a worker killed mid-delivery (its lease never renewed): once the lease has passed another worker delivers, nothing lost', async () => {
    const { endpoint, clock } = await setup();
    const booking = await manualBooking();
    const leaseMs = 10 * SECOND;
    clock.catchUp();
    // What a SIGKILLed worker leaves behind: a claim whose lease nobody renews and no attempt recorded.
    const dead = createStores(t.api.database.knex).webhookDeliveries;
    await dead.fanOut(500);
    expect(await dead.claimDue(clock.now(), 10, leaseMs)).toHaveLength(1);

    const survivor = deliveryJob(t, clock, { leaseMs });
    await runJob(survivor);
    expect(receiver.requests).toHaveLength(0);
    const [held] = await deliveriesOf(t, ws, endpoint.id);
    expect(held).toMatchObject({ status: 'PENDING', attempts: 0 });

    clock.advance(leaseMs + 1);
    await runJob(survivor);
    expect(eventsFor(booking.id).map((e) => e.type)).toEqual(['booking.created']);
    expect(await deliveryOf(t, ws, endpoint.id, held.eventId)).toMatchObject({
      status: 'SUCCEEDED',
      attempts: 1,
    });
  });

  it('a slow delivery renews its lease while it is sent: another worker does not take it, one attempt is recorded', async () => {
    const { endpoint, clock } = await setup();
    await manualBooking();
    const leaseMs = 300; // renewed every 100 ms of real time
    let started!: () => void;
    const sending = new Promise<void>((resolve) => {
      started = resolve;
    });
    let finish!: () => void;
    const answered = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const slow: WebhookSender = async () => {
      started();
      await answered;
      return { statusCode: 204, retryAfter: null, body: '' };
    };
    clock.catchUp();
    const firstEnd = clock.now().getTime() + leaseMs;
    const first = runJob(deliveryJob(t, clock, { send: slow, leaseMs }));
    await sending;

    // Past the lease's first end: only the renewal keeps the delivery from the second worker.
    clock.advance(leaseMs + 1);
    const lockedUntil = async () =>
      (await t.api.database.knex('webhook_deliveries').where({ endpoint_id: endpoint.id }).first())
        .locked_until;
    await vi.waitFor(async () => expect(new Date(await lockedUntil()).getTime()).toBeGreaterThan(firstEnd), {
      timeout: 5_000,
    });
    await runJob(deliveryJob(t, clock, { leaseMs }));
    expect(receiver.requests).toHaveLength(0);

    finish();
    await first;
    const [delivery] = await deliveriesOf(t, ws, endpoint.id);
    expect(delivery).toMatchObject({ status: 'SUCCEEDED', attempts: 1 });
    expect(await lockedUntil()).toBeNull();
  });
});

describe("receivers' answers", () => {
  it('a 1 MB answer is cut: the sender reads at most 4096 bytes, the delivery log keeps a few hundred', async () => {
    const { endpoint, deliverNow } = await setup();
    receiver.behave(answer.status(500, { 'Content-Type': 'text/plain' }, 'x'.repeat(1024 * 1024)));

    const body = JSON.stringify({ id: 'evt_probe' });
    const send = createWebhookSender({ allowPrivateAddresses: true, timeoutMs: 2 * SECOND });
    const response = await send({
      url: receiver.url,
      headers: {
        'Content-Type': 'application/json',
        'service-signature': sign(endpoint.secret, body, new Date()),
      },
      body,
    });
    expect(response.statusCode).toBe(500);
    expect(Buffer.byteLength(response.body ?? '')).toBeGreaterThan(0);
    expect(Buffer.byteLength(response.body ?? '')).toBeLessThanOrEqual(4096);

    await manualBooking();
    await deliverNow();
    const [delivery] = await deliveriesOf(t, ws, endpoint.id);
    expect(delivery).toMatchObject({ status: 'PENDING', lastStatusCode: 500 });
    expect(delivery.lastError.length).toBeGreaterThan(0);
    expect(delivery.lastError.length).toBeLessThanOrEqual(500);
  });
});

describe('logs', () => {
  it('never contain an endpoint secret', () => {
    expect(secrets.size).toBeGreaterThanOrEqual(10);
    const text = t.logs.join('\n');
    expect(text).toContain('webhook delivery attempt');
    for (const secret of secrets) expect(text).not.toContain(secret);
    expect(text).not.toContain('whsec_');
  });
});
