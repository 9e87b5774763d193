import { type StripeStub, startStripeStub } from '@travelops/stripe/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { book, bookingInput, bookingsPath } from '../support/booking-fixtures.js';
import { createDeparture, createTour, type TestWorkspace } from '../support/fixtures.js';
import { startTestApi, type TestApi } from '../support/harness.js';

// Issue 23 item 4: a payment link is payable by anyone it is sent to, so its pages show the
// payment's state only and never lead to the guest page `/b/{publicToken}` or its token; a
// checkout the guest started (widget, guest page) still returns them to their booking page.

const WEBHOOK_SECRET = 'whsec_travelops_payment_link_pages';

/** Nothing on the page leads to the guest page or names its token. */
function expectNoGuestPage(html: string, publicToken: string) {
  expect(html).not.toContain('/b/');
  expect(html).not.toContain(publicToken);
}

const tokenOf = (url: string) => /\/pay\/([0-9A-Za-z]+)$/.exec(url)?.[1] as string;

describe('through Stripe: /pay/{token} and its return page', () => {
  let stub: StripeStub;
  let t: TestApi;
  let ws: TestWorkspace;
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
    const tour = await createTour(t, ws, { basePrice: 4_000, currency: 'EUR', capacity: 40, isPublic: true });
    departure = await createDeparture(t, ws, tour.id, { capacity: 40 });
  });
  afterAll(async () => {
    await t?.close();
    await stub?.close();
  });

  /** Follows our /pay/{token} to Stripe (303) and returns the page's text there and back. */
  async function visit(url: string) {
    const res = await fetch(t.local(url), { redirect: 'manual' });
    expect(res.status).toBe(303);
    const location = res.headers.get('location') as string;
    return {
      checkoutId: /\/c\/pay\/(cs_test_\w+)$/.exec(location)?.[1] as string,
      body: await res.text(),
      location,
    };
  }
  const returnPage = async (token: string, query = '') =>
    (await fetch(`${t.baseUrl}/pay/${token}/done${query}`)).text();

  async function payAtStripe(checkoutId: string) {
    const { checkout } = stub.pay(checkoutId);
    const event = stub.event('checkout.session.completed', checkout, WEBHOOK_SECRET);
    const res = await t.request('POST', '/stripe/webhooks', {
      rawBody: event.body,
      headers: { 'Content-Type': 'application/json', 'Stripe-Signature': event.signature },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }

  it("an operator's payment link: /pay, its return page pending, cancelled and paid never lead to /b/ or name the token", async () => {
    const booking = await book(t, ws, departure.id, { paymentMode: 'MANUAL' });
    const link = await t.request('POST', bookingsPath(ws, booking.id, '/payment-link'), { token: ws.token });
    expect(link.status, JSON.stringify(link.body)).toBe(201);
    const token = tokenOf(link.body.data.url);
    const { checkoutId, body, location } = await visit(link.body.data.url);
    expectNoGuestPage(body + location, booking.publicToken);
    expectNoGuestPage(JSON.stringify(stub.requests.at(-1)), booking.publicToken);

    const pending = await returnPage(token);
    expect(pending).toContain('Payment being confirmed');
    expectNoGuestPage(pending, booking.publicToken);
    const cancelled = await returnPage(token, '?cancelled=1');
    expect(cancelled).toContain('Payment not completed');
    expectNoGuestPage(cancelled, booking.publicToken);

    await payAtStripe(checkoutId);
    const paid = await returnPage(token);
    expect(paid).toContain('Payment received');
    expect(paid).toContain('payment PAID');
    expectNoGuestPage(paid, booking.publicToken);
  });

  it("a checkout an operator's API booking handed out (checkoutUrl) is the operator's link too", async () => {
    const booking = await book(t, ws, departure.id, { paymentMode: 'CHECKOUT' });
    const token = tokenOf(booking.checkoutUrl);
    const { checkoutId } = await visit(booking.checkoutUrl);
    await payAtStripe(checkoutId);
    const paid = await returnPage(token);
    expect(paid).toContain('Payment received');
    expectNoGuestPage(paid, booking.publicToken);
  });

  it("a guest's checkout from the widget, and a retry from their booking page, return them to /b/{publicToken}", async () => {
    const created = await t.request('POST', `/public/${ws.slug}/bookings`, {
      body: bookingInput(departure.id),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const booking = created.body.data;
    const back = `<a href="/b/${booking.publicToken}">View your booking</a>`;
    await visit(booking.checkoutUrl);
    expect(await returnPage(tokenOf(booking.checkoutUrl))).toContain(back);

    const retried = await t.request('POST', `/public/bookings/${booking.publicToken}/payment/retry`);
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    const token = tokenOf(retried.body.data.checkoutUrl);
    const { checkoutId } = await visit(retried.body.data.checkoutUrl);
    expect(await returnPage(token, '?cancelled=1')).toContain(back);
    await payAtStripe(checkoutId);
    const paid = await returnPage(token);
    expect(paid).toContain('Payment received');
    expect(paid).toContain(back);
  });
});

describe('in the sandbox: the checkout page and its answer', () => {
  let t: TestApi;
  let ws: TestWorkspace;
  let departure: any;
  beforeAll(async () => {
    t = await startTestApi({ PUBLIC_HOLDS_PER_CLIENT: '1000' });
    ws = await t.createWorkspace('ADMIN');
    const tour = await createTour(t, ws, { basePrice: 4_000, currency: 'EUR', capacity: 40, isPublic: true });
    departure = await createDeparture(t, ws, tour.id, { capacity: 40 });
  });
  afterAll(() => t?.close());

  const payByForm = async (url: string) =>
    (
      await fetch(t.local(url), {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'outcome=succeeded',
      })
    ).text();

  it("an operator's payment link: the page, its paid answer (HTML and JSON) never lead to /b/ or name the token", async () => {
    const booking = await book(t, ws, departure.id, { paymentMode: 'MANUAL' });
    const link = await t.request('POST', bookingsPath(ws, booking.id, '/payment-link'), { token: ws.token });
    const url = link.body.data.url as string;
    expectNoGuestPage(await (await fetch(t.local(url))).text(), booking.publicToken);
    const paid = await payByForm(url);
    expect(paid).toContain('Payment received');
    expectNoGuestPage(paid, booking.publicToken);

    const again = await book(t, ws, departure.id, { paymentMode: 'MANUAL' });
    const second = await t.request('POST', bookingsPath(ws, again.id, '/payment-link'), { token: ws.token });
    const json = await fetch(t.local(second.body.data.url), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ outcome: 'succeeded' }),
    });
    const answer = (await json.json()) as any;
    expect(answer.data).toMatchObject({ status: 'SUCCEEDED', booking: { publicToken: null } });
    expectNoGuestPage(JSON.stringify(answer), again.publicToken);
  });

  it("a guest's checkout: the paid page leads back to their booking page", async () => {
    const created = await t.request('POST', `/public/${ws.slug}/bookings`, {
      body: bookingInput(departure.id),
    });
    const booking = created.body.data;
    const paid = await payByForm(booking.checkoutUrl);
    expect(paid).toContain(`<a href="/b/${booking.publicToken}">View your booking</a>`);
  });
});
