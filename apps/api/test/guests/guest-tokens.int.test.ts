import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookingInput, bookingsPath, getBooking, participants } from '../support/booking-fixtures.js';
import { createDeparture, createTour, expectError, type TestWorkspace } from '../support/fixtures.js';
import { startTestApi, type TestApi } from '../support/harness.js';

// A guest's token is the access: one answer, 404, for a token that never was and for one the
// operator rotated, on every guest endpoint that takes one, whatever the booking's state.
let t: TestApi;
let ws: TestWorkspace;
let departure: any;
beforeAll(async () => {
  t = await startTestApi();
  ws = await t.createWorkspace('ADMIN');
  const tour = await createTour(t, ws, { slug: 'token-walk', isPublic: true, basePrice: 4_000 });
  departure = await createDeparture(t, ws, tour.id, { capacity: 100 });
});
afterAll(() => t.close());

async function guestBooking() {
  const res = await t.request('POST', `/public/${ws.slug}/bookings`, {
    body: bookingInput(departure.id, { participants: participants(1) }),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

const form = (fields: Record<string, string>) => ({
  headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});

/** The JSON endpoints of /public/bookings/{publicToken}: the spec's error envelope. */
const JSON_ENDPOINTS = [
  ['GET', '', undefined],
  ['POST', '/waiver', (participantId: string) => ({ participantId, signedName: 'Ada', accepted: true })],
  ['POST', '/payment/retry', undefined],
  ['POST', '/payment/balance', undefined],
  ['POST', '/cancel', () => ({ reason: 'Plans changed' })],
] as const;

/** The guest's pages (/b/{publicToken}) and the reminder's unsubscribe link: the not-found page. */
const PAGES: Array<[string, string, RequestInit?]> = [
  ['GET', '/b/{t}'],
  ['GET', '/b/{t}/booking.ics'],
  [
    'POST',
    '/b/{t}/waiver',
    form({ participantId: 'ptc_0000000000000000000000', signedName: 'Ada', accepted: 'yes' }),
  ],
  ['POST', '/b/{t}/pay', form({})],
  ['POST', '/b/{t}/cancel', form({ confirm: 'yes' })],
  ['GET', '/mail/unsubscribe/{t}'],
  ['POST', '/mail/unsubscribe/{t}', form({ 'List-Unsubscribe': 'One-Click' })],
];

async function expectEveryEndpointNotFound(token: string, participantId: string) {
  for (const [method, suffix, body] of JSON_ENDPOINTS) {
    const res = await t.request(method, `/public/bookings/${token}${suffix}`, {
      ...(body && { body: body(participantId) }),
    });
    expectError(res, 404, 'NOT_FOUND');
  }
  for (const [method, path, init] of PAGES) {
    const res = await fetch(`${t.baseUrl}${path.replace('{t}', token)}`, {
      method,
      redirect: 'manual',
      ...init,
    });
    expect(res.status, `${method} ${path}`).toBe(404);
    expect(res.headers.get('content-type'), `${method} ${path}`).toMatch(/^text\/html/);
  }
}

describe('an unknown or rotated guest token', () => {
  it('an unknown token is 404 on every guest endpoint', async () => {
    const booking = await guestBooking();
    await expectEveryEndpointNotFound('x'.repeat(32), booking.participants[0].id);
  });

  it('a rotated token is 404 on every guest endpoint, and changes nothing', async () => {
    const booking = await guestBooking();
    const rotated = await t.request('POST', bookingsPath(ws, booking.id, '/public-token'), {
      token: ws.token,
    });
    expect(rotated.status).toBe(200);
    await expectEveryEndpointNotFound(booking.publicToken, booking.participants[0].id);
    expect(await getBooking(t, ws, booking.id)).toMatchObject({
      status: 'PENDING',
      participants: [expect.objectContaining({ waiverSigned: false })],
    });
    const fresh = await t.request('GET', `/public/bookings/${rotated.body.data.publicToken}`);
    expect(fresh.status).toBe(200);
  });

  it('an unknown payment page token is 404 on the payment and sandbox pages', async () => {
    const token = 'y'.repeat(32);
    for (const [method, path, init] of [
      ['GET', `/pay/${token}`],
      ['GET', `/pay/${token}/done`],
      ['GET', `/sandbox/pay/${token}`],
      ['POST', `/sandbox/pay/${token}`, form({ outcome: 'succeeded' })],
    ] as Array<[string, string, RequestInit?]>) {
      const res = await fetch(`${t.baseUrl}${path}`, { method, redirect: 'manual', ...init });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
  });

  // The token is found, then the booking locked: one rotated in between opens nothing either.
  it.each(JSON_ENDPOINTS.filter(([method]) => method === 'POST'))(
    'rotated while %s %s waited for the booking: 404, and nothing done',
    async (method, suffix, body) => {
      const booking = await guestBooking();
      const knex = t.api.database.knex;
      const sessions = () => knex('payment_sessions').where({ booking_id: booking.id }).count({ n: '*' });
      const sessionsBefore = await sessions();
      const holder = await knex.transaction();
      await holder('bookings').where({ id: booking.id }).forUpdate().first();
      const answer = t.request(method, `/public/bookings/${booking.publicToken}${suffix}`, {
        ...(body && { body: body(booking.participants[0].id) }),
      });
      await untilWaitingForLock();
      await holder('bookings')
        .where({ id: booking.id })
        .update({ public_token: `rotated${booking.publicToken}` });
      await holder.commit();
      expectError(await answer, 404, 'NOT_FOUND');
      expect(await getBooking(t, ws, booking.id)).toMatchObject({
        status: 'PENDING',
        participants: [expect.objectContaining({ waiverSigned: false })],
      });
      expect(await sessions()).toEqual(sessionsBefore);
    },
  );
});

/** Until a request of this database waits for a row lock (the holder's transaction). */
async function untilWaitingForLock(): Promise<void> {
  for (;;) {
    const { rows } = await t.api.database.knex.raw(
      `select count(*)::int as waiting from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock' and wait_event = 'transactionid'`,
    );
    if (rows[0].waiting > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
