import { createUnitOfWork } from '@travelops/db';
import { expireHolds } from '@travelops/domain/bookings';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  book,
  bookingInput,
  bookingsPath,
  confirmedBooking,
  countRows,
  eventsOf,
  eventTypesOf,
  expireHold,
  getBooking,
  participants,
  pay,
  setStatus,
  startDeparture,
} from '../support/booking-fixtures.js';
import {
  createDeparture,
  createTour,
  customerInput,
  expectError,
  ISO_MS,
  setDepartureColumns,
  type TestWorkspace,
} from '../support/fixtures.js';
import { startTestApi, type TestApi } from '../support/harness.js';

let t: TestApi;
let ws: TestWorkspace;
let tour: any;
beforeAll(async () => {
  t = await startTestApi();
  ws = await t.createWorkspace('ADMIN');
  tour = await createTour(t, ws, { name: 'Reef Dive', basePrice: 9000, capacity: 20 });
});
afterAll(() => t.close());

const newDeparture = (capacity = 20) => createDeparture(t, ws, tour.id, { capacity });

/** Everything a booking write could leave behind in this workspace. */
async function workspaceFootprint() {
  const where = { workspace_id: ws.workspaceId };
  return {
    bookings: await countRows(t, 'bookings', where),
    events: await countRows(t, 'outbox_events', where),
    customers: await countRows(t, 'customers', where),
    history: await countRows(t, 'booking_history', where),
    sessions: await countRows(t, 'payment_sessions', where),
    seats: (await t.api.database.knex('availability').where(where).sum('booked_seats as n'))[0]?.n,
  };
}

describe('the event envelope', () => {
  it('is {id: evt_..., type, createdAt, workspaceId, data} with data = the Booking as the API shows it', async () => {
    const departure = await newDeparture();
    const booking = await book(t, ws, departure.id);
    const rows = await t.api.database
      .knex('outbox_events')
      .where({ aggregate_id: booking.id })
      .orderBy('seq');
    expect(rows).toHaveLength(1);
    const [row] = rows;
    expect(row.payload).toEqual({
      id: expect.stringMatching(/^evt_[0-9A-Za-z]{22}$/),
      type: 'booking.created',
      createdAt: expect.stringMatching(ISO_MS),
      workspaceId: ws.workspaceId,
      data: await getBooking(t, ws, booking.id),
    });
    expect(Object.keys(row.payload).sort()).toEqual(['createdAt', 'data', 'id', 'type', 'workspaceId']);
    // The row's columns agree with the envelope it carries.
    expect(row).toMatchObject({
      id: row.payload.id,
      type: 'booking.created',
      workspace_id: ws.workspaceId,
      aggregate_id: booking.id,
      published_at: null,
    });
    // Internal fields never leave in an event; one-time links neither.
    for (const hidden of ['workspaceId', 'version', 'checkoutUrl', 'paymentLinkUrl']) {
      expect(row.payload.data).not.toHaveProperty(hidden);
    }
  });

  it('every event of a booking has its own id and they are in the order of the changes', async () => {
    const departure = await newDeparture();
    const booking = await book(t, ws, departure.id);
    await pay(t, booking.checkoutUrl);
    await setStatus(t, ws, booking.id, 'CANCELLED');
    const events = await eventsOf(t, booking.id);
    expect(events.map((e) => e.type)).toEqual([
      'booking.created',
      'payment.succeeded',
      'booking.confirmed',
      'notification.email_requested',
      'notification.email_requested',
      'booking.cancelled',
    ]);
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
    const times = events.map((e) => e.createdAt);
    expect([...times].sort()).toEqual(times);
    expect(events.map((e) => e.data.status ?? null)).toEqual([
      'PENDING',
      null, // payment.succeeded carries the payment, not the booking
      'CONFIRMED',
      null, // the e-mail requests carry what the guest is told, not the booking
      null,
      'CANCELLED',
    ]);
  });
});

describe('every booking event kind of decisions §8 is written with its change', () => {
  it('booking.created and booking.confirmed (by status)', async () => {
    const booking = await confirmedBooking(t, ws, (await newDeparture()).id);
    const events = await eventsOf(t, booking.id);
    expect(events.map((e) => [e.type, e.data.status])).toEqual([
      ['booking.created', 'PENDING'],
      ['booking.confirmed', 'CONFIRMED'],
    ]);
    expect(events[1].data).toEqual(booking);
  });

  it('payment.succeeded and booking.confirmed (by payment)', async () => {
    const booking = await book(t, ws, (await newDeparture()).id);
    await pay(t, booking.checkoutUrl);
    const events = await eventsOf(t, booking.id);
    expect(events.map((e) => e.type)).toEqual([
      'booking.created',
      'payment.succeeded',
      'booking.confirmed',
      'notification.email_requested',
      'notification.email_requested',
    ]);
    expect(events[1].data).toMatchObject({
      bookingId: booking.id,
      amount: 9000,
      currency: 'EUR',
      paymentId: expect.stringMatching(/^pay_/),
    });
    expect(events[2].data).toEqual(await getBooking(t, ws, booking.id));
  });

  it('booking.cancelled', async () => {
    const booking = await book(t, ws, (await newDeparture()).id);
    const res = await setStatus(t, ws, booking.id, 'CANCELLED', { reason: 'weather' });
    const events = await eventsOf(t, booking.id);
    expect(events.map((e) => e.type)).toEqual(['booking.created', 'booking.cancelled']);
    expect(events[1].data).toEqual(res.body.data);
  });

  it('booking.expired (worker job)', async () => {
    const booking = await book(t, ws, (await newDeparture()).id);
    await expireHold(t, booking.id);
    await expireHolds({ uow: createUnitOfWork(t.api.database.knex), clock: { now: () => new Date() } });
    const events = await eventsOf(t, booking.id);
    expect(events.map((e) => e.type)).toEqual(['booking.created', 'booking.expired']);
    expect(events[1].data).toEqual(await getBooking(t, ws, booking.id));
    expect(events[1].data).toMatchObject({ status: 'CANCELLED', cancellationReason: 'EXPIRED' });
  });

  it('booking.completed and booking.no_show', async () => {
    const departure = await newDeparture();
    const completed = await confirmedBooking(t, ws, departure.id);
    const noShow = await confirmedBooking(t, ws, departure.id);
    await startDeparture(t, departure.id);
    const done = await setStatus(t, ws, completed.id, 'COMPLETED');
    const missed = await setStatus(t, ws, noShow.id, 'NO_SHOW');
    expect(await eventTypesOf(t, completed.id)).toEqual([
      'booking.created',
      'booking.confirmed',
      'booking.completed',
    ]);
    expect((await eventsOf(t, completed.id))[2].data).toEqual(done.body.data);
    expect(await eventTypesOf(t, noShow.id)).toEqual([
      'booking.created',
      'booking.confirmed',
      'booking.no_show',
    ]);
    expect((await eventsOf(t, noShow.id))[2].data).toEqual(missed.body.data);
  });
});

describe('a rolled-back change leaves no event', () => {
  it('a create refused with 409 (sold out) writes no booking, event, customer or history', async () => {
    const departure = await newDeparture(1);
    await book(t, ws, departure.id);
    const before = await workspaceFootprint();
    const res = await t.request('POST', bookingsPath(ws), {
      token: ws.token,
      body: bookingInput(departure.id, { customer: customerInput({ email: 'never.stored@example.com' }) }),
    });
    expectError(res, 409, 'CONFLICT');
    expect(await workspaceFootprint()).toEqual(before);
    expect(await countRows(t, 'customers', { email: 'never.stored@example.com' })).toBe(0);
  });

  it('a create refused with 422 (departure cancelled) writes nothing', async () => {
    const departure = await newDeparture();
    await setDepartureColumns(t, departure.id, { status: 'CANCELLED' });
    const before = await workspaceFootprint();
    expectError(
      await t.request('POST', bookingsPath(ws), { token: ws.token, body: bookingInput(departure.id) }),
      422,
      'UNPROCESSABLE',
    );
    expect(await workspaceFootprint()).toEqual(before);
  });

  it('a create refused with 400 (unknown add-on) writes nothing', async () => {
    const departure = await newDeparture();
    const before = await workspaceFootprint();
    expectError(
      await t.request('POST', bookingsPath(ws), {
        token: ws.token,
        body: bookingInput(departure.id, { addOns: [{ id: 'submarine', quantity: 1 }] }),
      }),
      400,
      'VALIDATION_ERROR',
    );
    expect(await workspaceFootprint()).toEqual(before);
  });

  it('a setBookingStatus refused with 422 writes no event and no history', async () => {
    const booking = await confirmedBooking(t, ws, (await newDeparture()).id);
    const before = await workspaceFootprint();
    expectError(await setStatus(t, ws, booking.id, 'PENDING'), 422, 'UNPROCESSABLE');
    expectError(await setStatus(t, ws, booking.id, 'COMPLETED'), 422, 'UNPROCESSABLE');
    expect(await workspaceFootprint()).toEqual(before);
    expect(await getBooking(t, ws, booking.id)).toEqual(booking);
  });

  it('a PATCH refused with 409 (no seats on the target) writes no event and moves no seat', async () => {
    const full = await newDeparture(1);
    await book(t, ws, full.id);
    const booking = await book(t, ws, (await newDeparture()).id);
    const before = await workspaceFootprint();
    const events = await eventTypesOf(t, booking.id);
    expectError(
      await t.request('PATCH', bookingsPath(ws, booking.id), {
        token: ws.token,
        body: { availabilityId: full.id },
      }),
      409,
      'CONFLICT',
    );
    expect(await workspaceFootprint()).toEqual(before);
    expect(await eventTypesOf(t, booking.id)).toEqual(events);
  });

  it('a payment refused with 422 (booking cancelled) writes no payment event', async () => {
    const booking = await book(t, ws, (await newDeparture()).id);
    await setStatus(t, ws, booking.id, 'CANCELLED');
    const before = await workspaceFootprint();
    expect((await pay(t, booking.checkoutUrl)).status).toBe(422);
    expect(await workspaceFootprint()).toEqual(before);
    expect(await countRows(t, 'payments', { booking_id: booking.id })).toBe(0);
  });

  it('a refund refused with 422 writes no event', async () => {
    const booking = await book(t, ws, (await newDeparture()).id, { participants: participants(1) });
    await pay(t, booking.checkoutUrl);
    const before = await workspaceFootprint();
    expectError(
      await t.request('POST', bookingsPath(ws, booking.id, '/refunds'), {
        token: ws.token,
        body: { amount: 9001 },
      }),
      422,
      'UNPROCESSABLE',
    );
    expect(await workspaceFootprint()).toEqual(before);
  });
});
