import type { PaymentSession } from '@travelops/domain/payments';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStripeClient } from './client.js';
import { checkoutExpiresAt, createStripePaymentProvider } from './provider.js';
import { type StripeStub, startStripeStub } from './testing.js';

const MINUTE = 60_000;
const now = new Date('2030-07-01T08:00:00.000Z');
const seconds = (date: Date) => date.getTime() / 1000;

describe("checkoutExpiresAt: our session, within Stripe's 30 minutes to 24 hours", () => {
  it.each([
    ['a 24 h payment link keeps its expiry', 20 * 60, 20 * 60],
    ['a 45-minute hold keeps its expiry', 45, 45],
    ["a 15-minute guest hold gets Stripe's floor (31 minutes with margin)", 15, 31],
    ['a session about to end gets the floor too', 1, 31],
    ['never past 24 hours minus a minute', 25 * 60, 24 * 60 - 1],
  ])('%s', (_label, sessionMinutes, expectedMinutes) => {
    const expiresAt = new Date(now.getTime() + sessionMinutes * MINUTE);
    expect(checkoutExpiresAt(expiresAt, now)).toBe(seconds(now) + expectedMinutes * 60);
  });
});

let stub: StripeStub;
beforeAll(async () => {
  stub = await startStripeStub();
});
afterAll(() => stub.close());

const provider = () =>
  createStripePaymentProvider(createStripeClient({ secretKey: 'sk_test_unit', apiUrl: stub.url }), {
    publicBaseUrl: 'https://api.example.com',
    now: () => now,
  });

const session = (extra: Partial<PaymentSession> = {}): PaymentSession => ({
  id: 'ps_unit1',
  token: 'tok3n',
  workspaceId: 'ws_1',
  bookingId: 'bkg_1',
  amount: 12_500,
  currency: 'EUR',
  purpose: 'DEPOSIT',
  openedBy: 'guest',
  status: 'OPEN',
  expiresAt: new Date(now.getTime() + 2 * 60 * MINUTE),
  createdAt: now,
  completedAt: null,
  providerReference: null,
  ...extra,
});

const checkoutRequest = (extra: Partial<PaymentSession> = {}) => ({
  session: session(extra),
  description: 'Volcano Trek, 2030-07-02 (deposit)',
  customerEmail: 'ada@example.com',
  returnUrl: 'https://api.example.com/pay/tok3n/done',
  cancelUrl: 'https://api.example.com/pay/tok3n/done?cancelled=1',
});

describe('the Stripe payment provider', () => {
  it("hands out our own stable link, never Stripe's", () => {
    expect(provider().checkoutUrl(session())).toBe('https://api.example.com/pay/tok3n');
  });

  it('opens a Checkout Session for the exact amount, naming our session, with our expiry', async () => {
    const before = stub.requests.length;
    const started = await provider().startCheckout(checkoutRequest());
    if (!started.ok) throw new Error(started.error.message);
    const [request] = stub.requests.slice(before);
    expect(request).toMatchObject({
      method: 'POST',
      path: '/v1/checkout/sessions',
      authorization: 'Bearer sk_test_unit',
      params: {
        mode: 'payment',
        'line_items[0][quantity]': '1',
        'line_items[0][price_data][currency]': 'eur',
        'line_items[0][price_data][unit_amount]': '12500',
        'line_items[0][price_data][product_data][name]': 'Volcano Trek, 2030-07-02 (deposit)',
        client_reference_id: 'ps_unit1',
        'metadata[travelops_session]': 'ps_unit1',
        'metadata[travelops_booking]': 'bkg_1',
        'payment_intent_data[metadata][travelops_session]': 'ps_unit1',
        customer_email: 'ada@example.com',
        success_url: 'https://api.example.com/pay/tok3n/done',
        cancel_url: 'https://api.example.com/pay/tok3n/done?cancelled=1',
        expires_at: String(seconds(now) + 120 * 60),
      },
    });
    expect(started.value.reference).toMatch(/^cs_test_/);
    expect(started.value.redirectUrl).toBe(`https://checkout.stripe.test/c/pay/${started.value.reference}`);
  });

  it('reuses an open Checkout Session; opens a fresh one when Stripe expired it', async () => {
    const first = await provider().startCheckout(checkoutRequest());
    if (!first.ok) throw new Error(first.error.message);
    const reference = first.value.reference as string;
    const before = stub.requests.length;
    const again = await provider().startCheckout(checkoutRequest({ providerReference: reference }));
    expect(again).toEqual(first);
    expect(stub.requests.slice(before).map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET /v1/checkout/sessions/${reference}`,
    ]);

    stub.expire(reference);
    const fresh = await provider().startCheckout(checkoutRequest({ providerReference: reference }));
    expect(fresh.ok && fresh.value.reference).not.toBe(reference);
    expect(stub.requests.slice(before + 1).map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET /v1/checkout/sessions/${reference}`,
      'POST /v1/checkout/sessions',
    ]);
  });

  it('a Checkout Session paid already sends the payer back to the return page', async () => {
    const first = await provider().startCheckout(checkoutRequest());
    if (!first.ok) throw new Error(first.error.message);
    stub.pay(first.value.reference as string);
    const again = await provider().startCheckout(
      checkoutRequest({ providerReference: first.value.reference as string }),
    );
    expect(again).toEqual({
      ok: true,
      value: { redirectUrl: 'https://api.example.com/pay/tok3n/done', reference: first.value.reference },
    });
  });

  it('refunds draw on the newest payment first, then the older one', async () => {
    const deposit = await provider().startCheckout(checkoutRequest({ amount: 2_000 }));
    const balance = await provider().startCheckout(checkoutRequest({ amount: 8_000 }));
    if (!deposit.ok || !balance.ok) throw new Error('no checkout');
    const depositIntent = stub.pay(deposit.value.reference as string).paymentIntent.id as string;
    const balanceIntent = stub.pay(balance.value.reference as string).paymentIntent.id as string;
    const before = stub.requests.length;
    const refunded = await provider().refund({
      bookingId: 'bkg_1',
      amount: 9_000,
      currency: 'EUR',
      paymentReferences: [balanceIntent, depositIntent],
    });
    if (!refunded.ok) throw new Error(refunded.error.message);
    const creates = stub.requests.slice(before).filter((r) => r.path === '/v1/refunds');
    expect(creates.map((r) => r.params)).toEqual([
      { payment_intent: balanceIntent, amount: '8000', 'metadata[travelops_booking]': 'bkg_1' },
      { payment_intent: depositIntent, amount: '1000', 'metadata[travelops_booking]': 'bkg_1' },
    ]);
    expect(refunded.value.reference).toMatch(/^re_test_\w+ re_test_\w+$/);
    expect(stub.chargeOf(depositIntent)).toMatchObject({ amount_refunded: 1_000 });
  });

  it('refuses, refunding nothing, when Stripe holds less than asked (or no payment at all)', async () => {
    const paid = await provider().startCheckout(checkoutRequest({ amount: 3_000 }));
    if (!paid.ok) throw new Error('no checkout');
    const intent = stub.pay(paid.value.reference as string).paymentIntent.id as string;
    stub.refundOutside(intent, 1_000);
    const before = stub.requests.length;
    const refused = await provider().refund({
      bookingId: 'bkg_1',
      amount: 2_500,
      currency: 'EUR',
      paymentReferences: [intent],
    });
    expect(refused.ok ? null : refused.error).toMatchObject({
      code: 'UNPROCESSABLE',
      details: [{ field: 'amount', issue: 'not_refundable_at_provider' }],
    });
    expect(stub.requests.slice(before).filter((r) => r.method === 'POST')).toEqual([]);
    const none = await provider().refund({ bookingId: 'bkg_1', amount: 100, currency: 'EUR' });
    expect(none.ok ? null : none.error.code).toBe('UNPROCESSABLE');
  });

  it('Stripe unreachable is INTERNAL_ERROR, not a throw', async () => {
    const down = createStripePaymentProvider(
      createStripeClient({ secretKey: 'sk_test_unit', apiUrl: 'http://127.0.0.1:9' }),
      { publicBaseUrl: 'https://api.example.com', now: () => now },
    );
    const started = await down.startCheckout(checkoutRequest());
    expect(started.ok ? null : started.error.code).toBe('INTERNAL_ERROR');
  });
});
