import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  book,
  bookingInput,
  countRows,
  getBooking,
  historyOf,
  participants,
  seatsOf,
  setStatus,
} from '../support/booking-fixtures.js';
import {
  createDeparture,
  createTour,
  detail,
  expectError,
  ISO_MS,
  type TestWorkspace,
} from '../support/fixtures.js';
import { startTestApi, type TestApi, type TestResponse } from '../support/harness.js';

let t: TestApi;
let ws: TestWorkspace;
let other: TestWorkspace;
let published: any;
let departure: any;
let draftDeparture: any;
let foreignDeparture: any;
beforeAll(async () => {
  t = await startTestApi();
  ws = await t.createWorkspace('ADMIN');
  other = await t.createWorkspace('ADMIN');
  published = await createTour(t, ws, {
    name: 'Aurora Night',
    slug: 'aurora-night',
    isPublic: true,
    basePrice: 12_000,
    currency: 'ISK',
  });
  const draft = await createTour(t, ws, { name: 'Draft Tour', slug: 'draft-tour' });
  departure = await createDeparture(t, ws, published.id, { capacity: 30 });
  draftDeparture = await createDeparture(t, ws, draft.id);
  const foreignTour = await createTour(t, other, { name: 'Foreign', isPublic: true });
  foreignDeparture = await createDeparture(t, other, foreignTour.id);
});
afterAll(() => t.close());

const publicBook = (body: unknown, slug = ws.slug) => t.request('POST', `/public/${slug}/bookings`, { body });

async function publicBooking(overrides: Record<string, unknown> = {}) {
  const res = await publicBook(bookingInput(departure.id, overrides));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

const expectGuestHeaders = (res: TestResponse) => {
  expect(res.headers.get('cache-control')).toBe('no-store');
  expect(res.headers.get('referrer-policy')).toBe('no-referrer');
};

describe('createPublicBooking', () => {
  it('books a published tour without a credential: PENDING, checkoutUrl, publicToken, guest headers', async () => {
    const res = await publicBook(bookingInput(departure.id, { participants: participants(2) }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expectGuestHeaders(res);
    const booking = res.body.data;
    expect(booking).toMatchObject({
      id: expect.stringMatching(/^bkg_/),
      status: 'PENDING',
      paymentStatus: 'UNPAID',
      paymentMode: 'CHECKOUT',
      totalAmount: 24_000,
      currency: 'ISK',
      startsAt: departure.startsAt,
      tour: {
        id: published.id,
        name: 'Aurora Night',
        meetingPoint: null,
        durationMinutes: 90,
        timeZone: 'UTC',
      },
      participantCount: 2,
      expiresAt: expect.stringMatching(ISO_MS),
      publicToken: expect.stringMatching(/^[0-9A-Za-z]{32,}$/),
      checkoutUrl: expect.stringMatching(/\/sandbox\/pay\/[0-9A-Za-z]+$/),
    });
    expect(booking).not.toHaveProperty('paymentLinkUrl');
    // The operator sees the same booking, in the operator's view.
    expect(await getBooking(t, ws, booking.id)).toMatchObject({
      id: booking.id,
      status: booking.status,
      totalAmount: booking.totalAmount,
      publicToken: booking.publicToken,
      availabilityId: departure.id,
    });
    expect((await historyOf(t, ws, booking.id))[0]).toMatchObject({
      toStatus: 'PENDING',
      actor: { type: 'guest', id: null },
    });
    expect(await countRows(t, 'outbox_events', { aggregate_id: booking.id, type: 'booking.created' })).toBe(
      1,
    );
  });

  it('DEPOSIT is allowed: the checkout is for the deposit', async () => {
    const booking = await publicBooking({ paymentMode: 'DEPOSIT' });
    expect(booking).toMatchObject({ paymentMode: 'DEPOSIT', checkoutUrl: expect.any(String) });
    const session = await t.api.database.knex('payment_sessions').where({ booking_id: booking.id }).first();
    expect(Number(session.amount)).toBe(2_400);
  });

  it.each(['MANUAL', 'PAYMENT_LINK'])('paymentMode %s is 422 not_allowed for guests', async (paymentMode) => {
    const before = await seatsOf(t, ws, departure);
    const res = await publicBook(bookingInput(departure.id, { paymentMode }));
    expectError(res, 422, 'UNPROCESSABLE', [detail('paymentMode', 'not_allowed')]);
    expect(await seatsOf(t, ws, departure)).toEqual(before);
  });

  it('a tour that is not published is 422 and takes no seat', async () => {
    const res = await publicBook(bookingInput(draftDeparture.id));
    expectError(res, 422, 'UNPROCESSABLE', [detail('availabilityId', 'not_found')]);
    expect(JSON.stringify(res.body)).not.toContain('Draft Tour');
    expect(await countRows(t, 'bookings', { availability_id: draftDeparture.id })).toBe(0);
  });

  it("another workspace's departure under this slug is 422", async () => {
    expectError(await publicBook(bookingInput(foreignDeparture.id)), 422, 'UNPROCESSABLE', [
      detail('availabilityId', 'not_found'),
    ]);
    expect(await countRows(t, 'bookings', { availability_id: foreignDeparture.id })).toBe(0);
  });

  it('an unknown workspace slug is 404', async () => {
    expectError(await publicBook(bookingInput(departure.id), 'no-such-operator'), 404, 'NOT_FOUND');
  });

  it('a sold-out departure is 409 CONFLICT', async () => {
    const small = await createDeparture(t, ws, published.id, { capacity: 2 });
    await publicBooking({ availabilityId: small.id, participants: participants(2) });
    const res = await publicBook(bookingInput(small.id));
    expectError(res, 409, 'CONFLICT', [detail('participants', 'insufficient_seats')]);
    expect(await seatsOf(t, ws, small)).toEqual({ bookedSeats: 2, seatsRemaining: 0 });
  });

  it('input is validated as for createBooking (400)', async () => {
    expectError(await publicBook(bookingInput(departure.id, { participants: [] })), 400, 'VALIDATION_ERROR', [
      detail('participants', 'too_short'),
    ]);
    expectError(await publicBook(bookingInput(departure.id, { admin: true })), 400, 'VALIDATION_ERROR', [
      detail('admin', 'unknown_field'),
    ]);
  });
});

describe("a guest's words are the guest's", () => {
  it("a public booking's notes are stored as guestMessage, and its internal notes stay null", async () => {
    const created = await publicBooking({ notes: 'VIP, do not charge (signed: Manager)' });
    const operatorView = await getBooking(t, ws, created.id);
    expect(operatorView).toMatchObject({ notes: null, guestMessage: 'VIP, do not charge (signed: Manager)' });
    const [row] = await t.api.database
      .knex('bookings')
      .where({ id: created.id })
      .select('notes', 'guest_message');
    expect(row).toEqual({ notes: null, guest_message: 'VIP, do not charge (signed: Manager)' });
    // The manifest and its CSV show them as the guest's, not in the operator's notes.
    const path = `/workspaces/${ws.workspaceId}/availability/${departure.id}/manifest`;
    const manifest = await t.request('GET', path, { token: ws.token });
    const entry = manifest.body.data.bookings.find((b: any) => b.id === created.id);
    expect(entry).toMatchObject({ notes: null, guestMessage: 'VIP, do not charge (signed: Manager)' });
    const csv = await t.request('GET', path, { token: ws.token, headers: { accept: 'text/csv' } });
    const line = (csv.body as string).split('\r\n').find((l) => l.startsWith(`"${created.id}"`));
    expect(line).toMatch(/,"","VIP, do not charge \(signed: Manager\)"$/);
  });

  it("a guest's message is at most 1 000 characters (400 too_long)", async () => {
    await publicBooking({ notes: 'x'.repeat(1000) });
    const res = await publicBook(bookingInput(departure.id, { notes: 'x'.repeat(1001) }));
    expectError(res, 400, 'VALIDATION_ERROR', [detail('notes', 'too_long')]);
  });

  it('externalReference on the public path is 400 unknown_field and takes no seat', async () => {
    const before = await seatsOf(t, ws, departure);
    const res = await publicBook(bookingInput(departure.id, { externalReference: 'PARTNER-1042' }));
    expectError(res, 400, 'VALIDATION_ERROR', [detail('externalReference', 'unknown_field')]);
    expect(await seatsOf(t, ws, departure)).toEqual(before);
    expect(await countRows(t, 'bookings', { external_reference: 'PARTNER-1042' })).toBe(0);
  });

  it('the native path still takes internal notes and an externalReference', async () => {
    const created = await book(t, ws, departure.id, {
      notes: 'Owner is a regular',
      externalReference: 'NATIVE-7',
    });
    expect(await getBooking(t, ws, created.id)).toMatchObject({
      notes: 'Owner is a regular',
      guestMessage: null,
      externalReference: 'NATIVE-7',
    });
  });

  it('the OpenAPI document gives the public path a body without externalReference', async () => {
    const doc = (await t.request('GET', '/openapi.json')).body;
    const op = doc.paths['/public/{workspaceSlug}/bookings'].post;
    const ref = op.requestBody.content['application/json'].schema.$ref as string;
    const body = doc.components.schemas[ref.split('/').pop() as string];
    expect(body.additionalProperties).toBe(false);
    expect(Object.keys(body.properties)).not.toContain('externalReference');
    expect(body.properties.notes.maxLength).toBe(1000);
    expect(op.description).toMatch(/unknown_field/);
    expect(Object.keys(doc.components.schemas.Booking.properties)).toContain('guestMessage');
  });
});

describe('getPublicBooking', () => {
  it('shows the booking to whoever holds the token, with guest headers', async () => {
    const booking = await publicBooking();
    const res = await t.request('GET', `/public/bookings/${booking.publicToken}`);
    expect(res.status).toBe(200);
    expectGuestHeaders(res);
    const { checkoutUrl: _link, ...stored } = booking;
    expect(res.body).toEqual({ data: stored });
  });

  it('an unknown token is 404 with the same body as any other unknown token', async () => {
    const booking = await publicBooking();
    const near = `${booking.publicToken.slice(0, -1)}${booking.publicToken.endsWith('A') ? 'B' : 'A'}`;
    const answers = [];
    for (const token of [near, 'x'.repeat(32), 'short', booking.publicToken.toLowerCase()]) {
      if (token === booking.publicToken) continue;
      const res = await t.request('GET', `/public/bookings/${token}`);
      expectError(res, 404, 'NOT_FOUND');
      const { requestId: _id, ...error } = res.body.error;
      answers.push(error);
    }
    expect(answers.length).toBeGreaterThanOrEqual(3);
    for (const answer of answers) expect(answer).toEqual(answers[0]);
  });
});

describe('signPublicBookingWaiver', () => {
  const sign = (publicToken: string, body: unknown) =>
    t.request('POST', `/public/bookings/${publicToken}/waiver`, { body });

  it("signs one participant's waiver and no one else's", async () => {
    const booking = await publicBooking({ participants: participants(3) });
    const [first, second, third] = booking.participants;
    const res = await sign(booking.publicToken, {
      participantId: second.id,
      signedName: 'Guest 2',
      accepted: true,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expectGuestHeaders(res);
    const signed = Object.fromEntries(res.body.data.participants.map((p: any) => [p.id, p.waiverSigned]));
    expect(signed).toEqual({ [first.id]: false, [second.id]: true, [third.id]: false });
    expect(
      (await getBooking(t, ws, booking.id)).participants.map((p: any) => [p.id, p.waiverSigned]),
    ).toEqual(res.body.data.participants.map((p: any) => [p.id, p.waiverSigned]));
    expect((await historyOf(t, ws, booking.id)).at(-1)).toMatchObject({
      actor: { type: 'guest', id: null },
      reason: expect.stringContaining('Guest 2'),
    });
  });

  it.each([
    ['accepted false', { accepted: false }, 'accepted'],
    ['accepted missing', { accepted: undefined }, 'accepted'],
    ['no signed name', { signedName: '' }, 'signedName'],
    ['an unknown field', { extra: 1 }, 'extra'],
  ])('%s is 400 and signs nothing', async (_label, overrides, field) => {
    const booking = await publicBooking();
    const body = {
      participantId: booking.participants[0].id,
      signedName: 'Guest 1',
      accepted: true,
      ...overrides,
    };
    const res = await sign(booking.publicToken, JSON.parse(JSON.stringify(body)));
    expectError(res, 400, 'VALIDATION_ERROR');
    expect(new Set(res.body.error.details.map((d: { field: string }) => d.field))).toEqual(new Set([field]));
    expect((await getBooking(t, ws, booking.id)).participants[0].waiverSigned).toBe(false);
  });

  it('an unknown participant is 422', async () => {
    const booking = await publicBooking();
    expectError(
      await sign(booking.publicToken, {
        participantId: `ptc_${'0'.repeat(22)}`,
        signedName: 'X',
        accepted: true,
      }),
      422,
      'UNPROCESSABLE',
      [detail('participantId', 'unknown_participant')],
    );
  });

  it("another booking's participant is 422", async () => {
    const mine = await publicBooking();
    const theirs = await publicBooking();
    expectError(
      await sign(mine.publicToken, {
        participantId: theirs.participants[0].id,
        signedName: 'X',
        accepted: true,
      }),
      422,
      'UNPROCESSABLE',
      [detail('participantId', 'unknown_participant')],
    );
    expect((await getBooking(t, ws, theirs.id)).participants[0].waiverSigned).toBe(false);
  });

  it('a cancelled booking is 422', async () => {
    const booking = await publicBooking();
    await setStatus(t, ws, booking.id, 'CANCELLED');
    expectError(
      await sign(booking.publicToken, {
        participantId: booking.participants[0].id,
        signedName: 'Guest 1',
        accepted: true,
      }),
      422,
      'UNPROCESSABLE',
      [detail('status', 'invalid_state')],
    );
    expect((await getBooking(t, ws, booking.id)).participants[0].waiverSigned).toBe(false);
  });

  it('an unknown token is 404', async () => {
    expectError(
      await sign('x'.repeat(32), { participantId: `ptc_${'0'.repeat(22)}`, signedName: 'X', accepted: true }),
      404,
      'NOT_FOUND',
    );
  });
});
