import { createUnitOfWork } from '@travelops/db';
import { createBooking, NATIVE_CHANNEL } from '@travelops/domain/bookings';
import { updateDeparture } from '@travelops/domain/operations';
import { createSandboxPaymentProvider } from '@travelops/http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expireHold } from '../support/booking-fixtures.js';
import { createDeparture, createTour, customerInput, type TestWorkspace } from '../support/fixtures.js';
import { startTestApi, type TestApi, type TestResponse } from '../support/harness.js';

// createBooking reads its departure without a lock and takes the seats with its last write, a
// conditional update at the version it validated. These tests hold a change of the departure
// open in a transaction of their own while a booking runs into it, then let it commit.

let t: TestApi;
let ws: TestWorkspace;
beforeAll(async () => {
  t = await startTestApi();
  ws = await t.createWorkspace('ADMIN');
});
afterAll(() => t.close());

/** The handle a change runs on: the test's open transaction (apps/api does not depend on knex itself). */
type Trx = Parameters<typeof createUnitOfWork>[0];

const clock = { now: () => new Date() };
const knex = () => t.api.database.knex;
const path = () => `/workspaces/${ws.workspaceId}/bookings`;
const adultTour = () =>
  createTour(t, ws, { capacity: 4, ticketTypes: [{ name: 'Adult', ageBand: 'ADULT', price: 2000 }] });

/** Until a session of the test database waits for a lock: the booking has run into the change. */
async function untilBlocked(): Promise<void> {
  for (;;) {
    const { rows } = await knex().raw(
      `select count(*)::int as waiting from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock'`,
    );
    if (rows[0].waiting > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * Runs `change` in a transaction of its own and keeps it open while `body` is booked, until
 * the booking waits for it; then commits it and returns the booking's answer.
 */
async function bookDuring(
  change: (trx: Trx) => Promise<unknown>,
  body: Record<string, unknown>,
): Promise<TestResponse> {
  const trx = await knex().transaction();
  try {
    await change(trx);
    const answer = t.request('POST', path(), { token: ws.token, body });
    await untilBlocked();
    await trx.commit();
    return await answer;
  } catch (error) {
    await trx.rollback();
    throw error;
  }
}

/** What a booking leaves behind: rows in the workspace for the customer's e-mail. */
async function tracesOf(email: string, availabilityId: string) {
  const customers = await knex()('customers').where({ workspace_id: ws.workspaceId, email }).pluck('id');
  const bookings = await knex()('bookings').whereIn('customer_id', customers).pluck('id');
  return {
    customers: customers.length,
    bookings: bookings.length,
    history: (await knex()('booking_history').whereIn('booking_id', bookings)).length,
    events: (await knex()('outbox_events').whereIn('aggregate_id', bookings)).length,
    bookedSeats: (await knex()('availability').where({ id: availabilityId }).first()).booked_seats as number,
  };
}

const edit = (trx: Trx, availabilityId: string, input: Record<string, unknown>) =>
  updateDeparture({ uow: createUnitOfWork(trx), clock }, ws.workspaceId, availabilityId, input).then(
    (result) => {
      if (!result.ok) throw new Error(result.error.message);
    },
  );

/** A booking made inside `trx` (MANUAL: one seat, no payment). */
/** A booking in `trx` that has taken its seats (`seats: 'now'`), its transaction still open. */
const bookInside = (trx: Trx, availabilityId: string) =>
  createBooking(
    { uow: createUnitOfWork(trx), clock, payments: createSandboxPaymentProvider('http://localhost') },
    { workspaceId: ws.workspaceId, actor: { type: 'system', id: null } },
    {
      availabilityId,
      customer: customerInput(),
      participants: [{ name: 'Inside' }],
      paymentMode: 'MANUAL',
    },
    { ...NATIVE_CHANNEL, seats: 'now' },
  ).then((result) => {
    if (!result.ok) throw new Error(result.error.message);
  });

describe('createBooking while its departure changes', () => {
  it('a price change commits while a booking runs: the booking runs again and sells at the new price', async () => {
    const tour = await adultTour();
    const departure = await createDeparture(t, ws, tour.id, { capacity: 4 });
    const adult = tour.ticketTypes[0].id;
    const customer = customerInput();
    const res = await bookDuring(
      (trx) => edit(trx, departure.id, { prices: [{ ticketTypeId: adult, price: 3100 }] }),
      {
        availabilityId: departure.id,
        customer,
        participants: [{ name: 'Ada' }],
      },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({
      totalAmount: 3100,
      participants: [{ ticketTypeId: adult, price: 3100 }],
    });
    // The first run's writes rolled back: one customer, one booking, one history entry, one event.
    expect(await tracesOf(customer.email, departure.id)).toEqual({
      customers: 1,
      bookings: 1,
      history: 1,
      events: 1,
      bookedSeats: 1,
    });
  });

  it('a cancellation commits while a booking runs: 422 not_bookable, and nothing of the booking stays', async () => {
    const tour = await adultTour();
    const departure = await createDeparture(t, ws, tour.id, { capacity: 4 });
    const customer = customerInput();
    const res = await bookDuring((trx) => edit(trx, departure.id, { status: 'CANCELLED' }), {
      availabilityId: departure.id,
      customer,
      participants: [{ name: 'Ada' }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body.error.details).toEqual([{ field: 'availabilityId', issue: 'not_bookable' }]);
    expect(await tracesOf(customer.email, departure.id)).toEqual({
      customers: 0,
      bookings: 0,
      history: 0,
      events: 0,
      bookedSeats: 0,
    });
  });

  it('the capacity cut below what a running booking needs: 409 insufficient_seats, never oversold', async () => {
    const tour = await adultTour();
    const departure = await createDeparture(t, ws, tour.id, { capacity: 4 });
    const first = await t.request('POST', path(), {
      token: ws.token,
      body: { availabilityId: departure.id, customer: customerInput(), participants: [{ name: 'First' }] },
    });
    expect(first.status).toBe(201);
    const customer = customerInput();
    const res = await bookDuring((trx) => edit(trx, departure.id, { capacity: 2 }), {
      availabilityId: departure.id,
      customer,
      participants: [{ name: 'Ada' }, { name: 'Alan' }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    expect(res.body.error.details).toEqual([{ field: 'participants', issue: 'insufficient_seats' }]);
    expect(await tracesOf(customer.email, departure.id)).toEqual({
      customers: 0,
      bookings: 0,
      history: 0,
      events: 0,
      bookedSeats: 1,
    });
    expect(await knex()('availability').where({ id: departure.id }).first('capacity')).toEqual({
      capacity: 2,
    });
  });

  it('the last seat sold while a booking runs: 409 insufficient_seats, its customer, booking and events roll back', async () => {
    const tour = await adultTour();
    const departure = await createDeparture(t, ws, tour.id, { capacity: 1 });
    const customer = customerInput();
    const res = await bookDuring((trx) => bookInside(trx, departure.id), {
      availabilityId: departure.id,
      customer,
      participants: [{ name: 'Ada' }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    expect(res.body.error.details).toEqual([{ field: 'participants', issue: 'insufficient_seats' }]);
    expect(await tracesOf(customer.email, departure.id)).toEqual({
      customers: 0,
      bookings: 0,
      history: 0,
      events: 0,
      bookedSeats: 1,
    });
  });

  it('the last seat sold while a booking runs, an expired hold on the departure: it is released and the booking succeeds', async () => {
    const tour = await adultTour();
    const departure = await createDeparture(t, ws, tour.id, { capacity: 2 });
    const stale = await t.request('POST', path(), {
      token: ws.token,
      body: { availabilityId: departure.id, customer: customerInput(), participants: [{ name: 'Stale' }] },
    });
    expect(stale.status).toBe(201);
    await expireHold(t, stale.body.data.id);
    const customer = customerInput();
    const res = await bookDuring((trx) => bookInside(trx, departure.id), {
      availabilityId: departure.id,
      customer,
      participants: [{ name: 'Ada' }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(
      await knex()('bookings').where({ id: stale.body.data.id }).first('status', 'cancellation_reason'),
    ).toEqual({
      status: 'CANCELLED',
      cancellation_reason: 'EXPIRED',
    });
    expect(await tracesOf(customer.email, departure.id)).toEqual({
      customers: 1,
      bookings: 1,
      history: 1,
      events: 1,
      bookedSeats: 2,
    });
  });
});

describe('createBooking racing edits of its departure', () => {
  const ledger = async (availabilityId: string) => {
    const departure = await knex()('availability').where({ id: availabilityId }).first();
    const held = await knex()('bookings')
      .where({ availability_id: availabilityId })
      .whereNot({ status: 'CANCELLED' })
      .sum({ seats: 'participant_count' });
    return {
      capacity: departure.capacity,
      bookedSeats: departure.booked_seats,
      heldSeats: Number(held[0]?.seats ?? 0),
    };
  };
  const race = async (availabilityId: string, change: () => Promise<TestResponse>) => {
    const send = () =>
      t.request('POST', path(), {
        token: ws.token,
        body: { availabilityId, customer: customerInput(), participants: [{ name: 'Racer' }] },
      });
    const before = Array.from({ length: 20 }, send);
    const changed = await change();
    const after = Array.from({ length: 20 }, send);
    return { changed, before: await Promise.all(before), after: await Promise.all(after) };
  };
  const unhandledErrors = () => t.logs.filter((line) => line.includes('unhandled error'));

  it('forty bookings race a price change: each sells at a price the departure had, those sent after it at the new one', async () => {
    const tour = await createTour(t, ws, {
      capacity: 100,
      ticketTypes: [{ name: 'Adult', ageBand: 'ADULT', price: 2000 }],
    });
    const departure = await createDeparture(t, ws, tour.id, { capacity: 100 });
    const adult = tour.ticketTypes[0].id;
    const { changed, before, after } = await race(departure.id, () =>
      t.request('PATCH', `/workspaces/${ws.workspaceId}/availability/${departure.id}`, {
        token: ws.token,
        body: { prices: [{ ticketTypeId: adult, price: 3100 }] },
      }),
    );
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    for (const res of before) {
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect([2000, 3100]).toContain(res.body.data.totalAmount);
    }
    for (const res of after) {
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.data.totalAmount).toBe(3100);
    }
    // Each booking's price is its seat's: the stored rows agree with the answers.
    const stored = await knex()('bookings')
      .where({ availability_id: departure.id })
      .select('total_amount', 'participants');
    for (const row of stored) expect(Number(row.total_amount)).toBe(row.participants[0].price);
    expect(await ledger(departure.id)).toEqual({ capacity: 100, bookedSeats: 40, heldSeats: 40 });
    expect(unhandledErrors()).toEqual([]);
  });

  it('forty bookings race a capacity cut to 12: never oversold, seats exact, the cut holds', async () => {
    const tour = await adultTour();
    const departure = await createDeparture(t, ws, tour.id, { capacity: 30 });
    const { changed, before, after } = await race(departure.id, () =>
      t.request('PATCH', `/workspaces/${ws.workspaceId}/availability/${departure.id}`, {
        token: ws.token,
        body: { capacity: 12 },
      }),
    );
    const answers = [...before, ...after];
    for (const res of answers) expect([201, 409], JSON.stringify(res.body)).toContain(res.status);
    const won = answers.filter((res) => res.status === 201).length;
    const state = await ledger(departure.id);
    expect(state).toEqual({ capacity: state.capacity, bookedSeats: won, heldSeats: won });
    expect(state.bookedSeats).toBeLessThanOrEqual(state.capacity);
    if (changed.status === 200) {
      // Cut: the departure holds at most 12, whenever its bookings landed.
      expect(state.capacity).toBe(12);
    } else {
      // Refused: more than 12 were already sold when it decided, and the departure keeps 30.
      expect(changed.status, JSON.stringify(changed.body)).toBe(422);
      expect(changed.body.error.details).toEqual([{ field: 'capacity', issue: 'below_booked_seats' }]);
      expect(state.capacity).toBe(30);
    }
    expect(unhandledErrors()).toEqual([]);
  });

  it('forty bookings race a cancellation: those sent after it are 422, seats exact', async () => {
    const tour = await adultTour();
    const departure = await createDeparture(t, ws, tour.id, { capacity: 60 });
    const { changed, before, after } = await race(departure.id, () =>
      t.request('PATCH', `/workspaces/${ws.workspaceId}/availability/${departure.id}`, {
        token: ws.token,
        body: { status: 'CANCELLED' },
      }),
    );
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    for (const res of before) expect([201, 422], JSON.stringify(res.body)).toContain(res.status);
    for (const res of after) {
      expect(res.status).toBe(422);
      expect(res.body.error.details).toEqual([{ field: 'availabilityId', issue: 'not_bookable' }]);
    }
    const won = before.filter((res) => res.status === 201).length;
    expect(await ledger(departure.id)).toEqual({ capacity: 60, bookedSeats: won, heldSeats: won });
    expect(unhandledErrors()).toEqual([]);
  });
});

describe('createBooking: its statements', () => {
  it('a new customer by checkout with an Idempotency-Key: ten statements, the seats in the COMMIT', async () => {
    const tour = await adultTour();
    const departure = await createDeparture(t, ws, tour.id, { capacity: 4 });
    const statements: string[] = [];
    const onQuery = (query: { sql: string }) => statements.push(query.sql);
    knex().on('query', onQuery);
    try {
      const res = await t.request('POST', path(), {
        token: ws.token,
        headers: { 'Idempotency-Key': crypto.randomUUID() },
        body: { availabilityId: departure.id, customer: customerInput(), participants: [{ name: 'Ada' }] },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    } finally {
      knex().removeListener('query', onQuery);
    }
    // The credential's lookup, BEGIN, the key and its record, the departure, the customer, the
    // booking (history and payment page in it), its event, the answer saved, the credential
    // re-checked, then the seats and COMMIT in one round trip: the departure's row is locked
    // only while PostgreSQL commits.
    const shape = statements.map((sql) => sql.replace(/\s+/g, ' ').toLowerCase());
    expect(shape, shape.join('\n')).toHaveLength(10);
    expect(shape.at(-1)).toMatch(/^select travelops_take_seats\(.*\); commit$/);
    expect(await knex()('availability').where({ id: departure.id }).first('booked_seats')).toEqual({
      booked_seats: 1,
    });
  });
});
