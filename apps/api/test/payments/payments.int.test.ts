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
  HOUR,
  historyOf,
  openPage,
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
  ISO_MS,
  type TestWorkspace,
} from '../support/fixtures.js';
import { startTestApi, type TestApi } from '../support/harness.js';

let t: TestApi;
let ws: TestWorkspace;
let tour: any;
let departure: any;
beforeAll(async () => {
  t = await startTestApi();
  ws = await t.createWorkspace('ADMIN');
  // 2500.00 EUR a head: easy to spot on the page.
  tour = await createTour(t, ws, {
    name: 'Volcano Trek',
    slug: 'volcano-trek',
    basePrice: 250_000,
    currency: 'EUR',
    capacity: 100,
    isPublic: true,
  });
  departure = await createDeparture(t, ws, tour.id, { capacity: 100 });
});
afterAll(() => t.close());

const paymentsOf = (bookingId: string) =>
  t.api.database.knex('payments').where({ booking_id: bookingId }).orderBy('seq');

const paymentLink = (bookingId: string) =>
  t.request('POST', bookingsPath(ws, bookingId, '/payment-link'), { token: ws.token });

const refund = (bookingId: string, body: unknown = {}) =>
  t.request('POST', bookingsPath(ws, bookingId, '/refunds'), { token: ws.token, body });

describe('CHECKOUT', () => {
  it.each([
    // The currency's minor unit (the one table, ISO 4217): not cents for every currency.
    ['JPY', 12_500, '25000 JPY'],
    ['KWD', 12_500, '25.000 KWD'],
    ['IQD', 12_500, '25.000 IQD'],
  ])('the checkout page shows a %s price in its minor unit', async (currency, basePrice, text) => {
    const priced = await createTour(t, ws, { basePrice, currency, capacity: 10, isPublic: true });
    const on = await createDeparture(t, ws, priced.id, { capacity: 10 });
    const booking = await book(t, ws, on.id, { participants: participants(2) });
    expect(booking).toMatchObject({ totalAmount: 25_000, currency });
    expect((await openPage(t, booking.checkoutUrl)).html).toContain(`<strong>${text}</strong>`);
  });

  it('the checkout page shows the amount; paying it confirms the booking as PAID', async () => {
    const booking = await book(t, ws, departure.id, { participants: participants(2) });
    const page = await openPage(t, booking.checkoutUrl);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.html).toContain('5000.00 EUR');
    expect(page.html).toContain(booking.id);
    expect(page.html).toContain('<form method="post">');

    const paid = await pay(t, booking.checkoutUrl);
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(paid.body.data).toMatchObject({ status: 'SUCCEEDED', amount: 500_000, currency: 'EUR' });

    const after = await getBooking(t, ws, booking.id);
    expect(after).toMatchObject({
      status: 'CONFIRMED',
      paymentStatus: 'PAID',
      amountPaid: 500_000,
      amountRefunded: 0,
      confirmedAt: expect.stringMatching(ISO_MS),
      expiresAt: null,
    });
    // The sandbox answers the guest's view of the booking (issue: views by audience).
    expect(paid.body.data.booking).toMatchObject({
      id: after.id,
      status: after.status,
      paymentStatus: after.paymentStatus,
      amountPaid: after.amountPaid,
      totalAmount: after.totalAmount,
    });
    expect(paid.body.data.booking).not.toHaveProperty('customerId');
    expect(await eventTypesOf(t, booking.id)).toEqual([
      'booking.created',
      'payment.succeeded',
      'booking.confirmed',
      'notification.email_requested', // the confirmation
      'notification.email_requested', // the receipt
    ]);
    const [, succeeded, confirmed] = await eventsOf(t, booking.id);
    expect(succeeded.data).toMatchObject({ bookingId: booking.id, amount: 500_000, currency: 'EUR' });
    expect(confirmed.data).toEqual(after);
    expect(await paymentsOf(booking.id)).toMatchObject([{ kind: 'PAYMENT', currency: 'EUR' }]);
    expect(Number((await paymentsOf(booking.id))[0].amount)).toBe(500_000);
    expect((await historyOf(t, ws, booking.id)).at(-1)).toMatchObject({
      fromStatus: 'PENDING',
      toStatus: 'CONFIRMED',
      actor: { type: 'system', id: null },
    });
  });

  it('a page is paid once: a second POST is 422 and records nothing more', async () => {
    const booking = await book(t, ws, departure.id);
    expect((await pay(t, booking.checkoutUrl)).status).toBe(200);
    const again = await pay(t, booking.checkoutUrl);
    expect(again.status).toBe(422);
    expect(again.body.error).toMatchObject({
      code: 'UNPROCESSABLE',
      details: [detail('token', 'session_closed')],
    });
    expect(await paymentsOf(booking.id)).toHaveLength(1);
    expect(await eventTypesOf(t, booking.id)).toEqual([
      'booking.created',
      'payment.succeeded',
      'booking.confirmed',
      'notification.email_requested', // the confirmation
      'notification.email_requested', // the receipt
    ]);
    expect((await openPage(t, booking.checkoutUrl)).html).not.toContain('<form');
  });

  it('a failed payment leaves the booking PENDING and UNPAID and closes the page', async () => {
    const booking = await book(t, ws, departure.id);
    const failed = await pay(t, booking.checkoutUrl, 'failed');
    expect(failed.status).toBe(200);
    expect(failed.body.data.status).toBe('FAILED');
    expect(await getBooking(t, ws, booking.id)).toMatchObject({
      status: 'PENDING',
      paymentStatus: 'UNPAID',
      amountPaid: 0,
      expiresAt: booking.expiresAt,
    });
    expect(await paymentsOf(booking.id)).toEqual([]);
    expect(await eventTypesOf(t, booking.id)).toEqual(['booking.created', 'payment.failed']);
    const again = await pay(t, booking.checkoutUrl);
    expect(again.status).toBe(422);
    expect(again.body.error.details).toEqual([detail('token', 'session_closed')]);
    expect((await getBooking(t, ws, booking.id)).paymentStatus).toBe('UNPAID');
  });

  it('an outcome other than succeeded or failed is 400; an unknown page is 404', async () => {
    const booking = await book(t, ws, departure.id);
    const res = await fetch(t.local(booking.checkoutUrl), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ outcome: 'maybe' }),
    });
    expect(res.status).toBe(400);
    const unknown = await fetch(`${t.baseUrl}/sandbox/pay/${'x'.repeat(32)}`);
    expect(unknown.status).toBe(404);
    expect((await getBooking(t, ws, booking.id)).status).toBe('PENDING');
  });
});

describe('DEPOSIT', () => {
  it('pays 20 % first (CONFIRMED, paymentStatus PENDING), then a payment link for the balance (PAID)', async () => {
    const booking = await book(t, ws, departure.id, {
      paymentMode: 'DEPOSIT',
      participants: participants(2),
    });
    expect(booking.totalAmount).toBe(500_000);
    expect((await openPage(t, booking.checkoutUrl)).html).toContain('1000.00 EUR');
    expect((await pay(t, booking.checkoutUrl)).status).toBe(200);
    expect(await getBooking(t, ws, booking.id)).toMatchObject({
      status: 'CONFIRMED',
      paymentStatus: 'PENDING',
      amountPaid: 100_000,
      expiresAt: null,
    });

    const before = Date.now();
    const link = await paymentLink(booking.id);
    const after = Date.now();
    expect(link.status, JSON.stringify(link.body)).toBe(201);
    expect(link.body).toEqual({
      data: {
        url: expect.stringMatching(/\/sandbox\/pay\/[0-9A-Za-z]+$/),
        amount: 400_000,
        expiresAt: expect.stringMatching(ISO_MS),
      },
    });
    expect(Date.parse(link.body.data.expiresAt)).toBeGreaterThanOrEqual(before + 24 * HOUR);
    expect(Date.parse(link.body.data.expiresAt)).toBeLessThanOrEqual(after + 24 * HOUR);
    expect((await openPage(t, link.body.data.url)).html).toContain('4000.00 EUR');

    expect((await pay(t, link.body.data.url)).status).toBe(200);
    expect(await getBooking(t, ws, booking.id)).toMatchObject({
      status: 'CONFIRMED',
      paymentStatus: 'PAID',
      amountPaid: 500_000,
    });
    // Confirmed once, paid twice.
    expect(await eventTypesOf(t, booking.id)).toEqual([
      'booking.created',
      'payment.succeeded',
      'booking.confirmed',
      'notification.email_requested', // the confirmation
      'notification.email_requested', // the deposit's receipt
      'payment.succeeded',
      'notification.email_requested', // the balance's receipt
    ]);
    expect((await paymentsOf(booking.id)).map((p) => Number(p.amount))).toEqual([100_000, 400_000]);

    expectError(await paymentLink(booking.id), 422, 'UNPROCESSABLE', [
      detail('amount', 'nothing_outstanding'),
    ]);
  });

  it("takes the tour's depositPercent", async () => {
    const halfTour = await createTour(t, ws, { name: 'Half Down', basePrice: 10_000, depositPercent: 50 });
    const halfDeparture = await createDeparture(t, ws, halfTour.id);
    const booking = await book(t, ws, halfDeparture.id, {
      paymentMode: 'DEPOSIT',
      participants: participants(3),
    });
    const paid = await pay(t, booking.checkoutUrl);
    expect(paid.body.data.amount).toBe(15_000);
    expect(await getBooking(t, ws, booking.id)).toMatchObject({
      status: 'CONFIRMED',
      paymentStatus: 'PENDING',
      amountPaid: 15_000,
    });
    const link = await paymentLink(booking.id);
    expect(link.body.data.amount).toBe(15_000);
  });
});

describe('PAYMENT_LINK', () => {
  it('the link is for the full amount and paying it confirms the booking as PAID', async () => {
    const booking = await book(t, ws, departure.id, { paymentMode: 'PAYMENT_LINK' });
    expect((await openPage(t, booking.paymentLinkUrl)).html).toContain('2500.00 EUR');
    expect((await pay(t, booking.paymentLinkUrl)).status).toBe(200);
    expect(await getBooking(t, ws, booking.id)).toMatchObject({
      status: 'CONFIRMED',
      paymentStatus: 'PAID',
      amountPaid: 250_000,
      expiresAt: null,
    });
    expect(await eventTypesOf(t, booking.id)).toEqual([
      'booking.created',
      'payment.succeeded',
      'booking.confirmed',
      'notification.email_requested', // the confirmation
      'notification.email_requested', // the receipt
    ]);
  });
});

describe('MANUAL', () => {
  it('is confirmed by status, stays UNPAID, and can be paid later through a payment link', async () => {
    const booking = await confirmedBooking(t, ws, departure.id);
    expect(booking).toMatchObject({ status: 'CONFIRMED', paymentStatus: 'UNPAID', amountPaid: 0 });
    const link = await paymentLink(booking.id);
    expect(link.status).toBe(201);
    expect(link.body.data.amount).toBe(250_000);
    expect((await pay(t, link.body.data.url)).status).toBe(200);
    expect(await getBooking(t, ws, booking.id)).toMatchObject({ status: 'CONFIRMED', paymentStatus: 'PAID' });
    // Already confirmed: the payment does not confirm it again.
    expect(await eventTypesOf(t, booking.id)).toEqual([
      'booking.created',
      'booking.confirmed',
      'payment.succeeded',
      'notification.email_requested', // the receipt (the operator confirmed without notifyCustomer)
    ]);
  });

  it('a PENDING booking gets a link that never outlives its hold', async () => {
    const booking = await book(t, ws, departure.id);
    const link = await paymentLink(booking.id);
    expect(link.status).toBe(201);
    expect(link.body.data.amount).toBe(250_000);
    expect(link.body.data.expiresAt).toBe(booking.expiresAt);
    // The new link replaces the checkout page.
    expect((await pay(t, booking.checkoutUrl)).status).toBe(422);
    expect((await pay(t, link.body.data.url)).status).toBe(200);
  });
});

describe('createPaymentLink refusals', () => {
  it('a CANCELLED booking is 422', async () => {
    const booking = await book(t, ws, departure.id, { paymentMode: 'MANUAL' });
    await setStatus(t, ws, booking.id, 'CANCELLED');
    expectError(await paymentLink(booking.id), 422, 'UNPROCESSABLE', [detail('status', 'invalid_state')]);
    expect(await countRows(t, 'payment_sessions', { booking_id: booking.id })).toBe(0);
  });

  it('a PAID booking has nothing outstanding: 422', async () => {
    const booking = await book(t, ws, departure.id);
    await pay(t, booking.checkoutUrl);
    expectError(await paymentLink(booking.id), 422, 'UNPROCESSABLE', [
      detail('amount', 'nothing_outstanding'),
    ]);
  });

  it('an unknown booking is 404', async () => {
    expectError(await paymentLink(`bkg_${'0'.repeat(22)}`), 404, 'NOT_FOUND');
  });

  it('a PENDING booking whose hold has expired gets no link (it would be dead on arrival): 422', async () => {
    const booking = await book(t, ws, departure.id);
    await expireHold(t, booking.id);
    const sessions = await countRows(t, 'payment_sessions', { booking_id: booking.id });
    expectError(await paymentLink(booking.id), 422, 'UNPROCESSABLE', [detail('expiresAt', 'hold_expired')]);
    expect(await countRows(t, 'payment_sessions', { booking_id: booking.id })).toBe(sessions);
  });
});

describe('a price change', () => {
  it('closes the pages opened for the old amount; a new link asks for the new one', async () => {
    const booking = await book(t, ws, departure.id, {
      paymentMode: 'DEPOSIT',
      participants: participants(2),
    });
    await pay(t, booking.checkoutUrl);
    const balance = await paymentLink(booking.id);
    expect(balance.body.data.amount).toBe(400_000);

    const cut = await t.request('PATCH', bookingsPath(ws, booking.id), {
      token: ws.token,
      body: { totalAmount: 300_000 },
    });
    expect(cut.status).toBe(200);
    expect(cut.body.data).toMatchObject({ totalAmount: 300_000, paymentStatus: 'PENDING' });
    const stale = await pay(t, balance.body.data.url);
    expect(stale.status).toBe(422);
    expect(stale.body.error.details).toEqual([detail('token', 'session_closed')]);

    const fresh = await paymentLink(booking.id);
    expect(fresh.body.data.amount).toBe(200_000);
    expect((await pay(t, fresh.body.data.url)).status).toBe(200);
    expect(await getBooking(t, ws, booking.id)).toMatchObject({ paymentStatus: 'PAID', amountPaid: 300_000 });
  });

  it('down to what was paid settles the booking: PAID, nothing outstanding, nothing more taken', async () => {
    const booking = await book(t, ws, departure.id, {
      paymentMode: 'DEPOSIT',
      participants: participants(2),
    });
    await pay(t, booking.checkoutUrl);
    const balance = await paymentLink(booking.id);
    const cut = await t.request('PATCH', bookingsPath(ws, booking.id), {
      token: ws.token,
      body: { totalAmount: 100_000 },
    });
    expect(cut.body.data).toMatchObject({ paymentStatus: 'PAID', amountPaid: 100_000 });
    expect((await pay(t, balance.body.data.url)).status).toBe(422);
    expect((await paymentsOf(booking.id)).map((p) => Number(p.amount))).toEqual([100_000]);
    expectError(await paymentLink(booking.id), 422, 'UNPROCESSABLE', [
      detail('amount', 'nothing_outstanding'),
    ]);
  });
});

describe('refunds', () => {
  it('part of the payment -> PARTIALLY_REFUNDED, the rest -> REFUNDED; more than is left is 422', async () => {
    const booking = await book(t, ws, departure.id, { participants: participants(2) });
    await pay(t, booking.checkoutUrl);

    const partial = await refund(booking.id, { amount: 100_000, reason: 'one guest ill' });
    expect(partial.status, JSON.stringify(partial.body)).toBe(201);
    expect(partial.body.data).toMatchObject({
      id: booking.id,
      paymentStatus: 'PARTIALLY_REFUNDED',
      amountPaid: 500_000,
      amountRefunded: 100_000,
      status: 'CONFIRMED',
    });

    const before = await getBooking(t, ws, booking.id);
    expectError(await refund(booking.id, { amount: 400_001 }), 422, 'UNPROCESSABLE', [
      detail('amount', 'exceeds_refundable'),
    ]);
    expect(await getBooking(t, ws, booking.id)).toEqual(before);

    const rest = await refund(booking.id);
    expect(rest.status).toBe(201);
    expect(rest.body.data).toMatchObject({ paymentStatus: 'REFUNDED', amountRefunded: 500_000 });

    expectError(await refund(booking.id, { amount: 1 }), 422, 'UNPROCESSABLE', [
      detail('amount', 'nothing_to_refund'),
    ]);
    const rows = await paymentsOf(booking.id);
    expect(rows.map((p) => [p.kind, Number(p.amount), p.reason])).toEqual([
      ['PAYMENT', 500_000, null],
      ['REFUND', 100_000, 'one guest ill'],
      ['REFUND', 400_000, null],
    ]);
    expect((await eventTypesOf(t, booking.id)).filter((type) => type === 'payment.refunded')).toHaveLength(2);
  });

  it('a booking with nothing paid is 422 nothing_to_refund', async () => {
    const booking = await confirmedBooking(t, ws, departure.id);
    expectError(await refund(booking.id, { amount: 100 }), 422, 'UNPROCESSABLE', [
      detail('amount', 'nothing_to_refund'),
    ]);
    expectError(await refund(booking.id), 422, 'UNPROCESSABLE', [detail('amount', 'nothing_to_refund')]);
    expect(await paymentsOf(booking.id)).toEqual([]);
  });

  it('a refund of 0 or a negative amount is 400', async () => {
    const booking = await book(t, ws, departure.id);
    await pay(t, booking.checkoutUrl);
    for (const amount of [0, -5, 1.5]) {
      const res = await refund(booking.id, { amount });
      expectError(res, 400, 'VALIDATION_ERROR');
      expect(res.body.error.details[0].field).toBe('amount');
    }
    expect((await getBooking(t, ws, booking.id)).amountRefunded).toBe(0);
  });

  it('a cancelled deposit booking refunds what was paid', async () => {
    const booking = await book(t, ws, departure.id, { paymentMode: 'DEPOSIT' });
    await pay(t, booking.checkoutUrl);
    await setStatus(t, ws, booking.id, 'CANCELLED');
    const res = await refund(booking.id);
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      status: 'CANCELLED',
      paymentStatus: 'REFUNDED',
      amountPaid: 50_000,
      amountRefunded: 50_000,
    });
  });
});

describe('paying a booking that no longer holds its seats', () => {
  const expectRefused = async (booking: any, issue: string) => {
    const res = await pay(t, booking.checkoutUrl);
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body.error.code).toBe('UNPROCESSABLE');
    expect(res.body.error.details).toEqual([detail('token', issue)]);
    expect(await paymentsOf(booking.id)).toEqual([]);
    expect(await eventTypesOf(t, booking.id)).not.toContain('payment.succeeded');
  };

  it('a cancelled booking: 422, no payment', async () => {
    const booking = await book(t, ws, departure.id);
    await setStatus(t, ws, booking.id, 'CANCELLED');
    await expectRefused(booking, 'session_closed');
    expect(await getBooking(t, ws, booking.id)).toMatchObject({
      status: 'CANCELLED',
      paymentStatus: 'UNPAID',
    });
  });

  it('an expired hold (the worker has not run yet): 422, no payment, still PENDING', async () => {
    const booking = await book(t, ws, departure.id);
    await expireHold(t, booking.id);
    await expectRefused(booking, 'session_expired');
    expect(await getBooking(t, ws, booking.id)).toMatchObject({ status: 'PENDING', paymentStatus: 'UNPAID' });
  });

  it('an expired hold whose seats a new booking took: 422, no payment, seats not taken twice', async () => {
    const small = await createDeparture(t, ws, tour.id, { capacity: 2 });
    const stale = await book(t, ws, small.id, { participants: participants(2) });
    await expireHold(t, stale.id);
    await book(t, ws, small.id, { participants: participants(2) });
    expect((await getBooking(t, ws, stale.id)).status).toBe('CANCELLED');
    await expectRefused(stale, 'session_closed');
    expect(await seatsOf(t, ws, small)).toEqual({ bookedSeats: 2, seatsRemaining: 0 });
  });
});

describe('public payment retry', () => {
  const publicBooking = async (overrides: Record<string, unknown> = {}) => {
    const res = await t.request('POST', `/public/${ws.slug}/bookings`, {
      body: bookingInput(departure.id, overrides),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data;
  };
  const retry = (publicToken: string) => t.request('POST', `/public/bookings/${publicToken}/payment/retry`);

  it('a PENDING booking gets a fresh checkoutUrl; the old page is closed, the new one pays', async () => {
    const booking = await publicBooking();
    await pay(t, booking.checkoutUrl, 'failed');
    const res = await retry(booking.publicToken);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const fresh = res.body.data.checkoutUrl;
    expect(fresh).toMatch(/\/sandbox\/pay\/[0-9A-Za-z]+$/);
    expect(fresh).not.toBe(booking.checkoutUrl);
    expect(res.body.data).toMatchObject({ id: booking.id, status: 'PENDING', expiresAt: booking.expiresAt });

    expect((await pay(t, booking.checkoutUrl)).status).toBe(422);
    expect((await pay(t, fresh)).status).toBe(200);
    expect(await getBooking(t, ws, booking.id)).toMatchObject({ status: 'CONFIRMED', paymentStatus: 'PAID' });
  });

  it('an unpaid page also closes when a retry replaces it', async () => {
    const booking = await publicBooking();
    const res = await retry(booking.publicToken);
    expect(res.status).toBe(200);
    const old = await pay(t, booking.checkoutUrl);
    expect(old.status).toBe(422);
    expect(old.body.error.details).toEqual([detail('token', 'session_closed')]);
  });

  it('a DEPOSIT booking retries for the deposit', async () => {
    const booking = await publicBooking({ paymentMode: 'DEPOSIT' });
    const res = await retry(booking.publicToken);
    expect((await openPage(t, res.body.data.checkoutUrl)).html).toContain('500.00 EUR');
  });

  it('a CONFIRMED, CANCELLED or expired booking is 422', async () => {
    const paid = await publicBooking();
    await pay(t, paid.checkoutUrl);
    const cancelled = await publicBooking();
    await setStatus(t, ws, cancelled.id, 'CANCELLED');
    const expired = await publicBooking();
    await expireHold(t, expired.id);
    for (const booking of [paid, cancelled, expired]) {
      const before = await countRows(t, 'payment_sessions', { booking_id: booking.id });
      expectError(await retry(booking.publicToken), 422, 'UNPROCESSABLE', [
        detail('status', 'invalid_state'),
      ]);
      expect(await countRows(t, 'payment_sessions', { booking_id: booking.id })).toBe(before);
    }
  });

  it('an unknown token is 404', async () => {
    expectError(await retry('x'.repeat(32)), 404, 'NOT_FOUND');
  });
});

describe('public balance payment', () => {
  const balance = (publicToken: string) =>
    t.request('POST', `/public/bookings/${publicToken}/payment/balance`);

  it('after the deposit, the guest gets a checkout for the balance; paying it makes the booking PAID', async () => {
    const created = await t.request('POST', `/public/${ws.slug}/bookings`, {
      body: bookingInput(departure.id, { paymentMode: 'DEPOSIT', participants: participants(2) }),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const booking = created.body.data;
    // Before the deposit: nothing confirmed yet, the guest retries instead.
    expectError(await balance(booking.publicToken), 422, 'UNPROCESSABLE', [
      detail('status', 'invalid_state'),
    ]);
    expect((await pay(t, booking.checkoutUrl)).status).toBe(200);

    const res = await balance(booking.publicToken);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.body.data).toMatchObject({
      status: 'CONFIRMED',
      paymentStatus: 'PENDING',
      amountPaid: 100_000,
    });
    expect((await openPage(t, res.body.data.checkoutUrl)).html).toContain('4000.00 EUR');
    expect((await pay(t, res.body.data.checkoutUrl)).status).toBe(200);
    expect(await getBooking(t, ws, booking.id)).toMatchObject({ paymentStatus: 'PAID', amountPaid: 500_000 });

    expectError(await balance(booking.publicToken), 422, 'UNPROCESSABLE', [
      detail('amount', 'nothing_outstanding'),
    ]);
  });

  it('an unknown token is 404', async () => {
    expectError(await balance('x'.repeat(32)), 404, 'NOT_FOUND');
  });
});
