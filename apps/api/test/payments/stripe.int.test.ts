import { createUnitOfWork } from '@travelops/db';
import { expireHolds } from '@travelops/domain/bookings';
import { type StripeStub, startStripeStub } from '@travelops/stripe/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/compose.js';
import {
  bookingsPath,
  eventsOf,
  eventTypesOf,
  expireHold,
  getBooking,
  participants,
  seatsOf,
  setStatus,
} from '../support/booking-fixtures.js';
import { createDeparture, createTour, detail, expectError, type TestWorkspace } from '../support/fixtures.js';
import { startTestApi, type TestApi, type TestResponse } from '../support/harness.js';

const WEBHOOK_SECRET = 'whsec_travelops_stripe_int_test';
const MINUTE = 60_000;

let stub: StripeStub;
let t: TestApi;
let ws: TestWorkspace;
let tour: any;
let departure: any;
beforeAll(async () => {
  stub = await startStripeStub();
  t = await startTestApi({
    PAYMENT_PROVIDER: 'stripe',
    STRIPE_SECRET_KEY: 'sk_test_travelops_int',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_URL: stub.url,
    PUBLIC_HOLDS_PER_CLIENT: '1000',
  });
  ws = await t.createWorkspace('ADMIN');
  // 40.00 EUR a head; a 20 % deposit.
  tour = await createTour(t, ws, {
    name: 'Glacier Walk',
    basePrice: 4_000,
    currency: 'EUR',
    capacity: 40,
    isPublic: true,
  });
  departure = await createDeparture(t, ws, tour.id, { capacity: 40 });
});
afterAll(async () => {
  await t?.close();
  await stub?.close();
});

/** A guest's booking through the widget's endpoint: 201, with `checkoutUrl`. */
async function publicBooking(count = 2, extra: Record<string, unknown> = {}) {
  const res = await t.request('POST', `/public/${ws.slug}/bookings`, {
    body: {
      availabilityId: departure.id,
      customer: { name: 'Grace Hopper', email: `grace.${Date.now()}.${Math.random()}@example.com` },
      participants: participants(count),
      ...extra,
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

/** The guest follows a handed-out link: our /pay/{token}, answered 303 to Stripe's page. */
async function goToCheckout(url: string) {
  const res = await fetch(t.local(url), { redirect: 'manual' });
  expect(res.status, await res.clone().text()).toBe(303);
  const location = res.headers.get('location') as string;
  const checkoutId = /\/c\/pay\/(cs_test_\w+)$/.exec(location)?.[1];
  if (!checkoutId) throw new Error(`not a Stripe checkout: ${location}`);
  return { res, location, checkoutId };
}

const sessionsOf = (bookingId: string) =>
  t.api.database.knex('payment_sessions').where({ booking_id: bookingId }).orderBy('created_at');
const paymentsOf = (bookingId: string) =>
  t.api.database.knex('payments').where({ booking_id: bookingId }).orderBy('seq');

/** Stripe's POST of a signed event, as raw bytes. */
function post(body: string, signature: string | undefined): Promise<TestResponse> {
  return t.request('POST', '/stripe/webhooks', {
    rawBody: body,
    headers: { 'Content-Type': 'application/json', ...(signature && { 'Stripe-Signature': signature }) },
  });
}

/** Signs and delivers an event about `object`; the answer and the event (to replay it). */
async function deliver(type: string, object: Record<string, unknown>) {
  const event = stub.event(type, object, WEBHOOK_SECRET);
  const res = await post(event.body, event.signature);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { outcome: res.body.data.outcome as string, event };
}

/** A guest's booking, sent to Stripe and paid there: the checkout and PaymentIntent as Stripe holds them. */
async function paidAtStripe(count = 2) {
  const booking = await publicBooking(count);
  const { checkoutId } = await goToCheckout(booking.checkoutUrl);
  const paid = stub.pay(checkoutId);
  return { booking, checkoutId, ...paid, paymentIntentId: paid.paymentIntent.id as string };
}

const refunds = (path = '/v1/refunds') => stub.requests.filter((r) => r.method === 'POST' && r.path === path);
const logsOf = (outcome: string) => t.logs.filter((line) => line.includes(`"outcome":"${outcome}"`));

describe('checkout through Stripe', () => {
  it('a public booking: /pay 303 to Stripe, a signed checkout.session.completed confirms it as PAID', async () => {
    const booking = await publicBooking(2);
    expect(booking).toMatchObject({ status: 'PENDING', paymentStatus: 'UNPAID', totalAmount: 8_000 });
    const token = /\/pay\/([0-9A-Za-z]+)$/.exec(booking.checkoutUrl)?.[1];
    expect(token, booking.checkoutUrl).toBeTruthy();
    // Nothing was asked of Stripe while the booking (and its departure) was locked.
    expect(stub.requests.filter((r) => r.params.client_reference_id)).not.toContainEqual(
      expect.objectContaining({
        params: expect.objectContaining({ 'metadata[travelops_booking]': booking.id }),
      }),
    );

    const before = stub.requests.length;
    const { res, location, checkoutId } = await goToCheckout(booking.checkoutUrl);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
    expect(location).toBe(`https://checkout.stripe.test/c/pay/${checkoutId}`);
    const [session] = await sessionsOf(booking.id);
    const [created] = stub.requests.slice(before);
    const base = 'http://localhost:3000';
    expect(created).toMatchObject({
      method: 'POST',
      path: '/v1/checkout/sessions',
      authorization: 'Bearer sk_test_travelops_int',
      params: {
        mode: 'payment',
        'line_items[0][quantity]': '1',
        'line_items[0][price_data][unit_amount]': '8000',
        'line_items[0][price_data][currency]': 'eur',
        'line_items[0][price_data][product_data][name]': `Glacier Walk, ${departure.startsAt.slice(0, 10)}`,
        client_reference_id: session.id,
        'metadata[travelops_session]': session.id,
        'metadata[travelops_booking]': booking.id,
        'payment_intent_data[metadata][travelops_session]': session.id,
        success_url: `${base}/pay/${token}/done`,
        cancel_url: `${base}/pay/${token}/done?cancelled=1`,
      },
    });
    expect(created?.params.customer_email).toMatch(/^grace\./);
    // The guest hold is 15 minutes; Stripe's floor (30) wins, with a minute of margin.
    const expiresAt = Number(created?.params.expires_at) * 1000;
    expect(expiresAt - Date.now()).toBeGreaterThan(30 * MINUTE);
    expect(expiresAt - Date.now()).toBeLessThan(32 * MINUTE);
    expect(session).toMatchObject({ provider_reference: checkoutId, status: 'OPEN' });

    // A second visit resumes the same Checkout Session; a script may ask for the address as JSON.
    const again = await goToCheckout(booking.checkoutUrl);
    expect(again.checkoutId).toBe(checkoutId);
    const asJson = await fetch(t.local(booking.checkoutUrl), { headers: { Accept: 'application/json' } });
    expect(asJson.status).toBe(200);
    expect(await asJson.json()).toEqual({ data: { url: location } });
    expect(stub.requests.slice(before).filter((r) => r.method === 'POST')).toHaveLength(1);

    const { checkout, paymentIntent } = stub.pay(checkoutId);
    const { outcome } = await deliver('checkout.session.completed', checkout);
    expect(outcome).toBe('payment_recorded');
    expect(await getBooking(t, ws, booking.id)).toMatchObject({
      status: 'CONFIRMED',
      paymentStatus: 'PAID',
      amountPaid: 8_000,
      expiresAt: null,
    });
    expect(await eventTypesOf(t, booking.id)).toEqual([
      'booking.created',
      'payment.succeeded',
      'booking.confirmed',
      'notification.email_requested', // the confirmation
      'notification.email_requested', // the receipt
    ]);
    const [payment] = await paymentsOf(booking.id);
    expect(payment).toMatchObject({
      kind: 'PAYMENT',
      provider_reference: paymentIntent.id,
      session_id: session.id,
    });

    const done = await fetch(t.local(`${base}/pay/${token}/done`));
    expect(done.headers.get('cache-control')).toBe('no-store');
    const html = await done.text();
    expect(html).toContain('Payment received');
    // The payer finds the way back to the guest's booking page.
    expect(html).toContain(`<a href="/b/${booking.publicToken}">View your booking</a>`);
    // Paid: the link no longer opens a checkout.
    expectError(await t.request('GET', `/pay/${token}`), 422, 'UNPROCESSABLE', [
      detail('token', 'session_closed'),
    ]);
  });

  it('the return page says "being confirmed" until the webhook arrives, and offers the way back when cancelled', async () => {
    const booking = await publicBooking(1);
    const token = /\/pay\/(\w+)$/.exec(booking.checkoutUrl)?.[1];
    await goToCheckout(booking.checkoutUrl);
    const pending = await (await fetch(`${t.baseUrl}/pay/${token}/done`)).text();
    expect(pending).toContain('Payment being confirmed');
    expect(pending).toContain('http-equiv="refresh"');
    const cancelled = await (await fetch(`${t.baseUrl}/pay/${token}/done?cancelled=1`)).text();
    expect(cancelled).toContain('Payment not completed');
    expect(cancelled).toContain(`href="/pay/${token}"`);
    expectError(await t.request('GET', `/pay/${'x'.repeat(32)}/done`), 404, 'NOT_FOUND');
    expectError(await t.request('GET', `/pay/${'x'.repeat(32)}`), 404, 'NOT_FOUND');
  });

  it('a replayed event changes nothing; a second event of the same payment neither', async () => {
    const { booking, checkout } = await paidAtStripe(1);
    const first = await deliver('checkout.session.completed', checkout);
    const replay = await post(first.event.body, first.event.signature);
    expect(replay.status).toBe(200);
    expect(replay.body.data.outcome).toBe('duplicate_event');
    const twin = await deliver('checkout.session.async_payment_succeeded', checkout);
    expect(twin.outcome).toBe('payment_known');
    expect(await paymentsOf(booking.id)).toHaveLength(1);
    expect(await getBooking(t, ws, booking.id)).toMatchObject({ amountPaid: 4_000, paymentStatus: 'PAID' });
    expect(await eventTypesOf(t, booking.id)).toEqual([
      'booking.created',
      'payment.succeeded',
      'booking.confirmed',
      'notification.email_requested', // the confirmation
      'notification.email_requested', // the receipt
    ]);
  });

  it('checkout.session.expired after completed changes nothing', async () => {
    const { booking, checkout } = await paidAtStripe(2);
    await deliver('checkout.session.completed', checkout);
    const seats = await seatsOf(t, ws, departure);
    const late = await deliver('checkout.session.expired', { ...checkout, status: 'expired' });
    expect(late.outcome).toBe('checkout_stale');
    expect(await getBooking(t, ws, booking.id)).toMatchObject({ status: 'CONFIRMED', paymentStatus: 'PAID' });
    expect(await seatsOf(t, ws, departure)).toEqual(seats);
    expect((await sessionsOf(booking.id))[0]).toMatchObject({ status: 'SUCCEEDED' });
  });

  it('charge.refunded before checkout.session.completed records the payment, then the refund; the completion changes nothing', async () => {
    const { booking, checkout, paymentIntentId } = await paidAtStripe(2);
    const { refund, charge } = stub.refundOutside(paymentIntentId, 1_500);
    const refunded = await deliver('charge.refunded', charge);
    expect(refunded.outcome).toBe('refunds_recorded');
    expect(await getBooking(t, ws, booking.id)).toMatchObject({
      status: 'CONFIRMED',
      paymentStatus: 'PARTIALLY_REFUNDED',
      amountPaid: 8_000,
      amountRefunded: 1_500,
    });
    const completed = await deliver('checkout.session.completed', checkout);
    expect(completed.outcome).toBe('payment_known');
    expect(
      (await paymentsOf(booking.id)).map((p) => [p.kind, Number(p.amount), p.provider_reference]),
    ).toEqual([
      ['PAYMENT', 8_000, paymentIntentId],
      ['REFUND', 1_500, refund.id],
    ]);
    expect(await eventTypesOf(t, booking.id)).toEqual([
      'booking.created',
      'payment.succeeded',
      'booking.confirmed',
      'notification.email_requested', // the confirmation
      'notification.email_requested', // the receipt
      'payment.refunded',
    ]);
  });

  it('a recorded amount mismatch changes nothing and is logged', async () => {
    const booking = await publicBooking(2);
    const { checkoutId } = await goToCheckout(booking.checkoutUrl);
    const { checkout } = stub.pay(checkoutId, { amount: 100 });
    const { outcome } = await deliver('checkout.session.completed', checkout);
    expect(outcome).toBe('amount_mismatch');
    expect(await getBooking(t, ws, booking.id)).toMatchObject({
      status: 'PENDING',
      paymentStatus: 'UNPAID',
      amountPaid: 0,
    });
    expect(await paymentsOf(booking.id)).toEqual([]);
    const logged = logsOf('amount_mismatch').find((line) => line.includes(booking.id));
    expect(JSON.parse(logged as string)).toMatchObject({
      level: 'warn',
      detail: 'expected 8000 EUR, received 100 EUR',
    });
  });

  it("an unknown session, or another integration's checkout, changes nothing and is logged", async () => {
    const before = await t.api.database.knex('payments').count('* as n');
    const unknown = await deliver('checkout.session.completed', {
      id: 'cs_test_unknown',
      object: 'checkout.session',
      client_reference_id: `ps_${'0'.repeat(22)}`,
      metadata: {},
      amount_total: 8_000,
      currency: 'eur',
      payment_intent: 'pi_test_unknown',
      payment_status: 'paid',
      status: 'complete',
    });
    expect(unknown.outcome).toBe('unknown_session');
    expect(logsOf('unknown_session').some((line) => line.includes('"level":"warn"'))).toBe(true);
    const foreign = await deliver('checkout.session.completed', {
      id: 'cs_test_foreign',
      object: 'checkout.session',
      client_reference_id: 'order-42',
      metadata: {},
    });
    expect(foreign.outcome).toBe('ignored');
    expect(await t.api.database.knex('payments').count('* as n')).toEqual(before);
  });

  it('a completed Checkout Session that is not the one the page keeps changes nothing and is logged', async () => {
    const booking = await publicBooking(2);
    const { checkoutId } = await goToCheckout(booking.checkoutUrl);
    const { checkout } = stub.pay(checkoutId);
    // Signed and naming our session with the right amount, but another checkout than ours.
    const { outcome } = await deliver('checkout.session.completed', { ...checkout, id: 'cs_test_elsewhere' });
    expect(outcome).toBe('checkout_mismatch');
    expect(await getBooking(t, ws, booking.id)).toMatchObject({ status: 'PENDING', amountPaid: 0 });
    expect(await paymentsOf(booking.id)).toEqual([]);
    const logged = logsOf('checkout_mismatch').find((line) => line.includes(booking.id));
    expect(JSON.parse(logged as string)).toMatchObject({
      level: 'warn',
      detail: `expected ${checkoutId}, received cs_test_elsewhere`,
    });
    // The one it keeps still pays it.
    expect((await deliver('checkout.session.completed', checkout)).outcome).toBe('payment_recorded');
  });

  it('first visits at once all go to one Checkout Session: the one kept, which alone can pay', async () => {
    const booking = await publicBooking(1);
    const visits = await Promise.all(Array.from({ length: 4 }, () => goToCheckout(booking.checkoutUrl)));
    const [session] = await sessionsOf(booking.id);
    expect(new Set(visits.map((visit) => visit.checkoutId))).toEqual(new Set([session.provider_reference]));
  });

  it('a signed event with a field of another type is 400 naming it (never a 5xx) and changes nothing', async () => {
    const { booking, checkout } = await paidAtStripe(1);
    for (const [object, field] of [
      [{ ...checkout, client_reference_id: 42 }, 'data.object.client_reference_id'],
      [
        { ...checkout, metadata: { ...(checkout.metadata as object), travelops_session: 7 } },
        'data.object.metadata.travelops_session',
      ],
      [{ ...checkout, amount_total: '4000' }, 'data.object.amount_total'],
    ] as const) {
      const event = stub.event('checkout.session.completed', object, WEBHOOK_SECRET);
      expectError(await post(event.body, event.signature), 400, 'VALIDATION_ERROR', [
        detail(field, 'invalid_type'),
      ]);
    }
    expect(await getBooking(t, ws, booking.id)).toMatchObject({ status: 'PENDING', amountPaid: 0 });
  });

  it('a bad signature is 400 (never a 5xx) and changes nothing; only refused requests spend the IP budget', async () => {
    const { checkout } = await paidAtStripe(1);
    const event = stub.event('checkout.session.completed', checkout, WEBHOOK_SECRET);
    const forged = stub.event('checkout.session.completed', checkout, 'whsec_someone_else');
    const remaining = (res: TestResponse) => Number(res.headers.get('x-ratelimit-remaining'));
    let last = remaining(await post('', 't=1,v1=00'));
    for (const [body, signature] of [
      [event.body, undefined],
      [forged.body, forged.signature],
      [event.body.replace('"paid"', '"paid" '), event.signature],
      ['{not json', event.signature],
    ] as const) {
      const res = await post(body, signature);
      expectError(res, 400, 'VALIDATION_ERROR', [detail('Stripe-Signature', 'invalid_signature')]);
      expect(remaining(res)).toBe(last - 1);
      last = remaining(res);
    }
    const booking = await getBooking(
      t,
      ws,
      (checkout.metadata as Record<string, string>).travelops_booking as string,
    );
    expect(booking).toMatchObject({ status: 'PENDING', amountPaid: 0 });
    // Stripe's own deliveries report the budget without spending it.
    const accepted = await post(event.body, event.signature);
    expect(accepted.status).toBe(200);
    expect(remaining(accepted)).toBe(last);
  });
});

describe('expiry', () => {
  it('an expired checkout releases the unpaid hold that waited on it at once: CANCELLED EXPIRED, seats back', async () => {
    const seats = await seatsOf(t, ws, departure);
    const booking = await publicBooking(3);
    expect((await seatsOf(t, ws, departure)).bookedSeats).toBe(seats.bookedSeats + 3);
    const { checkoutId } = await goToCheckout(booking.checkoutUrl);
    // Stripe expires its checkout at our page's expiry (or later); the hold-expiry job has not run yet.
    await expireHold(t, booking.id);
    const { outcome } = await deliver('checkout.session.expired', stub.expire(checkoutId));
    expect(outcome).toBe('hold_released');
    expect(await getBooking(t, ws, booking.id)).toMatchObject({
      status: 'CANCELLED',
      cancellationReason: 'EXPIRED',
      paymentStatus: 'UNPAID',
    });
    expect(await seatsOf(t, ws, departure)).toEqual(seats);
    expect(await eventTypesOf(t, booking.id)).toEqual(['booking.created', 'booking.expired']);
    expect((await sessionsOf(booking.id))[0]).toMatchObject({ status: 'EXPIRED' });
  });

  it('a checkout that ends before its extended hold leaves the page open; the next visit opens a fresh one', async () => {
    const booking = await publicBooking(1);
    const { checkoutId } = await goToCheckout(booking.checkoutUrl);
    const extended = await t.request('POST', bookingsPath(ws, booking.id, '/extend'), {
      token: ws.token,
      body: { minutes: 30 },
    });
    expect(extended.status, JSON.stringify(extended.body)).toBe(200);
    const { outcome } = await deliver('checkout.session.expired', stub.expire(checkoutId));
    expect(outcome).toBe('checkout_expired');
    expect(await getBooking(t, ws, booking.id)).toMatchObject({
      status: 'PENDING',
      expiresAt: extended.body.data.expiresAt,
    });
    expect((await sessionsOf(booking.id))[0]).toMatchObject({ status: 'OPEN' });
    const fresh = await goToCheckout(booking.checkoutUrl);
    expect(fresh.checkoutId).not.toBe(checkoutId);
    expect((await sessionsOf(booking.id))[0]).toMatchObject({ provider_reference: fresh.checkoutId });
  });

  it('a checkout replaced by a retry expires without touching the hold', async () => {
    const booking = await publicBooking(1);
    const { checkoutId } = await goToCheckout(booking.checkoutUrl);
    const retried = await t.request('POST', `/public/bookings/${booking.publicToken}/payment/retry`);
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    const { outcome } = await deliver('checkout.session.expired', stub.expire(checkoutId));
    expect(outcome).toBe('checkout_expired');
    expect(await getBooking(t, ws, booking.id)).toMatchObject({ status: 'PENDING' });
  });

  it('money paid after the hold was released is returned through Stripe; the booking stays CANCELLED', async () => {
    const booking = await publicBooking(2);
    const { checkoutId } = await goToCheckout(booking.checkoutUrl);
    // The guest hold (15 minutes) ends while Stripe's checkout (30 at least) is still open.
    await expireHold(t, booking.id);
    await expireHolds({ uow: createUnitOfWork(t.api.database.knex), clock: systemClock });
    expect(await getBooking(t, ws, booking.id)).toMatchObject({ status: 'CANCELLED' });
    const { checkout, paymentIntent } = stub.pay(checkoutId);
    const before = refunds().length;
    const { outcome } = await deliver('checkout.session.completed', checkout);
    expect(outcome).toBe('payment_recorded');
    expect(
      refunds()
        .slice(before)
        .map((r) => r.params),
    ).toEqual([
      { payment_intent: paymentIntent.id, amount: '8000', 'metadata[travelops_booking]': booking.id },
    ]);
    expect(await getBooking(t, ws, booking.id)).toMatchObject({
      status: 'CANCELLED',
      paymentStatus: 'REFUNDED',
      amountPaid: 8_000,
      amountRefunded: 8_000,
    });
    expect(
      logsOf('payment_recorded').some((line) => line.includes('"returned":{"amount":8000,"ok":true}')),
    ).toBe(true);
    // Stripe then reports the refund this service made: known already.
    const echo = await deliver('charge.refunded', stub.chargeOf(paymentIntent.id as string));
    expect(echo.outcome).toBe('refunds_known');
    expect(await paymentsOf(booking.id)).toHaveLength(2);
    // Money the booking could not keep: no receipt, no confirmation for the guest.
    expect(await eventTypesOf(t, booking.id)).not.toContain('notification.email_requested');
  });
});

describe('refunds through Stripe', () => {
  const refund = (bookingId: string, body: unknown = {}) =>
    t.request('POST', bookingsPath(ws, bookingId, '/refunds'), { token: ws.token, body });

  it('partial, then full: each a Stripe refund of that PaymentIntent, recorded once', async () => {
    const { booking, checkout, paymentIntentId } = await paidAtStripe(2);
    await deliver('checkout.session.completed', checkout);
    let before = refunds().length;
    const partial = await refund(booking.id, { amount: 2_500, reason: 'Rain' });
    expect(partial.status, JSON.stringify(partial.body)).toBe(201);
    expect(partial.body.data).toMatchObject({ paymentStatus: 'PARTIALLY_REFUNDED', amountRefunded: 2_500 });
    expect(
      refunds()
        .slice(before)
        .map((r) => r.params),
    ).toEqual([
      { payment_intent: paymentIntentId, amount: '2500', 'metadata[travelops_booking]': booking.id },
    ]);
    // The charge.refunded that Stripe sends for it is known by its refund id.
    const echo = await deliver('charge.refunded', stub.chargeOf(paymentIntentId));
    expect(echo.outcome).toBe('refunds_known');

    before = refunds().length;
    const full = await refund(booking.id);
    expect(full.status, JSON.stringify(full.body)).toBe(201);
    expect(full.body.data).toMatchObject({ paymentStatus: 'REFUNDED', amountRefunded: 8_000 });
    expect(
      refunds()
        .slice(before)
        .map((r) => r.params.amount),
    ).toEqual(['5500']);
    const rows = (await paymentsOf(booking.id)).filter((p) => p.kind === 'REFUND');
    expect(rows.map((p) => [Number(p.amount), p.reason, p.provider_reference])).toEqual([
      [2_500, 'Rain', expect.stringMatching(/^re_test_/)],
      [5_500, null, expect.stringMatching(/^re_test_/)],
    ]);
    expect(stub.chargeOf(paymentIntentId)).toMatchObject({ amount_refunded: 8_000, refunded: true });
  });

  it('a deposit and its balance: a full refund draws on both payments, newest first', async () => {
    const booking = await publicBooking(5, { paymentMode: 'DEPOSIT' });
    const deposit = await goToCheckout(booking.checkoutUrl);
    const depositPaid = stub.pay(deposit.checkoutId);
    expect(depositPaid.checkout.amount_total).toBe(4_000);
    await deliver('checkout.session.completed', depositPaid.checkout);
    const link = await t.request('POST', bookingsPath(ws, booking.id, '/payment-link'), { token: ws.token });
    expect(link.status, JSON.stringify(link.body)).toBe(201);
    expect(link.body.data.url).toMatch(/\/pay\/\w+$/);
    const balance = await goToCheckout(link.body.data.url);
    const balancePaid = stub.pay(balance.checkoutId);
    expect(balancePaid.checkout.amount_total).toBe(16_000);
    await deliver('checkout.session.completed', balancePaid.checkout);
    expect(await getBooking(t, ws, booking.id)).toMatchObject({ paymentStatus: 'PAID', amountPaid: 20_000 });

    const before = refunds().length;
    const full = await refund(booking.id);
    expect(full.status, JSON.stringify(full.body)).toBe(201);
    expect(
      refunds()
        .slice(before)
        .map((r) => [r.params.payment_intent, r.params.amount]),
    ).toEqual([
      [balancePaid.paymentIntent.id, '16000'],
      [depositPaid.paymentIntent.id, '4000'],
    ]);
    const [row] = (await paymentsOf(booking.id)).filter((p) => p.kind === 'REFUND');
    expect(row.provider_reference).toMatch(/^re_test_\w+ re_test_\w+$/);
    for (const intent of [balancePaid.paymentIntent.id, depositPaid.paymentIntent.id]) {
      const echo = await deliver('charge.refunded', stub.chargeOf(intent as string));
      expect(echo.outcome).toBe('refunds_known');
    }
    expect(await getBooking(t, ws, booking.id)).toMatchObject({
      paymentStatus: 'REFUNDED',
      amountRefunded: 20_000,
    });
  });

  it('a refund made in the Stripe dashboard is recorded once, by its refund id', async () => {
    const { booking, checkout, paymentIntentId } = await paidAtStripe(1);
    await deliver('checkout.session.completed', checkout);
    const { charge, refund: made } = stub.refundOutside(paymentIntentId, 1_000);
    expect((await deliver('charge.refunded', charge)).outcome).toBe('refunds_recorded');
    // Redelivered under a new event id (Stripe may), it is still one refund.
    expect((await deliver('charge.refunded', charge)).outcome).toBe('refunds_known');
    const rows = (await paymentsOf(booking.id)).filter((p) => p.kind === 'REFUND');
    expect(rows.map((p) => [Number(p.amount), p.reason, p.provider_reference])).toEqual([
      [1_000, 'REFUNDED_AT_PROVIDER', made.id],
    ]);
    const events = await eventsOf(t, booking.id);
    expect(events.at(-1)).toMatchObject({
      type: 'payment.refunded',
      data: { amount: 1_000, currency: 'EUR', reason: 'REFUNDED_AT_PROVIDER' },
    });
  });

  it('more than Stripe holds for the booking is 422, and nothing is refunded', async () => {
    const { booking, checkout, paymentIntentId } = await paidAtStripe(1);
    await deliver('checkout.session.completed', checkout);
    // Refunded in the dashboard, and the webhook not yet arrived: Stripe's books say 1000 is left.
    stub.refundOutside(paymentIntentId, 3_000);
    const before = refunds().length;
    expectError(await refund(booking.id, { amount: 2_000 }), 422, 'UNPROCESSABLE', [
      detail('amount', 'not_refundable_at_provider'),
    ]);
    expect(refunds().length).toBe(before);
    expect(await getBooking(t, ws, booking.id)).toMatchObject({ amountRefunded: 0 });
  });
});

describe('failed attempts and what is served', () => {
  it('payment_intent.payment_failed emits payment.failed; the booking and its checkout stay open', async () => {
    const booking = await publicBooking(1);
    const { checkoutId } = await goToCheckout(booking.checkoutUrl);
    const [session] = await sessionsOf(booking.id);
    const { outcome } = await deliver('payment_intent.payment_failed', {
      id: 'pi_test_declined',
      object: 'payment_intent',
      amount: 4_000,
      currency: 'eur',
      metadata: { travelops_session: session.id, travelops_booking: booking.id },
      last_payment_error: { type: 'card_error', code: 'card_declined' },
      status: 'requires_payment_method',
    });
    expect(outcome).toBe('payment_failed');
    expect((await eventsOf(t, booking.id)).at(-1)).toMatchObject({
      type: 'payment.failed',
      data: { bookingId: booking.id, sessionId: session.id, amount: 4_000, reason: 'card_declined' },
    });
    expect(await getBooking(t, ws, booking.id)).toMatchObject({ status: 'PENDING' });
    expect((await goToCheckout(booking.checkoutUrl)).checkoutId).toBe(checkoutId);
  });

  it('with Stripe, /sandbox/* is 404 and absent from /openapi.json; /pay and /stripe/webhooks are documented', async () => {
    const booking = await publicBooking(1);
    const token = /\/pay\/(\w+)$/.exec(booking.checkoutUrl)?.[1];
    for (const method of ['GET', 'POST']) {
      expectError(
        await t.request(
          method,
          `/sandbox/pay/${token}`,
          method === 'POST' ? { body: { outcome: 'succeeded' } } : {},
        ),
        404,
        'NOT_FOUND',
      );
    }
    expect(await getBooking(t, ws, booking.id)).toMatchObject({ status: 'PENDING', amountPaid: 0 });
    const doc = await t.request('GET', '/openapi.json');
    expect(Object.keys(doc.body.paths).filter((path) => path.startsWith('/sandbox'))).toEqual([]);
    expect(doc.body.paths['/pay/{token}']?.get?.operationId).toBe('startPaymentCheckout');
    expect(doc.body.paths['/stripe/webhooks']?.post?.operationId).toBe('receiveStripeWebhook');
  });

  it('a cancelled booking opens no checkout', async () => {
    const booking = await publicBooking(1);
    expect((await setStatus(t, ws, booking.id, 'CANCELLED')).status).toBe(200);
    expectError(await t.request('GET', new URL(booking.checkoutUrl).pathname), 422, 'UNPROCESSABLE', [
      detail('token', 'session_closed'),
    ]);
  });
});
