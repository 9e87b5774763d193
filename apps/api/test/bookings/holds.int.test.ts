import { createUnitOfWork } from '@travelops/db';
import { expireHolds } from '@travelops/domain/bookings';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  book,
  bookingsPath,
  confirmedBooking,
  eventTypesOf,
  expireHold,
  getBooking,
  historyOf,
  MINUTE,
  participants,
  seatsOf,
  setStatus,
} from '../support/booking-fixtures.js';
import { createDeparture, createTour, detail, expectError, type TestWorkspace } from '../support/fixtures.js';
import { startTestApi, type TestApi } from '../support/harness.js';

let t: TestApi;
let ws: TestWorkspace;
let tour: any;
let departure: any;
beforeAll(async () => {
  t = await startTestApi();
  ws = await t.createWorkspace('ADMIN');
  tour = await createTour(t, ws, { capacity: 200 });
  departure = await createDeparture(t, ws, tour.id, { capacity: 200 });
});
afterAll(() => t.close());

const extend = (bookingId: string, body: unknown) =>
  t.request('POST', bookingsPath(ws, bookingId, '/extend'), { token: ws.token, body });

const sessionsOf = (bookingId: string) =>
  t.api.database.knex('payment_sessions').where({ booking_id: bookingId }).orderBy('created_at');

const runExpiryJob = () =>
  expireHolds({ uow: createUnitOfWork(t.api.database.knex), clock: { now: () => new Date() } });

describe('POST .../bookings/{bookingId}/extend', () => {
  it('adds the minutes to a PENDING hold; its checkout page expires with it; history and booking.updated', async () => {
    const booking = await book(t, ws, departure.id);
    const res = await extend(booking.id, { minutes: 15 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const expiresAt = new Date(Date.parse(booking.expiresAt) + 15 * MINUTE).toISOString();
    expect(res.body.data).toMatchObject({ id: booking.id, status: 'PENDING', expiresAt });
    expect(res.headers.get('etag')).not.toBe(null);
    expect(await getBooking(t, ws, booking.id)).toMatchObject({ expiresAt });
    const [session] = await sessionsOf(booking.id);
    expect(session).toMatchObject({ status: 'OPEN' });
    expect(new Date(session.expires_at).toISOString()).toBe(expiresAt);
    expect((await historyOf(t, ws, booking.id)).at(-1)).toMatchObject({
      fromStatus: 'PENDING',
      toStatus: 'PENDING',
      reason: `HOLD_EXTENDED until ${expiresAt}`,
      actor: { type: 'api_token' },
    });
    expect((await eventTypesOf(t, booking.id)).at(-1)).toBe('booking.updated');
  });

  it('never beyond 60 minutes past now: extending a 30-minute hold by 60 stops at now + 60', async () => {
    const booking = await book(t, ws, departure.id);
    const before = Date.now();
    const res = await extend(booking.id, { minutes: 60 });
    const after = Date.now();
    const expiresAt = Date.parse(res.body.data.expiresAt);
    expect(expiresAt).toBeGreaterThanOrEqual(before + 60 * MINUTE);
    expect(expiresAt).toBeLessThanOrEqual(after + 60 * MINUTE);
    // Asking again changes nothing more than the clock moved.
    const again = await extend(booking.id, { minutes: 60 });
    expect(Date.parse(again.body.data.expiresAt)).toBeLessThanOrEqual(Date.now() + 60 * MINUTE);
  });

  it('ten concurrent one-minute extends all count: they serialise on the booking', async () => {
    const booking = await book(t, ws, departure.id);
    const answers = await Promise.all(Array.from({ length: 10 }, () => extend(booking.id, { minutes: 1 })));
    expect(answers.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect((await getBooking(t, ws, booking.id)).expiresAt).toBe(
      new Date(Date.parse(booking.expiresAt) + 10 * MINUTE).toISOString(),
    );
  });

  it('a hold already reaching further (24 h payment link) stays as it is: 200, unchanged, nothing recorded', async () => {
    const booking = await book(t, ws, departure.id, { paymentMode: 'PAYMENT_LINK' });
    const history = await historyOf(t, ws, booking.id);
    const res = await extend(booking.id, { minutes: 30 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.expiresAt).toBe(booking.expiresAt);
    expect(await historyOf(t, ws, booking.id)).toEqual(history);
  });

  it('an expired hold is 422 hold_expired; the seats stay held until the worker releases them', async () => {
    const small = await createDeparture(t, ws, tour.id, { capacity: 4 });
    const booking = await book(t, ws, small.id, { participants: participants(2) });
    await expireHold(t, booking.id);
    expectError(await extend(booking.id, { minutes: 10 }), 422, 'UNPROCESSABLE', [
      detail('expiresAt', 'hold_expired'),
    ]);
    expect(await getBooking(t, ws, booking.id)).toMatchObject({ status: 'PENDING' });
    expect(await seatsOf(t, ws, small)).toEqual({ bookedSeats: 2, seatsRemaining: 2 });
    await runExpiryJob();
    expectError(await extend(booking.id, { minutes: 10 }), 422, 'UNPROCESSABLE', [
      detail('status', 'invalid_state'),
    ]);
    expect(await seatsOf(t, ws, small)).toEqual({ bookedSeats: 0, seatsRemaining: 4 });
  });

  it('a booking that left PENDING is 422 invalid_state; a MANUAL hold without expiry is 422 no_hold', async () => {
    const confirmed = await confirmedBooking(t, ws, departure.id);
    expectError(await extend(confirmed.id, { minutes: 5 }), 422, 'UNPROCESSABLE', [
      detail('status', 'invalid_state'),
    ]);
    const cancelled = await book(t, ws, departure.id);
    expect((await setStatus(t, ws, cancelled.id, 'CANCELLED')).status).toBe(200);
    expectError(await extend(cancelled.id, { minutes: 5 }), 422, 'UNPROCESSABLE', [
      detail('status', 'invalid_state'),
    ]);
    const manual = await book(t, ws, departure.id, { paymentMode: 'MANUAL' });
    expectError(await extend(manual.id, { minutes: 5 }), 422, 'UNPROCESSABLE', [
      detail('expiresAt', 'no_hold'),
    ]);
  });

  it.each([
    ['0 minutes', { minutes: 0 }, 'minutes', 'out_of_range'],
    ['61 minutes', { minutes: 61 }, 'minutes', 'out_of_range'],
    ['a fraction', { minutes: 1.5 }, 'minutes', 'not_integer'],
    ['text', { minutes: '10' }, 'minutes', 'invalid_type'],
    ['no minutes', {}, 'minutes', 'required'],
    ['an unknown field', { minutes: 5, until: 'later' }, 'until', 'unknown_field'],
  ])('%s is 400 and extends nothing', async (_label, body, field, issue) => {
    const booking = await book(t, ws, departure.id);
    expectError(await extend(booking.id, body), 400, 'VALIDATION_ERROR', [detail(field, issue)]);
    expect((await getBooking(t, ws, booking.id)).expiresAt).toBe(booking.expiresAt);
  });

  it('an unknown booking is 404', async () => {
    expectError(await extend(`bkg_${'0'.repeat(22)}`, { minutes: 5 }), 404, 'NOT_FOUND');
  });
});

describe('extend racing the hold-expiry job', () => {
  it('every hold is either extended or expired, never both; seats stay exact', async () => {
    const race = await createDeparture(t, ws, tour.id, { capacity: 60 });
    const holds = [];
    for (let i = 0; i < 20; i++)
      holds.push(await book(t, ws, race.id, { participants: participants(1 + (i % 3)) }));
    // Every hold runs out about 600 ms from now, each a little apart; the extends are sent from
    // well before to well after each expiry, while the job runs again and again.
    const start = Date.now();
    const expiry = (i: number) => start + 600 + i * 15;
    const knex = t.api.database.knex;
    for (const [i, hold] of holds.entries()) {
      await knex('bookings')
        .where({ id: hold.id })
        .update({ expires_at: new Date(expiry(i)) });
      await knex('payment_sessions')
        .where({ booking_id: hold.id })
        .update({ expires_at: new Date(expiry(i)) });
    }
    let racing = true;
    const job = (async () => {
      let runs = 0;
      while (racing) {
        await runExpiryJob();
        runs++;
      }
      return runs;
    })();
    const outcomes = await Promise.all(
      holds.map(async (hold, i) => {
        const sendAt = expiry(i) - 300 + ((i * 37) % 20) * 30;
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, sendAt - Date.now())));
        return extend(hold.id, { minutes: 30 });
      }),
    );
    racing = false;
    expect(await job).toBeGreaterThan(0);
    await runExpiryJob();

    const extended: string[] = [];
    const expired: string[] = [];
    for (const [i, hold] of holds.entries()) {
      const res = outcomes[i];
      const now = await getBooking(t, ws, hold.id);
      const types = await eventTypesOf(t, hold.id);
      const why = `${hold.id}: extend ${res?.status} ${JSON.stringify(res?.body)}; booking ${now.status}`;
      if (res?.status === 200) {
        extended.push(hold.id);
        expect(now, why).toMatchObject({ status: 'PENDING', expiresAt: res.body.data.expiresAt });
        expect(Date.parse(now.expiresAt), why).toBeGreaterThan(Date.now());
        expect(types, why).not.toContain('booking.expired');
      } else {
        expired.push(hold.id);
        expect(res?.status, why).toBe(422);
        expect(['hold_expired', 'invalid_state'], why).toContain(res?.body.error.details[0].issue);
        expect(now, why).toMatchObject({ status: 'CANCELLED', cancellationReason: 'EXPIRED' });
        expect(
          types.filter((type) => type === 'booking.expired'),
          why,
        ).toHaveLength(1);
      }
    }
    // The race really ran both ways.
    expect(extended.length).toBeGreaterThan(0);
    expect(expired.length).toBeGreaterThan(0);
    const held = holds
      .filter((hold) => extended.includes(hold.id))
      .reduce((sum, hold) => sum + hold.participantCount, 0);
    expect(await seatsOf(t, ws, race)).toEqual({ bookedSeats: held, seatsRemaining: 60 - held });
  });
});
