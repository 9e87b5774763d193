import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookingInput, participants } from '../support/booking-fixtures.js';
import {
  createDeparture,
  createTour,
  customerInput,
  expectError,
  fromNow,
  type TestWorkspace,
} from '../support/fixtures.js';
import { startTestApi, type TestApi } from '../support/harness.js';
import { mailWorker, startSmtp, type TestSmtp } from '../support/mail-fixtures.js';
import { testClock } from '../support/webhook-fixtures.js';

// Issue 23 item 1: a free public booking is CONFIRMED at once and never lapses, so it counts
// against the per-client brake like an unpaid hold, and its confirmation e-mails are capped per
// recipient address, workspace and hour (the booking stands; a line is logged).

async function freeDeparture(t: TestApi, ws: TestWorkspace, capacity = 20) {
  const tour = await createTour(t, ws, { isPublic: true, basePrice: 0, capacity });
  return createDeparture(t, ws, tour.id, { capacity });
}

const guestBook = (t: TestApi, ws: TestWorkspace, body: unknown, ip: string) =>
  t.request('POST', `/public/${ws.slug}/bookings`, { body, headers: { 'X-Forwarded-For': ip } });

async function seatsLeft(t: TestApi, departureId: string) {
  const [row] = await t.api.database.knex('availability').where({ id: departureId }).select('booked_seats');
  return Number(row.booked_seats);
}

/** The confirmation e-mails asked for each booking (what the worker then writes and sends). */
async function confirmationsAsked(t: TestApi, bookingIds: string[]) {
  const rows = await t.api.database
    .knex('outbox_events')
    .whereIn('aggregate_id', bookingIds)
    .where({ type: 'notification.email_requested' })
    .select('aggregate_id');
  return rows.map((row: { aggregate_id: string }) => row.aggregate_id);
}

describe('free public bookings count against the per-client brake', () => {
  let t: TestApi;
  let ws: TestWorkspace;
  beforeAll(async () => {
    t = await startTestApi({ PUBLIC_HOLDS_PER_CLIENT: '2', TRUST_PROXY: 'loopback' });
    ws = await t.createWorkspace('ADMIN');
  });
  afterAll(() => t?.close());

  it('from one address: two free bookings (CONFIRMED, no expiry), then 429 like unpaid holds; another address still books', async () => {
    const departure = await freeDeparture(t, ws);
    const body = bookingInput(departure.id, { participants: participants(5) });
    for (const _ of [1, 2]) {
      const res = await guestBook(t, ws, body, '203.0.113.10');
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.data).toMatchObject({ status: 'CONFIRMED', expiresAt: null, totalAmount: 0 });
    }
    const refused = await guestBook(t, ws, body, '203.0.113.10');
    expectError(refused, 429, 'RATE_LIMITED');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await seatsLeft(t, departure.id)).toBe(10);
    expect((await guestBook(t, ws, body, '198.51.100.10')).status).toBe(201);
  });

  it('the brake is per departure, as for holds: free bookings on one leave the holds of another', async () => {
    const paid = await createTour(t, ws, { isPublic: true, basePrice: 1_000, capacity: 20 });
    const paidDeparture = await createDeparture(t, ws, paid.id, { capacity: 20 });
    const free = await freeDeparture(t, ws);
    // Brakes are per departure: two free ones here leave the paid departure's two holds free.
    expect((await guestBook(t, ws, bookingInput(free.id), '203.0.113.11')).status).toBe(201);
    expect((await guestBook(t, ws, bookingInput(free.id), '203.0.113.11')).status).toBe(201);
    expect((await guestBook(t, ws, bookingInput(paidDeparture.id), '203.0.113.11')).status).toBe(201);
    expect((await guestBook(t, ws, bookingInput(free.id), '203.0.113.11')).status).toBe(429);
  });

  it('a cancelled free booking no longer counts', async () => {
    const departure = await freeDeparture(t, ws);
    const first = await guestBook(t, ws, bookingInput(departure.id), '203.0.113.12');
    await guestBook(t, ws, bookingInput(departure.id), '203.0.113.12');
    expect((await guestBook(t, ws, bookingInput(departure.id), '203.0.113.12')).status).toBe(429);
    const cancelled = await t.request('POST', `/public/bookings/${first.body.data.publicToken}/cancel`);
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect((await guestBook(t, ws, bookingInput(departure.id), '203.0.113.12')).status).toBe(201);
  });

  it('twelve free bookings at once from one address against PostgreSQL: two 201, ten 429, ten seats taken', async () => {
    const departure = await freeDeparture(t, ws, 60);
    const flood = await Promise.all(
      Array.from({ length: 12 }, () =>
        guestBook(t, ws, bookingInput(departure.id, { participants: participants(5) }), '203.0.113.66'),
      ),
    );
    const statuses = flood.map((res) => res.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(2);
    expect(statuses.filter((status) => status === 429)).toHaveLength(10);
    expect(await seatsLeft(t, departure.id)).toBe(10);
  });
});

describe('confirmation e-mails per recipient address and hour', () => {
  let t: TestApi;
  let ws: TestWorkspace;
  let other: TestWorkspace;
  let smtp: TestSmtp;
  beforeAll(async () => {
    // The per-client brake out of the way: one address books many free departures here.
    t = await startTestApi({ PUBLIC_HOLDS_PER_CLIENT: '1000' });
    smtp = await startSmtp();
    ws = await t.createWorkspace('ADMIN');
    other = await t.createWorkspace('ADMIN');
  });
  afterAll(async () => {
    await smtp?.stop();
    await t?.close();
  });

  it('the sixth confirmation e-mail to one address within the hour is not sent; the booking stands; a line is logged', async () => {
    const departure = await freeDeparture(t, ws, 100);
    const customer = customerInput();
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      // The address's case does not make it another recipient.
      const email = i === 5 ? customer.email.toUpperCase() : customer.email;
      const res = await t.request('POST', `/public/${ws.slug}/bookings`, {
        body: bookingInput(departure.id, { customer: { ...customer, email } }),
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.data.status).toBe('CONFIRMED');
      ids.push(res.body.data.id);
    }
    const asked = await confirmationsAsked(t, ids);
    expect(asked.sort()).toEqual(ids.slice(0, 5).sort());
    // The worker sends what was asked: five messages reach the address, not six.
    const clock = testClock();
    const jobs = mailWorker(t, clock, { smtpUrl: smtp.url });
    clock.catchUp();
    await jobs.deliver();
    await jobs.deliver();
    jobs.close();
    const received = smtp.received.filter((m) => m.envelope.to.includes(customer.email));
    expect(received.map((m) => m.mail.subject)).toEqual(
      Array(5).fill(expect.stringMatching(/^Booking confirmed/)),
    );
    expect(
      t.logs.filter((line) => line.includes(ids[5] as string) && line.includes('withheld')),
    ).toHaveLength(1);

    // Another workspace counts its own; another address its own.
    const elsewhere = await freeDeparture(t, other, 10);
    const there = await t.request('POST', `/public/${other.slug}/bookings`, {
      body: bookingInput(elsewhere.id, { customer }),
    });
    const someoneElse = await t.request('POST', `/public/${ws.slug}/bookings`, {
      body: bookingInput(departure.id),
    });
    expect(await confirmationsAsked(t, [there.body.data.id, someoneElse.body.data.id])).toHaveLength(2);
  });

  it('eight free bookings at once to one address against PostgreSQL: eight stand, five confirmations', async () => {
    const customer = customerInput();
    // A known customer: nothing about creating it serialises the burst.
    const known = await t.request('POST', `/workspaces/${ws.workspaceId}/customers`, {
      token: ws.token,
      body: customer,
    });
    expect(known.status, JSON.stringify(known.body)).toBe(201);
    // Eight departures, so the per-client lock (one client, one departure) serialises nothing.
    const tour = await createTour(t, ws, { isPublic: true, basePrice: 0, capacity: 10 });
    const departures = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        createDeparture(t, ws, tour.id, { capacity: 10, startsAt: fromNow(40 + i) }),
      ),
    );
    const burst = await Promise.all(
      departures.map((departure) =>
        t.request('POST', `/public/${ws.slug}/bookings`, { body: bookingInput(departure.id, { customer }) }),
      ),
    );
    expect(burst.map((res) => res.status)).toEqual(Array(8).fill(201));
    const asked = await confirmationsAsked(
      t,
      burst.map((res) => res.body.data.id),
    );
    expect(asked).toHaveLength(5);
  });
});
