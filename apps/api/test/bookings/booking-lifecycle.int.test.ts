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
  historyOf,
  participants,
  seatsOf,
  setStatus,
  startDeparture,
} from '../support/booking-fixtures.js';
import {
  createDeparture,
  createTour,
  detail,
  expectError,
  fromNow,
  ISO_MS,
  type TestWorkspace,
} from '../support/fixtures.js';
import { startTestApi, type TestApi } from '../support/harness.js';

let t: TestApi;
let ws: TestWorkspace;
let tour: any;
beforeAll(async () => {
  t = await startTestApi();
  ws = await t.createWorkspace('ADMIN');
  tour = await createTour(t, ws, {
    name: 'Canyon Ride',
    basePrice: 4000,
    capacity: 10,
    addOns: [{ id: 'helmet', name: 'Helmet', price: 500 }],
  });
});
afterAll(() => t.close());

const newDeparture = (capacity = 10, overrides: Record<string, unknown> = {}) =>
  createDeparture(t, ws, tour.id, { capacity, ...overrides });

/** What a refused change must leave alone: the row, its events and its history. */
async function footprint(bookingId: string) {
  return {
    row: await t.api.database.knex('bookings').where({ id: bookingId }).first(),
    events: await countRows(t, 'outbox_events', { aggregate_id: bookingId }),
    history: await countRows(t, 'booking_history', { booking_id: bookingId }),
  };
}

describe('setBookingStatus: decisions §2', () => {
  it('PENDING -> CONFIRMED sets confirmedAt, clears expiresAt and emits booking.confirmed', async () => {
    const departure = await newDeparture();
    const booking = await book(t, ws, departure.id, { participants: participants(2) });
    expect(booking.expiresAt).not.toBeNull();
    const res = await setStatus(t, ws, booking.id, 'CONFIRMED', { reason: 'paid at the desk' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({
      id: booking.id,
      status: 'CONFIRMED',
      paymentStatus: 'UNPAID',
      confirmedAt: expect.stringMatching(ISO_MS),
      expiresAt: null,
      cancelledAt: null,
    });
    expect(res.headers.get('etag')).toMatch(/^"\d+"$/);
    expect(await getBooking(t, ws, booking.id)).toEqual(res.body.data);
    expect(await eventTypesOf(t, booking.id)).toEqual(['booking.created', 'booking.confirmed']);
    const confirmed = (await eventsOf(t, booking.id))[1];
    expect(confirmed.data).toEqual(res.body.data);
    // Confirming keeps the seats.
    expect(await seatsOf(t, ws, departure)).toEqual({ bookedSeats: 2, seatsRemaining: 8 });
  });

  it('PENDING -> CANCELLED releases the seats and emits booking.cancelled', async () => {
    const departure = await newDeparture();
    const booking = await book(t, ws, departure.id, { participants: participants(3) });
    expect(await seatsOf(t, ws, departure)).toEqual({ bookedSeats: 3, seatsRemaining: 7 });
    const res = await setStatus(t, ws, booking.id, 'CANCELLED', { reason: 'changed plans' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      status: 'CANCELLED',
      cancelledAt: expect.stringMatching(ISO_MS),
      cancellationReason: 'changed plans',
      expiresAt: null,
      confirmedAt: null,
    });
    expect(await seatsOf(t, ws, departure)).toEqual({ bookedSeats: 0, seatsRemaining: 10 });
    expect(await eventTypesOf(t, booking.id)).toEqual(['booking.created', 'booking.cancelled']);
  });

  it('CONFIRMED -> CANCELLED before the departure starts releases the seats', async () => {
    const departure = await newDeparture();
    const booking = await confirmedBooking(t, ws, departure.id, { participants: participants(4) });
    expect(await seatsOf(t, ws, departure)).toEqual({ bookedSeats: 4, seatsRemaining: 6 });
    const res = await setStatus(t, ws, booking.id, 'CANCELLED');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'CANCELLED', cancellationReason: null });
    expect(await seatsOf(t, ws, departure)).toEqual({ bookedSeats: 0, seatsRemaining: 10 });
    expect(await eventTypesOf(t, booking.id)).toEqual([
      'booking.created',
      'booking.confirmed',
      'booking.cancelled',
    ]);
  });

  it('CONFIRMED -> COMPLETED or NO_SHOW before the departure starts: 422 departure_not_started', async () => {
    const departure = await newDeparture();
    const booking = await confirmedBooking(t, ws, departure.id);
    const before = await footprint(booking.id);
    for (const status of ['COMPLETED', 'NO_SHOW']) {
      expectError(await setStatus(t, ws, booking.id, status), 422, 'UNPROCESSABLE', [
        detail('status', 'departure_not_started'),
      ]);
    }
    expect(await footprint(booking.id)).toEqual(before);
  });

  describe('once the departure has started', () => {
    let departure: any;
    let completed: any;
    let noShow: any;
    let cancelled: any;
    let pending: any;
    beforeAll(async () => {
      departure = await newDeparture();
      completed = await confirmedBooking(t, ws, departure.id, { participants: participants(2) });
      noShow = await confirmedBooking(t, ws, departure.id);
      cancelled = await confirmedBooking(t, ws, departure.id);
      pending = await book(t, ws, departure.id, { paymentMode: 'MANUAL' });
      await startDeparture(t, departure.id);
    });

    it('CONFIRMED -> COMPLETED emits booking.completed and keeps the seats', async () => {
      const res = await setStatus(t, ws, completed.id, 'COMPLETED', { reason: 'back at base' });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data).toMatchObject({ status: 'COMPLETED', cancelledAt: null });
      expect((await eventTypesOf(t, completed.id)).at(-1)).toBe('booking.completed');
      expect((await eventsOf(t, completed.id)).at(-1).data).toEqual(res.body.data);
      expect((await seatsOf(t, ws, departure)).bookedSeats).toBe(5);
    });

    it('CONFIRMED -> NO_SHOW emits booking.no_show and keeps the seats', async () => {
      const res = await setStatus(t, ws, noShow.id, 'NO_SHOW');
      expect(res.status).toBe(200);
      expect(res.body.data.status).toBe('NO_SHOW');
      expect((await eventTypesOf(t, noShow.id)).at(-1)).toBe('booking.no_show');
      expect((await seatsOf(t, ws, departure)).bookedSeats).toBe(5);
    });

    it('CONFIRMED -> CANCELLED is 422 departure_started, and nothing changes', async () => {
      const before = await footprint(cancelled.id);
      expectError(await setStatus(t, ws, cancelled.id, 'CANCELLED'), 422, 'UNPROCESSABLE', [
        detail('status', 'departure_started'),
      ]);
      expect(await footprint(cancelled.id)).toEqual(before);
      expect((await seatsOf(t, ws, departure)).bookedSeats).toBe(5);
    });

    it('a PENDING booking may still be cancelled (it never was confirmed)', async () => {
      const res = await setStatus(t, ws, pending.id, 'CANCELLED');
      expect(res.status).toBe(200);
      expect((await seatsOf(t, ws, departure)).bookedSeats).toBe(4);
    });
  });

  describe('every other pair is 422 invalid_transition and changes nothing', () => {
    const bookingIn = async (status: string) => {
      const departure = await newDeparture();
      const booking = await book(t, ws, departure.id, { paymentMode: 'MANUAL' });
      if (status === 'PENDING') return booking;
      if (status === 'CANCELLED') {
        expect((await setStatus(t, ws, booking.id, 'CANCELLED')).status).toBe(200);
        return booking;
      }
      expect((await setStatus(t, ws, booking.id, 'CONFIRMED')).status).toBe(200);
      if (status === 'CONFIRMED') return booking;
      await startDeparture(t, departure.id);
      expect((await setStatus(t, ws, booking.id, status)).status).toBe(200);
      return booking;
    };

    it.each([
      ['PENDING', ['PENDING', 'COMPLETED', 'NO_SHOW']],
      ['CONFIRMED', ['CONFIRMED', 'PENDING']],
      ['CANCELLED', ['PENDING', 'CONFIRMED', 'CANCELLED', 'COMPLETED', 'NO_SHOW']],
      ['COMPLETED', ['PENDING', 'CONFIRMED', 'CANCELLED', 'COMPLETED', 'NO_SHOW']],
      ['NO_SHOW', ['PENDING', 'CONFIRMED', 'CANCELLED', 'COMPLETED', 'NO_SHOW']],
    ])('from %s to %j', async (from, targets) => {
      const booking = await bookingIn(from);
      const before = await footprint(booking.id);
      for (const to of targets) {
        const res = await setStatus(t, ws, booking.id, to);
        expectError(res, 422, 'UNPROCESSABLE', [detail('status', 'invalid_transition')]);
      }
      expect(await footprint(booking.id)).toEqual(before);
    });
  });

  it('an unknown status or an unknown field is 400; an unknown booking is 404', async () => {
    const departure = await newDeparture();
    const booking = await book(t, ws, departure.id);
    expectError(await setStatus(t, ws, booking.id, 'ARCHIVED'), 400, 'VALIDATION_ERROR', [
      detail('status', 'invalid_enum'),
    ]);
    expectError(await setStatus(t, ws, booking.id, 'CONFIRMED', { force: true }), 400, 'VALIDATION_ERROR', [
      detail('force', 'unknown_field'),
    ]);
    expectError(await setStatus(t, ws, `bkg_${'0'.repeat(22)}`, 'CONFIRMED'), 404, 'NOT_FOUND');
  });

  it('notifyCustomer: true queues an e-mail for the customer', async () => {
    const departure = await newDeparture();
    const booking = await book(t, ws, departure.id);
    const res = await setStatus(t, ws, booking.id, 'CONFIRMED', { notifyCustomer: true, reason: 'welcome' });
    expect(res.status).toBe(200);
    const events = await eventsOf(t, booking.id);
    expect(events.map((e) => e.type)).toEqual([
      'booking.created',
      'booking.confirmed',
      'notification.email_requested',
    ]);
    expect(events[2].data).toMatchObject({ bookingId: booking.id, customerId: booking.customerId });
  });
});

describe('listBookingHistory', () => {
  it('lists every change oldest first with its actor (the API token) and reason', async () => {
    const departure = await newDeparture();
    const operator = await t.createToken(ws.workspaceId, 'OPERATIONS');
    const booking = await book(t, ws, departure.id, { paymentMode: 'MANUAL' });
    const confirmed = await t.request('POST', bookingsPath(ws, booking.id, '/status'), {
      token: operator.token,
      body: { status: 'CONFIRMED', reason: 'deposit by bank transfer' },
    });
    expect(confirmed.status).toBe(200);
    expect((await setStatus(t, ws, booking.id, 'CANCELLED', { reason: 'customer asked' })).status).toBe(200);

    const res = await t.request('GET', bookingsPath(ws, booking.id, '/history'), { token: ws.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: [
        {
          id: expect.stringMatching(/^bhe_/),
          bookingId: booking.id,
          fromStatus: null,
          toStatus: 'PENDING',
          reason: null,
          actor: { type: 'api_token', id: ws.tokenId },
          createdAt: expect.stringMatching(ISO_MS),
        },
        {
          id: expect.stringMatching(/^bhe_/),
          bookingId: booking.id,
          fromStatus: 'PENDING',
          toStatus: 'CONFIRMED',
          reason: 'deposit by bank transfer',
          actor: { type: 'api_token', id: operator.tokenId },
          createdAt: expect.stringMatching(ISO_MS),
        },
        {
          id: expect.stringMatching(/^bhe_/),
          bookingId: booking.id,
          fromStatus: 'CONFIRMED',
          toStatus: 'CANCELLED',
          reason: 'customer asked',
          actor: { type: 'api_token', id: ws.tokenId },
          createdAt: expect.stringMatching(ISO_MS),
        },
      ],
      pagination: { hasMore: false, nextCursor: null },
    });
    const times = res.body.data.map((entry: { createdAt: string }) => entry.createdAt);
    expect([...times].sort()).toEqual(times);
  });

  it('pages through a long history without gaps', async () => {
    const departure = await newDeparture();
    const booking = await book(t, ws, departure.id, { paymentMode: 'MANUAL' });
    await setStatus(t, ws, booking.id, 'CONFIRMED');
    await setStatus(t, ws, booking.id, 'CANCELLED');
    const first = await t.request('GET', `${bookingsPath(ws, booking.id, '/history')}?limit=2`, {
      token: ws.token,
    });
    expect(first.body.data.map((e: any) => e.toStatus)).toEqual(['PENDING', 'CONFIRMED']);
    const cursor = encodeURIComponent(first.body.pagination.nextCursor);
    const second = await t.request(
      'GET',
      `${bookingsPath(ws, booking.id, '/history')}?limit=2&cursor=${cursor}`,
      {
        token: ws.token,
      },
    );
    expect(second.body.data.map((e: any) => e.toStatus)).toEqual(['CANCELLED']);
    expect(second.body.pagination).toEqual({ hasMore: false, nextCursor: null });
  });

  it("an unknown booking's history is 404", async () => {
    expectError(
      await t.request('GET', bookingsPath(ws, `bkg_${'0'.repeat(22)}`, '/history'), { token: ws.token }),
      404,
      'NOT_FOUND',
    );
  });
});

describe('updateBooking (PATCH)', () => {
  const patch = (bookingId: string, body: unknown, headers: Record<string, string> = {}) =>
    t.request('PATCH', bookingsPath(ws, bookingId), { token: ws.token, body, headers });

  it('moving to another departure of the tour moves the seats', async () => {
    const from = await newDeparture(10);
    const to = await newDeparture(10, { startsAt: fromNow(45) });
    const booking = await book(t, ws, from.id, { participants: participants(3) });
    const res = await patch(booking.id, { availabilityId: to.id });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({
      availabilityId: to.id,
      startsAt: to.startsAt,
      participantCount: 3,
      totalAmount: booking.totalAmount,
    });
    expect(await seatsOf(t, ws, from)).toEqual({ bookedSeats: 0, seatsRemaining: 10 });
    expect(await seatsOf(t, ws, to)).toEqual({ bookedSeats: 3, seatsRemaining: 7 });
    expect(await getBooking(t, ws, booking.id)).toEqual(res.body.data);
  });

  it('changing the number of participants moves seats and reprices (add-ons kept)', async () => {
    const departure = await newDeparture(10);
    const booking = await book(t, ws, departure.id, {
      participants: participants(2),
      addOns: [{ id: 'helmet', quantity: 2 }],
    });
    expect(booking.totalAmount).toBe(2 * 4000 + 2 * 500);
    const grown = await patch(booking.id, { participants: participants(5, 'Grown') });
    expect(grown.status, JSON.stringify(grown.body)).toBe(200);
    expect(grown.body.data).toMatchObject({ participantCount: 5, totalAmount: 5 * 4000 + 2 * 500 });
    expect(grown.body.data.participants.map((p: any) => p.name)).toEqual(
      participants(5, 'Grown').map((p) => p.name),
    );
    expect(await seatsOf(t, ws, departure)).toEqual({ bookedSeats: 5, seatsRemaining: 5 });

    const shrunk = await patch(booking.id, { participants: participants(1) });
    expect(shrunk.body.data).toMatchObject({ participantCount: 1, totalAmount: 4000 + 2 * 500 });
    expect(await seatsOf(t, ws, departure)).toEqual({ bookedSeats: 1, seatsRemaining: 9 });
  });

  it('moving and resizing at once takes the new count on the target only', async () => {
    const from = await newDeparture(10);
    const to = await newDeparture(4, { startsAt: fromNow(46) });
    const booking = await book(t, ws, from.id, { participants: participants(2) });
    const res = await patch(booking.id, { availabilityId: to.id, participants: participants(4) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await seatsOf(t, ws, from)).toEqual({ bookedSeats: 0, seatsRemaining: 10 });
    expect(await seatsOf(t, ws, to)).toEqual({ bookedSeats: 4, seatsRemaining: 0 });
  });

  it('a target without enough seats is 409 and moves nothing', async () => {
    const from = await newDeparture(10);
    const to = await newDeparture(3, { startsAt: fromNow(47) });
    await book(t, ws, to.id, { participants: participants(2) });
    const booking = await book(t, ws, from.id, { participants: participants(2) });
    const before = await footprint(booking.id);
    expectError(await patch(booking.id, { availabilityId: to.id }), 409, 'CONFLICT', [
      detail('participants', 'insufficient_seats'),
    ]);
    // Growing beyond what remains on the own departure is refused the same way.
    await book(t, ws, from.id, { participants: participants(7) });
    expectError(await patch(booking.id, { participants: participants(4) }), 409, 'CONFLICT', [
      detail('participants', 'insufficient_seats'),
    ]);
    expect(await footprint(booking.id)).toEqual(before);
    expect(await seatsOf(t, ws, from)).toEqual({ bookedSeats: 9, seatsRemaining: 1 });
    expect(await seatsOf(t, ws, to)).toEqual({ bookedSeats: 2, seatsRemaining: 1 });
  });

  it('a CANCELLED booking cannot change: 422', async () => {
    const departure = await newDeparture();
    const booking = await book(t, ws, departure.id);
    await setStatus(t, ws, booking.id, 'CANCELLED');
    const before = await footprint(booking.id);
    expectError(await patch(booking.id, { notes: 'too late' }), 422, 'UNPROCESSABLE', [
      detail('status', 'invalid_state'),
    ]);
    expectError(await patch(booking.id, { participants: participants(2) }), 422, 'UNPROCESSABLE');
    expect(await footprint(booking.id)).toEqual(before);
    expect(await seatsOf(t, ws, departure)).toEqual({ bookedSeats: 0, seatsRemaining: 10 });
  });

  it('a departure of another tour is 422 different_tour', async () => {
    const otherTour = await createTour(t, ws, { name: 'Other Tour' });
    const elsewhere = await createDeparture(t, ws, otherTour.id);
    const departure = await newDeparture();
    const booking = await book(t, ws, departure.id);
    expectError(await patch(booking.id, { availabilityId: elsewhere.id }), 422, 'UNPROCESSABLE', [
      detail('availabilityId', 'different_tour'),
    ]);
    expect((await seatsOf(t, ws, elsewhere)).bookedSeats).toBe(0);
    expect((await seatsOf(t, ws, departure)).bookedSeats).toBe(1);
  });

  it('a stale If-Match is 409; the current ETag applies and answers the next one', async () => {
    const departure = await newDeparture();
    const booking = await book(t, ws, departure.id);
    const read = await t.request('GET', bookingsPath(ws, booking.id), { token: ws.token });
    const etag = read.headers.get('etag') as string;
    const changed = await patch(booking.id, { notes: 'first' }, { 'If-Match': etag });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.data.notes).toBe('first');
    const next = changed.headers.get('etag');
    expect(next).toMatch(/^"\d+"$/);
    expect(next).not.toBe(etag);

    const before = await footprint(booking.id);
    expectError(await patch(booking.id, { notes: 'second' }, { 'If-Match': etag }), 409, 'CONFLICT');
    expect(await footprint(booking.id)).toEqual(before);
    const again = await patch(booking.id, { notes: 'second' }, { 'If-Match': next as string });
    expect(again.status).toBe(200);
    expect(again.body.data.notes).toBe('second');
  });

  it('notes alone change nothing about seats or price; unknown fields are 400', async () => {
    const departure = await newDeparture();
    const booking = await book(t, ws, departure.id, { participants: participants(2) });
    const res = await patch(booking.id, { notes: 'allergic to bees' });
    expect(res.body.data).toMatchObject({
      notes: 'allergic to bees',
      totalAmount: 8000,
      participantCount: 2,
    });
    expect(await seatsOf(t, ws, departure)).toEqual({ bookedSeats: 2, seatsRemaining: 8 });
    expectError(await patch(booking.id, { status: 'CONFIRMED' }), 400, 'VALIDATION_ERROR', [
      detail('status', 'unknown_field'),
    ]);
  });
});

describe('checkInBooking', () => {
  const checkIn = (bookingId: string, body?: unknown) =>
    t.request('POST', bookingsPath(ws, bookingId, '/checkin'), { token: ws.token, body: body ?? {} });

  it('only a CONFIRMED booking checks in: PENDING is 422', async () => {
    const departure = await newDeparture();
    const booking = await book(t, ws, departure.id);
    expectError(await checkIn(booking.id), 422, 'UNPROCESSABLE', [detail('status', 'invalid_state')]);
    expect((await getBooking(t, ws, booking.id)).participants[0].checkedInAt).toBeNull();
  });

  it('a CANCELLED booking is 422', async () => {
    const departure = await newDeparture();
    const booking = await confirmedBooking(t, ws, departure.id);
    await setStatus(t, ws, booking.id, 'CANCELLED');
    expectError(await checkIn(booking.id), 422, 'UNPROCESSABLE', [detail('status', 'invalid_state')]);
  });

  it('without participantIds checks everyone in', async () => {
    const departure = await newDeparture();
    const booking = await confirmedBooking(t, ws, departure.id, { participants: participants(3) });
    const res = await checkIn(booking.id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.participants).toHaveLength(3);
    for (const p of res.body.data.participants) expect(p.checkedInAt).toMatch(ISO_MS);
    expect((await getBooking(t, ws, booking.id)).participants).toEqual(res.body.data.participants);
  });

  it('participantIds checks in only those, and a second check-in keeps the first time', async () => {
    const departure = await newDeparture();
    const booking = await confirmedBooking(t, ws, departure.id, { participants: participants(3) });
    const [first, second, third] = booking.participants;
    const res = await checkIn(booking.id, { participantIds: [second.id] });
    expect(res.status).toBe(200);
    const byId = (list: any[]) => Object.fromEntries(list.map((p) => [p.id, p.checkedInAt]));
    const after = byId(res.body.data.participants);
    expect(after[first.id]).toBeNull();
    expect(after[second.id]).toMatch(ISO_MS);
    expect(after[third.id]).toBeNull();

    const everyone = await checkIn(booking.id);
    const final = byId(everyone.body.data.participants);
    expect(final[second.id]).toBe(after[second.id]);
    expect(final[first.id]).toMatch(ISO_MS);
    expect(final[third.id]).toMatch(ISO_MS);
  });

  it('an unknown participant id is 422 and checks nobody in', async () => {
    const departure = await newDeparture();
    const booking = await confirmedBooking(t, ws, departure.id, { participants: participants(2) });
    const res = await checkIn(booking.id, {
      participantIds: [booking.participants[0].id, `ptc_${'0'.repeat(22)}`],
    });
    expectError(res, 422, 'UNPROCESSABLE', [detail('participantIds[1]', 'unknown_participant')]);
    for (const p of (await getBooking(t, ws, booking.id)).participants) expect(p.checkedInAt).toBeNull();
  });
});

describe('rotateBookingPublicToken', () => {
  it('hands out a new token; the old one is 404 at once and the new one works', async () => {
    const departure = await newDeparture();
    const booking = await book(t, ws, departure.id);
    expect((await t.request('GET', `/public/bookings/${booking.publicToken}`)).status).toBe(200);
    const res = await t.request('POST', bookingsPath(ws, booking.id, '/public-token'), { token: ws.token });
    expect(res.status).toBe(200);
    const fresh = res.body.data.publicToken;
    expect(fresh).toMatch(/^[0-9A-Za-z]{32,}$/);
    expect(fresh).not.toBe(booking.publicToken);
    expectError(await t.request('GET', `/public/bookings/${booking.publicToken}`), 404, 'NOT_FOUND');
    const guest = await t.request('GET', `/public/bookings/${fresh}`);
    expect(guest.status).toBe(200);
    expect(guest.body.data.id).toBe(booking.id);
  });
});

describe('hold expiry', () => {
  it('a create that needs the seats of an expired hold releases it first (booking.expired) and succeeds', async () => {
    const departure = await newDeparture(3);
    const stale = await book(t, ws, departure.id, { participants: participants(3) });
    await expireHold(t, stale.id);
    const res = await t.request('POST', bookingsPath(ws), {
      token: ws.token,
      body: bookingInput(departure.id, { participants: participants(2) }),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(await getBooking(t, ws, stale.id)).toMatchObject({
      status: 'CANCELLED',
      cancellationReason: 'EXPIRED',
      cancelledAt: expect.stringMatching(ISO_MS),
      expiresAt: null,
    });
    expect(await eventTypesOf(t, stale.id)).toEqual(['booking.created', 'booking.expired']);
    const expired = (await eventsOf(t, stale.id))[1];
    expect(expired.data).toMatchObject({ id: stale.id, status: 'CANCELLED', cancellationReason: 'EXPIRED' });
    expect((await historyOf(t, ws, stale.id)).at(-1)).toMatchObject({
      fromStatus: 'PENDING',
      toStatus: 'CANCELLED',
      reason: 'EXPIRED',
      actor: { type: 'system', id: null },
    });
    expect(await seatsOf(t, ws, departure)).toEqual({ bookedSeats: 2, seatsRemaining: 1 });
  });

  it('a hold that has not expired still counts: 409', async () => {
    const departure = await newDeparture(2);
    const live = await book(t, ws, departure.id, { participants: participants(2) });
    expectError(
      await t.request('POST', bookingsPath(ws), { token: ws.token, body: bookingInput(departure.id) }),
      409,
      'CONFLICT',
      [detail('participants', 'insufficient_seats')],
    );
    expect((await getBooking(t, ws, live.id)).status).toBe('PENDING');
  });

  it('the worker job cancels expired holds (reason EXPIRED) and releases their seats, nothing else', async () => {
    const departure = await newDeparture(10);
    const expiring = await book(t, ws, departure.id, { participants: participants(2) });
    const expiringLink = await book(t, ws, departure.id, { paymentMode: 'PAYMENT_LINK' });
    const live = await book(t, ws, departure.id);
    const manual = await book(t, ws, departure.id, { paymentMode: 'MANUAL' });
    const confirmed = await book(t, ws, departure.id);
    await setStatus(t, ws, confirmed.id, 'CONFIRMED');
    await expireHold(t, expiring.id);
    await expireHold(t, expiringLink.id);
    expect(await seatsOf(t, ws, departure)).toEqual({ bookedSeats: 6, seatsRemaining: 4 });

    const due = await t.api.database
      .knex('bookings')
      .where({ status: 'PENDING' })
      .where('expires_at', '<=', new Date())
      .count('* as n');
    const expired = await expireHolds({
      uow: createUnitOfWork(t.api.database.knex),
      clock: { now: () => new Date() },
    });
    expect(expired).toBe(Number(due[0]?.n));
    expect(expired).toBeGreaterThanOrEqual(2);

    for (const booking of [expiring, expiringLink]) {
      expect(await getBooking(t, ws, booking.id)).toMatchObject({
        status: 'CANCELLED',
        cancellationReason: 'EXPIRED',
      });
      expect(await eventTypesOf(t, booking.id)).toEqual(['booking.created', 'booking.expired']);
    }
    expect((await getBooking(t, ws, live.id)).status).toBe('PENDING');
    expect((await getBooking(t, ws, manual.id)).status).toBe('PENDING');
    expect((await getBooking(t, ws, confirmed.id)).status).toBe('CONFIRMED');
    expect(await seatsOf(t, ws, departure)).toEqual({ bookedSeats: 3, seatsRemaining: 7 });

    // Run again: nothing left to do.
    expect(
      await expireHolds({ uow: createUnitOfWork(t.api.database.knex), clock: { now: () => new Date() } }),
    ).toBe(0);
    expect(await eventTypesOf(t, expiring.id)).toEqual(['booking.created', 'booking.expired']);
  });
});
