import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { book, pay, setStatus } from '../support/booking-fixtures.js';
import {
  collectPages,
  createCustomer,
  createDeparture,
  createTour,
  detail,
  expectError,
  ISO_MS,
  type TestWorkspace,
} from '../support/fixtures.js';
import { startTestApi, type TestApi } from '../support/harness.js';

let t: TestApi;
let ws: TestWorkspace;
beforeAll(async () => {
  t = await startTestApi();
  ws = await t.createWorkspace('ADMIN');
});
afterAll(() => t.close());

const customerPath = (customerId: string, suffix = '', workspace = ws) =>
  `/workspaces/${workspace.workspaceId}/customers/${customerId}${suffix}`;
const addNote = (customerId: string, body: unknown, workspace = ws) =>
  t.request('POST', customerPath(customerId, '/notes', workspace), { token: workspace.token, body });

describe('createCustomerNote', () => {
  it('adds a note authored by the calling token', async () => {
    const customer = await createCustomer(t, ws);
    const res = await addNote(customer.id, { body: 'Allergic to nuts; prefers aisle seats.' });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.stringMatching(/^note_[0-9A-Za-z]{22}$/),
      customerId: customer.id,
      body: 'Allergic to nuts; prefers aisle seats.',
      author: { type: 'api_token', id: expect.stringMatching(/^tok_/) },
      createdAt: expect.stringMatching(ISO_MS),
    });
  });

  it('validates the body; unknown and foreign customers are 404; READ_ONLY cannot write', async () => {
    const customer = await createCustomer(t, ws);
    expectError(await addNote(customer.id, { body: '  ', pinned: true }), 400, 'VALIDATION_ERROR', [
      detail('body', 'blank'),
      detail('pinned', 'unknown_field'),
    ]);
    expectError(await addNote('cus_0000000000000000000000', { body: 'x' }), 404, 'NOT_FOUND');
    const other = await t.createWorkspace('ADMIN');
    const foreign = await createCustomer(t, other);
    expectError(await addNote(foreign.id, { body: 'x' }), 404, 'NOT_FOUND');
    const readOnly = await t.createToken(ws.workspaceId, 'READ_ONLY');
    expectError(
      await t.request('POST', customerPath(customer.id, '/notes'), {
        token: readOnly.token,
        body: { body: 'x' },
      }),
      403,
      'FORBIDDEN',
    );
  });
});

describe('getCustomerTimeline', () => {
  it('merges bookings, status changes, payments, refunds, notes and tasks, newest first, across pages', async () => {
    const customer = await createCustomer(t, ws, { email: 'timeline@x.example', name: 'Tim Line' });
    const tour = await createTour(t, ws, { basePrice: 4500, currency: 'EUR' });
    const departure = await createDeparture(t, ws, tour.id, { capacity: 20 });
    const guest = { name: 'Tim Line', email: 'timeline@x.example' };

    const paid = await book(t, ws, departure.id, { customer: guest }); // CHECKOUT: PENDING, then paid
    expect((await pay(t, paid.checkoutUrl)).status).toBe(200);
    const refund = await t.request('POST', `/workspaces/${ws.workspaceId}/bookings/${paid.id}/refunds`, {
      token: ws.token,
      body: { amount: 1000, reason: 'goodwill' },
    });
    expect(refund.status, JSON.stringify(refund.body)).toBe(201);
    expect((await addNote(customer.id, { body: 'Asked about private tours' })).status).toBe(201);
    const manual = await book(t, ws, departure.id, { customer: guest, paymentMode: 'MANUAL' });
    expect((await setStatus(t, ws, manual.id, 'CANCELLED', { reason: 'changed plans' })).status).toBe(200);
    const task = await t.request('POST', `/workspaces/${ws.workspaceId}/crm-tasks`, {
      token: ws.token,
      body: { title: 'Offer a private tour', customerId: customer.id, dueAt: '2030-01-10T09:00:00Z' },
    });
    expect(task.status).toBe(201);
    // Someone else's booking never shows.
    await book(t, ws, departure.id, { customer: { name: 'Someone', email: 'someone@x.example' } });

    const { items, pages } = await collectPages(t, customerPath(customer.id, '/timeline'), ws.token, 3);
    expect(pages.map((page) => page.count)).toEqual([3, 3, 2]);
    expect(items.map((entry) => entry.type)).toEqual([
      'crm_task',
      'booking.status_changed',
      'booking.created',
      'note',
      'payment.refunded',
      'booking.status_changed',
      'payment.succeeded',
      'booking.created',
    ]);
    const keys = items.map((entry) => `${entry.occurredAt} ${entry.id}`);
    expect(keys).toEqual([...keys].sort().reverse());
    for (const entry of items) {
      expect(Object.keys(entry).sort()).toEqual(['bookingId', 'data', 'id', 'occurredAt', 'summary', 'type']);
      expect(entry.occurredAt).toMatch(ISO_MS);
    }
    expect(items[0]).toMatchObject({
      id: task.body.data.id,
      bookingId: null,
      summary: 'Task: Offer a private tour (OPEN)',
      data: {
        title: 'Offer a private tour',
        status: 'OPEN',
        priority: 'NORMAL',
        dueAt: '2030-01-10T09:00:00.000Z',
      },
    });
    expect(items[1]).toMatchObject({
      bookingId: manual.id,
      summary: 'Booking PENDING -> CANCELLED (changed plans)',
      data: { fromStatus: 'PENDING', toStatus: 'CANCELLED', reason: 'changed plans' },
    });
    expect(items[2]).toMatchObject({
      id: manual.id,
      bookingId: manual.id,
      summary: 'Booked 1 seat for 45.00 EUR',
      data: {
        participantCount: 1,
        totalAmount: 4500,
        currency: 'EUR',
        paymentMode: 'MANUAL',
        tourId: tour.id,
      },
    });
    expect(items[3]).toMatchObject({ summary: 'Asked about private tours', bookingId: null });
    expect(items[4]).toMatchObject({
      bookingId: paid.id,
      summary: 'Refund of 10.00 EUR',
      data: { amount: 1000, currency: 'EUR', reason: 'goodwill' },
    });
    expect(items[5]).toMatchObject({ data: { fromStatus: 'PENDING', toStatus: 'CONFIRMED' } });
    expect(items[6]).toMatchObject({ summary: 'Payment of 45.00 EUR received', data: { amount: 4500 } });
    expect(items[7]).toMatchObject({ id: paid.id, data: { paymentMode: 'CHECKOUT' } });
  });

  it("includes incidents on the customer's bookings, with their severity and title", async () => {
    const customer = await createCustomer(t, ws, { email: 'incident-guest@example.com' });
    const tour = await createTour(t, ws);
    const departure = await createDeparture(t, ws, tour.id);
    const booking = await book(t, ws, departure.id, {
      customer: { name: customer.name, email: customer.email },
    });
    const incident = await t.request('POST', `/workspaces/${ws.workspaceId}/incidents`, {
      token: ws.token,
      body: {
        bookingId: booking.id,
        severity: 'HIGH',
        title: 'Guest injured on the trail',
        occurredAt: new Date().toISOString(),
      },
    });
    expect(incident.status).toBe(201);
    const res = await t.request('GET', customerPath(customer.id, '/timeline'), { token: ws.token });
    const entry = res.body.data.find((e: { type: string }) => e.type === 'incident');
    expect(entry).toMatchObject({
      id: incident.body.data.id,
      bookingId: booking.id,
      summary: 'Incident (HIGH): Guest injured on the trail',
      data: { severity: 'HIGH', title: 'Guest injured on the trail', status: 'OPEN' },
    });
  });

  it('a customer with no history has an empty timeline', async () => {
    const customer = await createCustomer(t, ws);
    const res = await t.request('GET', customerPath(customer.id, '/timeline'), { token: ws.token });
    expect(res.body).toEqual({ data: [], pagination: { hasMore: false, nextCursor: null } });
  });

  it("rejects another customer's cursor and a tampered one; foreign customers are 404", async () => {
    const a = await createCustomer(t, ws);
    const b = await createCustomer(t, ws);
    for (let i = 0; i < 3; i++) await addNote(a.id, { body: `note ${i}` });
    const first = await t.request('GET', `${customerPath(a.id, '/timeline')}?limit=1`, { token: ws.token });
    const cursor = first.body.pagination.nextCursor as string;
    expect(cursor).toEqual(expect.any(String));
    const onB = await t.request(
      'GET',
      `${customerPath(b.id, '/timeline')}?cursor=${encodeURIComponent(cursor)}`,
      {
        token: ws.token,
      },
    );
    expectError(onB, 400, 'VALIDATION_ERROR', [detail('cursor', 'invalid_cursor')]);
    const tampered = `${cursor.slice(0, -2)}${cursor.endsWith('A') ? 'B' : 'A'}`;
    expectError(
      await t.request('GET', `${customerPath(a.id, '/timeline')}?cursor=${encodeURIComponent(tampered)}`, {
        token: ws.token,
      }),
      400,
      'VALIDATION_ERROR',
    );
    const other = await t.createWorkspace('ADMIN');
    const foreign = await createCustomer(t, other);
    expectError(
      await t.request('GET', customerPath(foreign.id, '/timeline'), { token: ws.token }),
      404,
      'NOT_FOUND',
    );
  });
});
