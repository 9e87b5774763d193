import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookingInput, bookingsPath, participants, setStatus } from '../support/booking-fixtures.js';
import { createDeparture, createTour, detail, expectError, type TestWorkspace } from '../support/fixtures.js';
import { startTestApi, type TestApi } from '../support/harness.js';

let t: TestApi;
let ws: TestWorkspace;
beforeAll(async () => {
  // Guests are told apart by address: X-Forwarded-For from the test's loopback proxy.
  t = await startTestApi({ PUBLIC_HOLDS_PER_CLIENT: '2', TRUST_PROXY: 'loopback' });
  ws = await t.createWorkspace('ADMIN');
});
afterAll(() => t.close());

const MINUTE = 60_000;
const guestBook = (body: unknown, ip: string) =>
  t.request('POST', `/public/${ws.slug}/bookings`, { body, headers: { 'X-Forwarded-For': ip } });

async function publicDeparture(tour: Record<string, unknown> = {}, capacity = 20) {
  const created = await createTour(t, ws, { isPublic: true, ...tour });
  return createDeparture(t, ws, created.id, { capacity });
}

async function departureNow(id: string, tourId: string) {
  const res = await t.request('GET', `/workspaces/${ws.workspaceId}/availability?tourId=${tourId}`, {
    token: ws.token,
  });
  return res.body.data.find((d: { id: string }) => d.id === id);
}

describe('holds that cannot be hoarded', () => {
  it('a guest books at most the tour maxSeatsPerPublicBooking seats (422), operators are not limited', async () => {
    const departure = await publicDeparture({ maxSeatsPerPublicBooking: 3 });
    const refused = await guestBook(
      bookingInput(departure.id, { participants: participants(4) }),
      '198.51.100.1',
    );
    expectError(refused, 422, 'UNPROCESSABLE', [detail('participants', 'too_many_for_public_booking')]);
    expect(
      (await guestBook(bookingInput(departure.id, { participants: participants(3) }), '198.51.100.1')).status,
    ).toBe(201);
    const operator = await t.request('POST', bookingsPath(ws), {
      token: ws.token,
      body: bookingInput(departure.id, { participants: participants(10) }),
    });
    expect(operator.status).toBe(201);
  });

  it('an unpaid public hold lasts the tour publicHoldMinutes (default 15), an API hold keeps its 30', async () => {
    const departure = await publicDeparture({ publicHoldMinutes: 7 });
    const before = Date.now();
    const guest = await guestBook(bookingInput(departure.id), '198.51.100.2');
    const expires = Date.parse(guest.body.data.expiresAt);
    expect(expires).toBeGreaterThanOrEqual(before + 7 * MINUTE);
    expect(expires).toBeLessThan(before + 8 * MINUTE);
    const standard = await publicDeparture();
    const defaulted = await guestBook(bookingInput(standard.id), '198.51.100.2');
    expect(Date.parse(defaulted.body.data.expiresAt)).toBeLessThan(Date.now() + 16 * MINUTE);
    const api = await t.request('POST', bookingsPath(ws), {
      token: ws.token,
      body: bookingInput(standard.id),
    });
    expect(Date.parse(api.body.data.expiresAt)).toBeGreaterThanOrEqual(before + 30 * MINUTE);
  });

  it('a flood from one address cannot hold the departure: two unpaid holds, then 429; another guest still books', async () => {
    const departure = await publicDeparture({}, 30);
    const flood = await Promise.all(
      Array.from({ length: 12 }, () =>
        guestBook(bookingInput(departure.id, { participants: participants(10) }), '203.0.113.66'),
      ),
    );
    const statuses = flood.map((res) => res.status).sort();
    expect(statuses.filter((status) => status === 201)).toHaveLength(2);
    expect(statuses.filter((status) => status === 429)).toHaveLength(10);
    const refused = flood.find((res) => res.status === 429);
    expectError(refused as never, 429, 'RATE_LIMITED');
    const retryAfter = Number(refused?.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);

    // The flood holds 2 x 10 of the 30 seats; another guest still books.
    const other = await guestBook(
      bookingInput(departure.id, { participants: participants(4) }),
      '198.51.100.200',
    );
    expect(other.status).toBe(201);
    const shown = await departureNow(departure.id, departure.tourId);
    expect(shown).toMatchObject({ bookedSeats: 24, heldSeats: 24, seatsRemaining: 6 });
  });

  it('operators see held seats apart from sold ones: a confirmed booking is sold, a pending one held', async () => {
    const departure = await publicDeparture({}, 10);
    const held = await guestBook(
      bookingInput(departure.id, { participants: participants(3) }),
      '198.51.100.9',
    );
    expect(held.status).toBe(201);
    const sold = await t.request('POST', bookingsPath(ws), {
      token: ws.token,
      body: bookingInput(departure.id, { participants: participants(2), paymentMode: 'MANUAL' }),
    });
    expect((await setStatus(t, ws, sold.body.data.id, 'CONFIRMED')).status).toBe(200);
    expect(await departureNow(departure.id, departure.tourId)).toMatchObject({
      bookedSeats: 5,
      heldSeats: 3,
      seatsRemaining: 5,
    });
    expect((await setStatus(t, ws, held.body.data.id, 'CANCELLED')).status).toBe(200);
    expect(await departureNow(departure.id, departure.tourId)).toMatchObject({
      bookedSeats: 2,
      heldSeats: 0,
    });
  });

  it('holds from one address are counted per departure: a third departure is still open to it', async () => {
    const first = await publicDeparture();
    const second = await publicDeparture();
    for (let i = 0; i < 2; i++)
      expect((await guestBook(bookingInput(first.id), '198.51.100.77')).status).toBe(201);
    expect((await guestBook(bookingInput(first.id), '198.51.100.77')).status).toBe(429);
    expect((await guestBook(bookingInput(second.id), '198.51.100.77')).status).toBe(201);
    expect((await guestBook(bookingInput(first.id), '198.51.100.78')).status).toBe(201);
  });
});
