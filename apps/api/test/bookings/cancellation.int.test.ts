import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  book,
  bookingsPath,
  confirmedBooking,
  eventsOf,
  eventTypesOf,
  getBooking,
  HOUR,
  historyOf,
  participants,
  pay,
  seatsOf,
  setStatus,
} from '../support/booking-fixtures.js';
import {
  createDeparture,
  createTour,
  detail,
  expectError,
  fromNow,
  type TestWorkspace,
} from '../support/fixtures.js';
import { startTestApi, type TestApi, type TestResponse } from '../support/harness.js';

let t: TestApi;
let ws: TestWorkspace;
beforeAll(async () => {
  t = await startTestApi();
  ws = await t.createWorkspace('ADMIN');
});
afterAll(() => t.close());

type Policy = { cutoffHours: number; refund: 'FULL' | 'PARTIAL' | 'NONE'; refundPercent?: number };

/** A tour with the policy, a departure `startsIn` hours ahead, and its booking paid in full. */
async function paidBooking(
  policy: Policy | undefined,
  options: { price?: number; guests?: number; startsIn?: number } = {},
) {
  const tour = await createTour(t, ws, {
    basePrice: options.price ?? 10_000,
    capacity: 20,
    ...(policy && { cancellationPolicy: policy }),
  });
  const departure = await createDeparture(t, ws, tour.id, {
    capacity: 20,
    startsAt: fromNow(0, options.startsIn ?? 24 * 30),
  });
  const booking = await book(t, ws, departure.id, { participants: participants(options.guests ?? 1) });
  const paid = await pay(t, booking.checkoutUrl);
  expect(paid.status, JSON.stringify(paid.body)).toBe(200);
  return { tour, departure, booking: await getBooking(t, ws, booking.id) };
}

const guestCancel = (publicToken: string, body?: unknown) =>
  t.request('POST', `/public/bookings/${publicToken}/cancel`, body === undefined ? {} : { body });

const refundsOf = async (bookingId: string) =>
  (await t.api.database.knex('payments').where({ booking_id: bookingId, kind: 'REFUND' }).orderBy('seq')).map(
    (row) => ({ amount: Number(row.amount), reason: row.reason }),
  );

const expectGuestHeaders = (res: TestResponse) => {
  expect(res.headers.get('cache-control')).toBe('no-store');
  expect(res.headers.get('referrer-policy')).toBe('no-referrer');
};

describe('bookings show the cancellation policy they were made under', () => {
  it('the tour policy is copied at booking; cancellationCutoffAt is startsAt less cutoffHours; cancellable now', async () => {
    const { tour, departure, booking } = await paidBooking({
      cutoffHours: 48,
      refund: 'PARTIAL',
      refundPercent: 50,
    });
    expect(booking).toMatchObject({
      cancellationPolicy: { cutoffHours: 48, refund: 'PARTIAL', refundPercent: 50 },
      cancellationCutoffAt: new Date(Date.parse(departure.startsAt) - 48 * HOUR).toISOString(),
      cancellable: true,
    });
    // The operator changes the tour's policy later: the booking keeps what the guest agreed to.
    const changed = await t.request('PATCH', `/workspaces/${ws.workspaceId}/tours/${tour.id}`, {
      token: ws.token,
      body: { cancellationPolicy: { cutoffHours: 1, refund: 'NONE' } },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect((await getBooking(t, ws, booking.id)).cancellationPolicy).toEqual(booking.cancellationPolicy);
    const guest = await t.request('GET', `/public/bookings/${booking.publicToken}`);
    // The guest sees what cancelling now would refund: 50 % of 100.00 paid.
    expect(guest.body.data).toMatchObject({
      cancellable: true,
      cancellationCutoffAt: booking.cancellationCutoffAt,
      cancellationRefund: 5_000,
    });
  });

  it('a tour without a policy of its own: 24 hours, FULL', async () => {
    const { booking } = await paidBooking(undefined);
    expect(booking.cancellationPolicy).toEqual({ cutoffHours: 24, refund: 'FULL', refundPercent: null });
    expect(Date.parse(booking.startsAt) - Date.parse(booking.cancellationCutoffAt)).toBe(24 * HOUR);
  });

  it('moving the booking to another departure moves its cutoff with it', async () => {
    const { tour, booking } = await paidBooking({ cutoffHours: 24, refund: 'FULL' });
    const later = await createDeparture(t, ws, tour.id, { capacity: 20, startsAt: fromNow(40) });
    const moved = await t.request('PATCH', bookingsPath(ws, booking.id), {
      token: ws.token,
      body: { availabilityId: later.id },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.data.cancellationCutoffAt).toBe(
      new Date(Date.parse(later.startsAt) - 24 * HOUR).toISOString(),
    );
  });

  it('inside the cutoff the booking shows cancellable false; so does a cancelled one', async () => {
    const { booking } = await paidBooking({ cutoffHours: 24, refund: 'FULL' }, { startsIn: 10 });
    expect(booking.cancellable).toBe(false);
    const late = await t.request('GET', `/public/bookings/${booking.publicToken}`);
    expect(late.body.data).toMatchObject({ cancellable: false, cancellationRefund: 0 });
    const open = await paidBooking({ cutoffHours: 24, refund: 'FULL' });
    const cancelled = await setStatus(t, ws, open.booking.id, 'CANCELLED');
    expect(cancelled.body.data.cancellable).toBe(false);
  });
});

describe('POST /public/bookings/{publicToken}/cancel', () => {
  it('FULL: before the cutoff the guest cancels, seats come back, everything paid is refunded and recorded', async () => {
    const { departure, booking } = await paidBooking(
      { cutoffHours: 24, refund: 'FULL' },
      { price: 12_345, guests: 3 },
    );
    expect(booking).toMatchObject({ status: 'CONFIRMED', paymentStatus: 'PAID', amountPaid: 37_035 });
    expect(await seatsOf(t, ws, departure)).toEqual({ bookedSeats: 3, seatsRemaining: 17 });

    const res = await guestCancel(booking.publicToken, { reason: 'Flight cancelled' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expectGuestHeaders(res);
    expect(res.body.data).toMatchObject({
      id: booking.id,
      status: 'CANCELLED',
      paymentStatus: 'REFUNDED',
      amountPaid: 37_035,
      amountRefunded: 37_035,
      cancellationReason: 'Flight cancelled',
      cancellable: false,
    });
    expect(await seatsOf(t, ws, departure)).toEqual({ bookedSeats: 0, seatsRemaining: 20 });
    expect(await refundsOf(booking.id)).toEqual([{ amount: 37_035, reason: 'Flight cancelled' }]);
    expect((await historyOf(t, ws, booking.id)).at(-1)).toMatchObject({
      fromStatus: 'CONFIRMED',
      toStatus: 'CANCELLED',
      reason: 'Flight cancelled',
      actor: { type: 'guest', id: null },
    });
    const events = await eventsOf(t, booking.id);
    expect(events.slice(-3).map((e) => e.type)).toEqual([
      'booking.cancelled',
      'payment.refunded',
      'notification.email_requested',
    ]);
    expect(events.at(-2).data).toMatchObject({ bookingId: booking.id, amount: 37_035, currency: 'EUR' });
    // The guest's cancel e-mails them the refund it made.
    expect(events.at(-1).data).toMatchObject({
      template: 'booking_cancelled',
      bookingId: booking.id,
      refundAmount: 37_035,
      reason: 'Flight cancelled',
    });
    expect((await getBooking(t, ws, booking.id)).amountRefunded).toBe(37_035);
  });

  it.each([
    [
      'PARTIAL 50 % of 10000 is 5000',
      { refund: 'PARTIAL', refundPercent: 50 },
      10_000,
      1,
      5_000,
      'PARTIALLY_REFUNDED',
    ],
    // 33 % of 9999 is 3299.67: rounded down to the minor unit.
    [
      'PARTIAL 33 % rounds down',
      { refund: 'PARTIAL', refundPercent: 33 },
      3_333,
      3,
      3_299,
      'PARTIALLY_REFUNDED',
    ],
    ['PARTIAL 100 % of 4999 is 4999', { refund: 'PARTIAL', refundPercent: 100 }, 4_999, 1, 4_999, 'REFUNDED'],
  ] as const)(
    '%s: the refund is exact to the minor unit',
    async (_label, policy, price, guests, refunded, paymentStatus) => {
      const { booking } = await paidBooking({ cutoffHours: 24, ...policy }, { price, guests });
      const res = await guestCancel(booking.publicToken);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data).toMatchObject({ status: 'CANCELLED', amountRefunded: refunded, paymentStatus });
      expect(await refundsOf(booking.id)).toEqual([{ amount: refunded, reason: 'GUEST_CANCELLED' }]);
      expect((await eventTypesOf(t, booking.id)).filter((type) => type === 'payment.refunded')).toHaveLength(
        1,
      );
    },
  );

  it('NONE: the guest may cancel but nothing is refunded and no refund is recorded', async () => {
    const { departure, booking } = await paidBooking({ cutoffHours: 24, refund: 'NONE' }, { guests: 2 });
    const res = await guestCancel(booking.publicToken);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'CANCELLED', paymentStatus: 'PAID', amountRefunded: 0 });
    expect(await refundsOf(booking.id)).toEqual([]);
    expect(await eventTypesOf(t, booking.id)).not.toContain('payment.refunded');
    expect(await seatsOf(t, ws, departure)).toEqual({ bookedSeats: 0, seatsRemaining: 20 });
  });

  it('a PENDING unpaid booking is cancelled with nothing to refund; its checkout closes', async () => {
    const tour = await createTour(t, ws, { capacity: 5 });
    const departure = await createDeparture(t, ws, tour.id, { capacity: 5 });
    const booking = await book(t, ws, departure.id);
    const res = await guestCancel(booking.publicToken);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'CANCELLED', paymentStatus: 'UNPAID', amountRefunded: 0 });
    expect(await refundsOf(booking.id)).toEqual([]);
    expect((await pay(t, booking.checkoutUrl)).status).toBe(422);
    expect(await seatsOf(t, ws, departure)).toEqual({ bookedSeats: 0, seatsRemaining: 5 });
  });

  it('a deposit paid under PARTIAL 50 %: half the deposit comes back', async () => {
    const tour = await createTour(t, ws, {
      basePrice: 10_000,
      cancellationPolicy: { cutoffHours: 24, refund: 'PARTIAL', refundPercent: 50 },
    });
    const departure = await createDeparture(t, ws, tour.id);
    const booking = await book(t, ws, departure.id, { paymentMode: 'DEPOSIT' });
    expect((await pay(t, booking.checkoutUrl)).status).toBe(200);
    const res = await guestCancel(booking.publicToken);
    expect(res.body.data).toMatchObject({ status: 'CANCELLED', amountPaid: 2_000, amountRefunded: 1_000 });
  });

  it('after the cutoff: 422 cancellation_cutoff_passed on cancellationCutoffAt; nothing changes', async () => {
    const { departure, booking } = await paidBooking({ cutoffHours: 48, refund: 'FULL' }, { startsIn: 47 });
    const before = await getBooking(t, ws, booking.id);
    const res = await guestCancel(booking.publicToken);
    expectError(res, 422, 'UNPROCESSABLE', [detail('cancellationCutoffAt', 'cancellation_cutoff_passed')]);
    expect(await getBooking(t, ws, booking.id)).toEqual(before);
    expect(await refundsOf(booking.id)).toEqual([]);
    expect(await seatsOf(t, ws, departure)).toEqual({ bookedSeats: 1, seatsRemaining: 19 });
    // The operator can still cancel, and chooses the refund.
    const operator = await setStatus(t, ws, booking.id, 'CANCELLED', { refundAmount: 2_500 });
    expect(operator.status, JSON.stringify(operator.body)).toBe(200);
    expect(operator.body.data).toMatchObject({ status: 'CANCELLED', amountRefunded: 2_500 });
  });

  it('cutoffHours 0: the guest may cancel until the departure starts', async () => {
    const { booking } = await paidBooking({ cutoffHours: 0, refund: 'FULL' }, { startsIn: 1 });
    expect(booking.cancellationCutoffAt).toBe(booking.startsAt);
    const res = await guestCancel(booking.publicToken);
    expect(res.body.data).toMatchObject({ status: 'CANCELLED', amountRefunded: 10_000 });
  });

  it('a booking no longer PENDING or CONFIRMED is 422 invalid_state; the refund is never made twice', async () => {
    const { booking } = await paidBooking({ cutoffHours: 24, refund: 'FULL' });
    expect((await guestCancel(booking.publicToken)).status).toBe(200);
    expectError(await guestCancel(booking.publicToken), 422, 'UNPROCESSABLE', [
      detail('status', 'invalid_state'),
    ]);
    expect(await refundsOf(booking.id)).toHaveLength(1);
  });

  it('an unknown or rotated token is 404', async () => {
    const { booking } = await paidBooking({ cutoffHours: 24, refund: 'FULL' });
    expectError(await guestCancel('x'.repeat(32)), 404, 'NOT_FOUND');
    const rotated = await t.request('POST', bookingsPath(ws, booking.id, '/public-token'), {
      token: ws.token,
    });
    expect(rotated.status).toBe(200);
    expectError(await guestCancel(booking.publicToken), 404, 'NOT_FOUND');
    expect((await getBooking(t, ws, booking.id)).status).toBe('CONFIRMED');
  });

  it.each([
    ['an unknown field', { reason: 'x', refund: 100 }, 'refund', 'unknown_field'],
    ['a reason too long', { reason: 'x'.repeat(501) }, 'reason', 'too_long'],
    ['a reason that is not text', { reason: 7 }, 'reason', 'invalid_type'],
  ])('%s is 400 and cancels nothing', async (_label, body, field, issue) => {
    const { booking } = await paidBooking({ cutoffHours: 24, refund: 'FULL' });
    expectError(await guestCancel(booking.publicToken, body), 400, 'VALIDATION_ERROR', [
      detail(field, issue),
    ]);
    expect((await getBooking(t, ws, booking.id)).status).toBe('CONFIRMED');
  });

  it('needs no credential and ignores one: the token is the access', async () => {
    const { booking } = await paidBooking({ cutoffHours: 24, refund: 'NONE' });
    const res = await t.request('POST', `/public/bookings/${booking.publicToken}/cancel`, {
      headers: { Authorization: 'Bearer tops_not_a_token' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });

  it('ten concurrent guest cancels of one booking: one 200, nine 422 invalid_state, one refund, seats exact', async () => {
    const { departure, booking } = await paidBooking({ cutoffHours: 24, refund: 'FULL' }, { guests: 4 });
    const answers = await Promise.all(Array.from({ length: 10 }, () => guestCancel(booking.publicToken)));
    expect(answers.map((r) => r.status).sort()).toEqual([200, ...Array(9).fill(422)]);
    for (const res of answers.filter((r) => r.status === 422)) {
      expect(res.body.error.details).toEqual([{ field: 'status', issue: 'invalid_state' }]);
    }
    expect(await refundsOf(booking.id)).toEqual([{ amount: 40_000, reason: 'GUEST_CANCELLED' }]);
    expect(await seatsOf(t, ws, departure)).toEqual({ bookedSeats: 0, seatsRemaining: 20 });
  });
});

describe('operator cancel with a chosen refund (POST .../status, refundAmount)', () => {
  it('refunds exactly the amount chosen, in the same request, even past the guest cutoff', async () => {
    const { departure, booking } = await paidBooking(
      { cutoffHours: 48, refund: 'NONE' },
      { startsIn: 5, guests: 2 },
    );
    const res = await setStatus(t, ws, booking.id, 'CANCELLED', {
      reason: 'Storm warning',
      refundAmount: 12_345,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({
      status: 'CANCELLED',
      amountPaid: 20_000,
      amountRefunded: 12_345,
      paymentStatus: 'PARTIALLY_REFUNDED',
      cancellationReason: 'Storm warning',
    });
    expect(await refundsOf(booking.id)).toEqual([{ amount: 12_345, reason: 'Storm warning' }]);
    expect((await eventTypesOf(t, booking.id)).slice(-2)).toEqual(['booking.cancelled', 'payment.refunded']);
    expect(await seatsOf(t, ws, departure)).toEqual({ bookedSeats: 0, seatsRemaining: 20 });
    expect((await historyOf(t, ws, booking.id)).at(-1)).toMatchObject({
      toStatus: 'CANCELLED',
      actor: { type: 'api_token' },
    });
  });

  it('without refundAmount nothing is refunded, as before; refundAmount 0 likewise', async () => {
    for (const extra of [{}, { refundAmount: 0 }]) {
      const { booking } = await paidBooking({ cutoffHours: 24, refund: 'FULL' });
      const res = await setStatus(t, ws, booking.id, 'CANCELLED', extra);
      expect(res.body.data).toMatchObject({ status: 'CANCELLED', paymentStatus: 'PAID', amountRefunded: 0 });
      expect(await refundsOf(booking.id)).toEqual([]);
      expect(await eventTypesOf(t, booking.id)).not.toContain('payment.refunded');
    }
  });

  it('everything paid can be refunded; a cent more is 422 exceeds_refundable and the booking stays', async () => {
    const { departure, booking } = await paidBooking({ cutoffHours: 24, refund: 'FULL' });
    expectError(
      await setStatus(t, ws, booking.id, 'CANCELLED', { refundAmount: 10_001 }),
      422,
      'UNPROCESSABLE',
      [detail('refundAmount', 'exceeds_refundable')],
    );
    expect((await getBooking(t, ws, booking.id)).status).toBe('CONFIRMED');
    expect(await seatsOf(t, ws, departure)).toEqual({ bookedSeats: 1, seatsRemaining: 19 });
    const res = await setStatus(t, ws, booking.id, 'CANCELLED', { refundAmount: 10_000 });
    expect(res.body.data).toMatchObject({ amountRefunded: 10_000, paymentStatus: 'REFUNDED' });
  });

  it('an unpaid booking: any refundAmount above 0 is 422', async () => {
    const tour = await createTour(t, ws);
    const departure = await createDeparture(t, ws, tour.id);
    const booking = await confirmedBooking(t, ws, departure.id);
    expectError(await setStatus(t, ws, booking.id, 'CANCELLED', { refundAmount: 1 }), 422, 'UNPROCESSABLE', [
      detail('refundAmount', 'exceeds_refundable'),
    ]);
  });

  it.each([
    [
      'with status CONFIRMED',
      { status: 'CONFIRMED', refundAmount: 100 },
      'refundAmount',
      'requires_cancelled',
    ],
    ['negative', { status: 'CANCELLED', refundAmount: -1 }, 'refundAmount', 'out_of_range'],
    ['fractional', { status: 'CANCELLED', refundAmount: 1.5 }, 'refundAmount', 'not_integer'],
    ['as text', { status: 'CANCELLED', refundAmount: '100' }, 'refundAmount', 'invalid_type'],
  ])('refundAmount %s is 400 and changes nothing', async (_label, body, field, issue) => {
    const tour = await createTour(t, ws);
    const departure = await createDeparture(t, ws, tour.id);
    const booking = await book(t, ws, departure.id, { paymentMode: 'MANUAL' });
    const res = await t.request('POST', bookingsPath(ws, booking.id, '/status'), { token: ws.token, body });
    expectError(res, 400, 'VALIDATION_ERROR', [detail(field, issue)]);
    expect((await getBooking(t, ws, booking.id)).status).toBe('PENDING');
  });
});
