import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStripeClient } from './client.js';
import { createStripeEventReader } from './events.js';
import { type StripeStub, startStripeStub } from './testing.js';

const SECRET = 'whsec_unit_test_secret';

let stub: StripeStub;
let reader: ReturnType<typeof createStripeEventReader>;
beforeAll(async () => {
  stub = await startStripeStub();
  const stripe = createStripeClient({ secretKey: 'sk_test_unit', apiUrl: stub.url });
  reader = createStripeEventReader(stripe, SECRET);
});
afterAll(() => stub.close());

const read = (type: string, object: Record<string, unknown>, secret = SECRET) => {
  const event = stub.event(type, object, secret);
  return reader.read(Buffer.from(event.body), event.signature);
};

const ours = { travelops_session: 'ps_0123456789abcdefghijkl', travelops_booking: 'bkg_1' };

/** A Checkout Session of ours, opened through the double's API as the adapter would. */
async function openCheckout() {
  const stripe = createStripeClient({ secretKey: 'sk_test_unit', apiUrl: stub.url });
  const checkout = await stripe.checkout.sessions.create({
    mode: 'payment',
    line_items: [
      { quantity: 1, price_data: { currency: 'eur', unit_amount: 5_000, product_data: { name: 'x' } } },
    ],
    client_reference_id: ours.travelops_session,
    metadata: ours,
    payment_intent_data: { metadata: ours },
  });
  return checkout.id;
}

describe('reading Stripe webhooks', () => {
  it.each([
    ['no header', undefined],
    ['a header signed with another secret', 'other'],
    ['a tampered body', 'tamper'],
  ])('refuses %s as VALIDATION_ERROR on Stripe-Signature', async (_label, how) => {
    const event = stub.event(
      'checkout.session.completed',
      { id: 'cs_1' },
      how === 'other' ? 'whsec_other' : SECRET,
    );
    const body = how === 'tamper' ? event.body.replace('cs_1', 'cs_2') : event.body;
    const result = await reader.read(Buffer.from(body), how === undefined ? undefined : event.signature);
    expect(result.ok ? null : result.error).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ field: 'Stripe-Signature', issue: 'invalid_signature' }],
    });
  });

  it.each([
    ['checkout.session.completed', { id: 'cs_1', client_reference_id: 42 }, 'client_reference_id'],
    [
      'checkout.session.completed',
      { id: 'cs_1', client_reference_id: { id: 'ps_1' } },
      'client_reference_id',
    ],
    [
      'checkout.session.completed',
      { id: 'cs_1', metadata: { travelops_session: 7 } },
      'metadata.travelops_session',
    ],
    ['checkout.session.completed', { id: 'cs_1', metadata: 'ps_1' }, 'metadata'],
    ['checkout.session.completed', { id: 'cs_1', amount_total: '5000' }, 'amount_total'],
    ['checkout.session.completed', { id: 'cs_1', currency: 978 }, 'currency'],
    ['checkout.session.completed', { id: 'cs_1', payment_intent: 5 }, 'payment_intent'],
    ['checkout.session.async_payment_succeeded', { id: 17 }, 'id'],
    ['checkout.session.expired', { id: null }, 'id'],
    [
      'charge.refunded',
      { id: 'ch_1', metadata: ours, payment_intent: 'pi_1', amount_captured: 1, currency: 1 },
      'currency',
    ],
    [
      'charge.refunded',
      { id: 'ch_1', metadata: ours, payment_intent: 'pi_1', currency: 'eur' },
      'amount_captured',
    ],
    [
      'payment_intent.payment_failed',
      { id: 'pi_1', metadata: ours, amount: 1, last_payment_error: { code: 9 } },
      'last_payment_error.code',
    ],
  ])(
    'a signed %s with %j is VALIDATION_ERROR on the field (400), never a crash',
    async (type, object, field) => {
      const result = await read(type, object);
      expect(result.ok ? null : result.error).toMatchObject({
        code: 'VALIDATION_ERROR',
        details: [{ field: `data.object.${field}`, issue: expect.any(String) }],
      });
    },
  );

  it('a signed event without an object, or with an id of another type, is VALIDATION_ERROR', async () => {
    const signer = createStripeClient({ secretKey: 'sk_test_unit' });
    const event = stub.event('checkout.session.completed', { id: 'cs_1' }, SECRET);
    for (const body of [
      event.body.replace(/"data":\{"object":\{[^}]*\}\}/, '"data":{"object":"cs_1"}'),
      event.body.replace(/"id":"evt_\w+"/, '"id":12'),
    ]) {
      const signature = signer.webhooks.generateTestHeaderString({ payload: body, secret: SECRET });
      const result = await reader.read(Buffer.from(body), signature);
      expect(result.ok ? null : result.error).toMatchObject({ code: 'VALIDATION_ERROR' });
    }
  });

  it('checkout.session.completed (paid) names our session, the PaymentIntent, the amount in upper-case currency', async () => {
    const checkoutId = await openCheckout();
    const { checkout, paymentIntent } = stub.pay(checkoutId);
    const result = await read('checkout.session.completed', checkout);
    expect(result).toEqual({
      ok: true,
      value: expect.objectContaining({
        provider: 'stripe',
        type: 'checkout.session.completed',
        kind: 'checkout_completed',
        sessionId: ours.travelops_session,
        checkoutReference: checkoutId,
        paymentReference: paymentIntent.id,
        amount: 5_000,
        currency: 'EUR',
      }),
    });
  });

  it('a completed checkout still unpaid (a bank debit) waits for async_payment_succeeded', async () => {
    const checkoutId = await openCheckout();
    const unpaid = { ...stub.checkoutSessions.get(checkoutId), status: 'complete' };
    const result = await read('checkout.session.completed', unpaid);
    expect(result.ok && result.value).toMatchObject({ kind: 'ignored', reason: 'payment_pending' });
  });

  it("another integration's objects and unhandled types are ignored", async () => {
    const foreign = await read('checkout.session.completed', {
      id: 'cs_x',
      client_reference_id: 'order-17',
      metadata: {},
    });
    expect(foreign.ok && foreign.value).toMatchObject({ kind: 'ignored', reason: 'not_ours' });
    const other = await read('customer.created', { id: 'cus_1' });
    expect(other.ok && other.value).toMatchObject({ kind: 'ignored', reason: 'unhandled_type' });
  });

  it('checkout.session.expired names the checkout it closes', async () => {
    const checkoutId = await openCheckout();
    const result = await read('checkout.session.expired', stub.expire(checkoutId));
    expect(result.ok && result.value).toMatchObject({
      kind: 'checkout_expired',
      sessionId: ours.travelops_session,
      checkoutReference: checkoutId,
    });
  });

  it("charge.refunded lists the charge's refunds from Stripe", async () => {
    const checkoutId = await openCheckout();
    const { paymentIntent } = stub.pay(checkoutId);
    const first = stub.refundOutside(paymentIntent.id as string, 1_000);
    const { refund: second, charge } = stub.refundOutside(paymentIntent.id as string, 500);
    const before = stub.requests.length;
    const result = await read('charge.refunded', charge);
    expect(stub.requests.slice(before)).toEqual([
      expect.objectContaining({
        method: 'GET',
        path: '/v1/refunds',
        params: { charge: charge.id, limit: '100' },
      }),
    ]);
    expect(result.ok && result.value).toMatchObject({
      kind: 'payment_refunded',
      sessionId: ours.travelops_session,
      paymentReference: paymentIntent.id,
      paid: { amount: 5_000, currency: 'EUR' },
      refunds: [
        { reference: first.refund.id, amount: 1_000, currency: 'EUR' },
        { reference: second.id, amount: 500, currency: 'EUR' },
      ],
    });
  });

  it('payment_intent.payment_failed carries the decline code', async () => {
    const result = await read('payment_intent.payment_failed', {
      id: 'pi_1',
      object: 'payment_intent',
      amount: 5_000,
      currency: 'eur',
      metadata: ours,
      last_payment_error: { code: 'card_declined', type: 'card_error' },
    });
    expect(result.ok && result.value).toMatchObject({
      kind: 'payment_failed',
      sessionId: ours.travelops_session,
      amount: 5_000,
      reason: 'card_declined',
    });
  });
});
