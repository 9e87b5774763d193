import { randomUUID } from 'node:crypto';
import { createUnitOfWork } from '@travelops/db';
import { purgeIdempotencyKeys } from '@travelops/domain/idempotency';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bookingInput,
  bookingsPath,
  countRows,
  participants,
  seatsOf,
  setStatus,
} from '../support/booking-fixtures.js';
import {
  createDeparture,
  createTour,
  customerInput,
  detail,
  expectError,
  fromNow,
  type TestWorkspace,
  tourInput,
} from '../support/fixtures.js';
import { startTestApi, type TestApi, type TestResponse } from '../support/harness.js';

let t: TestApi;
let ws: TestWorkspace;
let other: TestWorkspace;
let tour: any;
let departure: any;
let otherDeparture: any;
beforeAll(async () => {
  // Guests are told apart by address: X-Forwarded-For from the test's loopback proxy.
  t = await startTestApi({ TRUST_PROXY: 'loopback' });
  ws = await t.createWorkspace('ADMIN');
  other = await t.createWorkspace('ADMIN');
  tour = await createTour(t, ws, { name: 'Island Hop', isPublic: true, capacity: 200 });
  departure = await createDeparture(t, ws, tour.id, { capacity: 200 });
  const otherTour = await createTour(t, other, { name: 'Other Hop', isPublic: true, capacity: 200 });
  otherDeparture = await createDeparture(t, other, otherTour.id, { capacity: 200 });
});
afterAll(() => t.close());

interface Operation {
  name: string;
  /** Path, body and the rows that count it, in workspace `w`. */
  path(w: TestWorkspace): string;
  body(w: TestWorkspace): Record<string, unknown>;
  /** How many records of this kind exist in workspace `w`. */
  count(w: TestWorkspace): Promise<number>;
  /** Outbox events the operation writes in `w` (bookings only). */
  events(w: TestWorkspace): Promise<number>;
  auth: boolean;
}

const inWorkspace = (table: string) => (w: TestWorkspace) =>
  countRows(t, table, { workspace_id: w.workspaceId });
const noEvents = async () => 0;
const bookingEvents = (w: TestWorkspace) =>
  countRows(t, 'outbox_events', { workspace_id: w.workspaceId, type: 'booking.created' });
const departureOf = (w: TestWorkspace) => (w === other ? otherDeparture : departure);

const OPERATIONS: Operation[] = [
  {
    name: 'createBooking',
    path: (w) => bookingsPath(w),
    body: (w) => bookingInput(departureOf(w).id, { participants: participants(2), notes: 'idempotent' }),
    count: inWorkspace('bookings'),
    events: bookingEvents,
    auth: true,
  },
  {
    name: 'createCustomer',
    path: (w) => `/workspaces/${w.workspaceId}/customers`,
    body: () => customerInput({ tags: ['vip'], marketingConsent: true }),
    count: inWorkspace('customers'),
    events: noEvents,
    auth: true,
  },
  {
    name: 'createTour',
    path: (w) => `/workspaces/${w.workspaceId}/tours`,
    body: () => tourInput({ name: `Tour ${randomUUID()}`, description: 'a day out' }),
    count: inWorkspace('tours'),
    events: noEvents,
    auth: true,
  },
  {
    name: 'createAvailability',
    path: (w) => `/workspaces/${w.workspaceId}/availability`,
    body: (w) => ({ tourId: departureOf(w).tourId, startsAt: fromNow(60), capacity: 9 }),
    count: inWorkspace('availability'),
    events: noEvents,
    auth: true,
  },
  {
    name: 'createPublicBooking',
    path: (w) => `/public/${w.slug}/bookings`,
    body: (w) => bookingInput(departureOf(w).id, { participants: participants(2) }),
    count: inWorkspace('bookings'),
    events: bookingEvents,
    auth: false,
  },
];

function send(op: Operation, w: TestWorkspace, key: string | undefined, body: unknown) {
  return t.request('POST', op.path(w), {
    ...(op.auth && { token: w.token }),
    body,
    ...(key !== undefined && { headers: { 'Idempotency-Key': key } }),
  });
}

/** The body of a 201 without what changes on every read of the same record. */
const created = (res: TestResponse) => {
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
};

/** Reverses the key order of every object, deeply: the same JSON value written differently. */
function reorder(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reorder);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .reverse()
        .map(([k, v]) => [k, reorder(v)]),
    );
  }
  return value;
}

describe.each(OPERATIONS.map((op) => [op.name, op] as const))('%s', (_name, op) => {
  it('a replay answers the original status and body with Idempotent-Replayed: true and creates nothing', async () => {
    const key = randomUUID();
    const body = op.body(ws);
    const first = await send(op, ws, key, body);
    const original = created(first);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const records = await op.count(ws);
    const events = await op.events(ws);

    for (let i = 0; i < 2; i++) {
      const replay = await send(op, ws, key, body);
      expect(replay.status).toBe(201);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.body).toEqual(original);
    }
    expect(await op.count(ws)).toBe(records);
    expect(await op.events(ws)).toBe(events);
  });

  it('the same key with another body is 422 idempotency_key_reused and creates nothing', async () => {
    const key = randomUUID();
    created(await send(op, ws, key, op.body(ws)));
    const records = await op.count(ws);
    const res = await send(op, ws, key, op.body(ws));
    expectError(res, 422, 'UNPROCESSABLE', [detail('Idempotency-Key', 'idempotency_key_reused')]);
    expect(res.headers.get('idempotent-replayed')).toBeNull();
    expect(await op.count(ws)).toBe(records);
  });

  it('the same body with its JSON keys in another order is the same request: a replay', async () => {
    const key = randomUUID();
    const body = op.body(ws);
    const original = created(await send(op, ws, key, body));
    const records = await op.count(ws);
    const replay = await send(op, ws, key, reorder(body));
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(original);
    expect(await op.count(ws)).toBe(records);
  });

  it('a key that is not a UUID is 400 on field Idempotency-Key and creates nothing', async () => {
    const records = await op.count(ws);
    for (const key of ['abc', '12345', `${randomUUID()}x`, 'x'.repeat(300)]) {
      expectError(await send(op, ws, key, op.body(ws)), 400, 'VALIDATION_ERROR', [
        detail('Idempotency-Key', 'invalid_uuid'),
      ]);
    }
    expect(await op.count(ws)).toBe(records);
  });

  it('the same key in another workspace is independent', async () => {
    const key = randomUUID();
    const mine = created(await send(op, ws, key, op.body(ws)));
    const theirs = await send(op, other, key, op.body(other));
    const body = created(theirs);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(body.data.id).not.toBe(mine.data.id);
  });

  it('without a key every request creates', async () => {
    const body = op.body(ws);
    const records = await op.count(ws);
    const a = created(await send(op, ws, undefined, body));
    // Tours and customers are unique by slug and e-mail; everything else may repeat.
    if (op.name === 'createTour' || op.name === 'createCustomer') {
      expect(await op.count(ws)).toBe(records + 1);
      return;
    }
    const b = created(await send(op, ws, undefined, body));
    expect(b.data.id).not.toBe(a.data.id);
    expect(await op.count(ws)).toBe(records + 2);
  });
});

describe('createBooking and its Idempotency-Key', () => {
  const post = (key: string, body: unknown) =>
    t.request('POST', bookingsPath(ws), { token: ws.token, body, headers: { 'Idempotency-Key': key } });
  const bookingsWith = (notes: string) => t.api.database.knex('bookings').where({ notes });
  const createdEvents = async (notes: string) => {
    const ids = (await bookingsWith(notes)).map((b) => b.id);
    return ids.length
      ? Number(
          (
            await t.api.database
              .knex('outbox_events')
              .whereIn('aggregate_id', ids)
              .where({ type: 'booking.created' })
              .count('* as n')
          )[0]?.n,
        )
      : 0;
  };

  it('ten concurrent requests with one key: one creates, the others 409 in use or replay it', async () => {
    const key = randomUUID();
    const notes = `concurrent ${key}`;
    const body = bookingInput(departure.id, { notes });
    const answers = await Promise.all(Array.from({ length: 10 }, () => post(key, body)));

    const fresh = answers.filter((r) => r.status === 201 && r.headers.get('idempotent-replayed') === null);
    const replayed = answers.filter(
      (r) => r.status === 201 && r.headers.get('idempotent-replayed') === 'true',
    );
    const inUse = answers.filter((r) => r.status === 409);
    expect(fresh).toHaveLength(1);
    expect(fresh.length + replayed.length + inUse.length).toBe(10);
    const [winner] = fresh;
    for (const res of replayed) expect(res.body).toEqual(winner?.body);
    for (const res of inUse) {
      expectError(res, 409, 'CONFLICT', [detail('Idempotency-Key', 'idempotency_key_in_use')]);
    }
    expect(await bookingsWith(notes)).toHaveLength(1);
    expect(await createdEvents(notes)).toBe(1);

    // Afterwards the key is settled: a replay.
    const later = await post(key, body);
    expect(later.headers.get('idempotent-replayed')).toBe('true');
    expect(later.body).toEqual(winner?.body);
  });

  it('a failed request (409 sold out) leaves no record; the same key succeeds once seats free up', async () => {
    const small = await createDeparture(t, ws, tour.id, { capacity: 2 });
    const blocker = await t.request('POST', bookingsPath(ws), {
      token: ws.token,
      body: bookingInput(small.id, { participants: participants(2) }),
    });
    expect(blocker.status).toBe(201);

    const key = randomUUID();
    const notes = `retry ${key}`;
    const body = bookingInput(small.id, { participants: participants(2), notes });
    expectError(await post(key, body), 409, 'CONFLICT', [detail('participants', 'insufficient_seats')]);
    expect(await countRows(t, 'idempotency_keys', { key })).toBe(0);
    // Still no record: the failure is answered afresh, not replayed.
    const again = await post(key, body);
    expectError(again, 409, 'CONFLICT');
    expect(again.headers.get('idempotent-replayed')).toBeNull();

    expect((await setStatus(t, ws, blocker.body.data.id, 'CANCELLED')).status).toBe(200);
    const res = await post(key, body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.headers.get('idempotent-replayed')).toBeNull();
    expect(await bookingsWith(notes)).toHaveLength(1);
    expect(await seatsOf(t, ws, small)).toEqual({ bookedSeats: 2, seatsRemaining: 0 });
    expect((await post(key, body)).headers.get('idempotent-replayed')).toBe('true');
  });

  it('a request refused as invalid (400) or unprocessable (422) leaves no record either', async () => {
    const key = randomUUID();
    const cancelled = await createDeparture(t, ws, tour.id, { capacity: 2 });
    await t.request('PATCH', `/workspaces/${ws.workspaceId}/availability/${cancelled.id}`, {
      token: ws.token,
      body: { status: 'CANCELLED' },
    });
    expectError(await post(key, bookingInput(cancelled.id)), 422, 'UNPROCESSABLE');
    expectError(await post(key, { participants: [] }), 400, 'VALIDATION_ERROR');
    expect(await countRows(t, 'idempotency_keys', { key })).toBe(0);
    // The key is free: a different, valid body creates.
    expect((await post(key, bookingInput(departure.id))).status).toBe(201);
  });

  it('the client lost the response after the commit and retries: the original 201, one booking, one event', async () => {
    const key = randomUUID();
    const notes = `lost ${key}`;
    const body = bookingInput(departure.id, { notes, participants: participants(3) });
    const seats = await seatsOf(t, ws, departure);
    // The first answer never reaches the client; only the database knows it happened.
    void (await post(key, body));
    const retried = await post(key, body);
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    const [row] = await bookingsWith(notes);
    expect(retried.body.data.id).toBe(row.id);
    expect(retried.body.data.checkoutUrl).toMatch(/\/sandbox\/pay\//);
    expect(await bookingsWith(notes)).toHaveLength(1);
    expect(await createdEvents(notes)).toBe(1);
    expect(await seatsOf(t, ws, departure)).toEqual({
      bookedSeats: seats.bookedSeats + 3,
      seatsRemaining: seats.seatsRemaining - 3,
    });
  });

  it('a replay keeps the headers of the original answer (ETag)', async () => {
    const key = randomUUID();
    const body = bookingInput(departure.id);
    const first = await post(key, body);
    const replay = await post(key, body);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.headers.get('etag')).toBe(first.headers.get('etag'));
  });

  it('the key is scoped to the path: the same key on another operation is independent', async () => {
    const key = randomUUID();
    expect((await post(key, bookingInput(departure.id))).status).toBe(201);
    const customer = await t.request('POST', `/workspaces/${ws.workspaceId}/customers`, {
      token: ws.token,
      body: customerInput(),
      headers: { 'Idempotency-Key': key },
    });
    expect(customer.status).toBe(201);
    expect(customer.headers.get('idempotent-replayed')).toBeNull();
  });

  it('a record older than 24 h is not replayed, and the purge job deletes old records', async () => {
    const key = randomUUID();
    const notes = `aged ${key}`;
    const body = bookingInput(departure.id, { notes });
    const first = await post(key, body);
    expect(first.status).toBe(201);
    const age = () =>
      t.api.database.knex.raw(
        "update idempotency_keys set created_at = now() - interval '25 hours' where key = ?",
        [key],
      );
    await age();

    const late = await post(key, body);
    expect(late.status).toBe(201);
    expect(late.headers.get('idempotent-replayed')).toBeNull();
    expect(late.body.data.id).not.toBe(first.body.data.id);
    expect(await bookingsWith(notes)).toHaveLength(2);
    // The new answer is the one replayed from now on.
    const replay = await post(key, body);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(late.body);

    await age();
    const fresh = randomUUID();
    expect((await post(fresh, bookingInput(departure.id))).status).toBe(201);
    const purged = await purgeIdempotencyKeys({
      uow: createUnitOfWork(t.api.database.knex),
      clock: { now: () => new Date() },
    });
    expect(purged).toBeGreaterThanOrEqual(1);
    expect(await countRows(t, 'idempotency_keys', { key })).toBe(0);
    expect(await countRows(t, 'idempotency_keys', { key: fresh })).toBe(1);
  });
});

describe('createPublicBooking and its Idempotency-Key', () => {
  it('a replay keeps the guest headers: no-store, no-referrer', async () => {
    const key = randomUUID();
    const body = bookingInput(departure.id);
    const send = () =>
      t.request('POST', `/public/${ws.slug}/bookings`, { body, headers: { 'Idempotency-Key': key } });
    expect((await send()).status).toBe(201);
    const replay = await send();
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.headers.get('cache-control')).toBe('no-store');
    expect(replay.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('the key is scoped to the workspace slug', async () => {
    const key = randomUUID();
    const mine = await t.request('POST', `/public/${ws.slug}/bookings`, {
      body: bookingInput(departure.id),
      headers: { 'Idempotency-Key': key },
    });
    const theirs = await t.request('POST', `/public/${other.slug}/bookings`, {
      body: bookingInput(otherDeparture.id),
      headers: { 'Idempotency-Key': key },
    });
    expect(mine.status).toBe(201);
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
  });

  it("the key is scoped to the client address: another address's replay is a new booking, never the first guest's", async () => {
    const key = randomUUID();
    const body = bookingInput(departure.id);
    const from = (ip: string) =>
      t.request('POST', `/public/${ws.slug}/bookings`, {
        body,
        headers: { 'Idempotency-Key': key, 'X-Forwarded-For': ip },
      });
    const first = await from('198.51.100.10');
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const stranger = await from('203.0.113.20');
    expect(stranger.status, JSON.stringify(stranger.body)).toBe(201);
    expect(stranger.headers.get('idempotent-replayed')).toBeNull();
    expect(stranger.body.data.id).not.toBe(first.body.data.id);
    expect(stranger.body.data.publicToken).not.toBe(first.body.data.publicToken);
    // The first address still gets its own answer again.
    const replay = await from('198.51.100.10');
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.data.id).toBe(first.body.data.id);
    // The scope keeps a keyed hash of the address, never the address.
    const scopes = await t.api.database.knex('idempotency_keys').where({ key }).pluck('scope');
    expect(scopes).toHaveLength(2);
    expect(scopes.join(' ')).not.toMatch(/198\.51|203\.0/);
  });
});
