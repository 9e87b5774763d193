import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/** @public One request the SDK sent, as the test double received it. */
export interface StubRequest {
  method: string;
  path: string;
  /** Form-encoded parameters (body, or query on GET) by their bracketed keys: `line_items[0][quantity]`. */
  params: Record<string, string>;
  authorization: string | undefined;
  idempotencyKey: string | undefined;
}

type Json = Record<string, unknown>;

/**
 * A Stripe-compatible test double on a local port, for `STRIPE_API_URL`: it records every
 * request and answers the documented JSON shapes of the few endpoints the adapter calls
 * (Checkout Sessions create/retrieve, PaymentIntents retrieve, Refunds create/list). The test
 * plays the payer and the dashboard with `pay`, `expire` and `refundOutside`, and signs the
 * webhooks Stripe would send with the SDK's `webhooks.generateTestHeaderString`.
 */
export interface StripeStub {
  url: string;
  requests: StubRequest[];
  /** Checkout Sessions by id, as Stripe holds them. */
  checkoutSessions: Map<string, Json>;
  /** The payer pays the Checkout Session: a PaymentIntent and its charge; returns the three. */
  pay(
    checkoutId: string,
    options?: { amount?: number },
  ): { checkout: Json; paymentIntent: Json; charge: Json };
  /** Stripe expires the Checkout Session. */
  expire(checkoutId: string): Json;
  /** A refund made in the dashboard; returns the refund and the charge after it. */
  refundOutside(paymentIntentId: string, amount: number): { refund: Json; charge: Json };
  /** The charge of a PaymentIntent, as Stripe holds it now. */
  chargeOf(paymentIntentId: string): Json;
  /** A webhook event envelope around `object`, and its body and signature header. */
  event(type: string, object: Json, secret: string): { id: string; body: string; signature: string };
  close(): Promise<void>;
}

const newId = (prefix: string) => `${prefix}_test_${randomBytes(12).toString('hex')}`;
const nowSeconds = () => Math.floor(Date.now() / 1000);

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

const stripeError = (status: number, message: string, code?: string) => ({
  status,
  body: { error: { type: 'invalid_request_error', message, ...(code && { code }) } },
});

export async function startStripeStub(): Promise<StripeStub> {
  const requests: StubRequest[] = [];
  const checkoutSessions = new Map<string, Json>();
  const paymentIntents = new Map<string, Json>();
  const charges = new Map<string, Json>();
  const refunds: Json[] = [];
  const signer = new Stripe('sk_test_stub_signer');

  function createCheckout(p: Record<string, string>): Json {
    const id = newId('cs');
    const metadata = Object.fromEntries(
      Object.entries(p)
        .filter(([key]) => key.startsWith('metadata['))
        .map(([key, value]) => [key.slice('metadata['.length, -1), value]),
    );
    const checkout: Json = {
      id,
      object: 'checkout.session',
      amount_subtotal: Number(p['line_items[0][price_data][unit_amount]']),
      amount_total:
        Number(p['line_items[0][price_data][unit_amount]']) * Number(p['line_items[0][quantity]']),
      cancel_url: p.cancel_url ?? null,
      client_reference_id: p.client_reference_id ?? null,
      created: nowSeconds(),
      currency: p['line_items[0][price_data][currency]'],
      customer_email: p.customer_email ?? null,
      expires_at: Number(p.expires_at),
      livemode: false,
      metadata,
      mode: p.mode,
      payment_intent: null,
      payment_status: 'unpaid',
      status: 'open',
      success_url: p.success_url ?? null,
      url: `https://checkout.stripe.test/c/pay/${id}`,
    };
    checkoutSessions.set(id, checkout);
    return checkout;
  }

  function refundable(charge: Json): number {
    return (charge.amount_captured as number) - (charge.amount_refunded as number);
  }

  function addRefund(paymentIntentId: string, amount: number, metadata: Json): Json | null {
    const intent = paymentIntents.get(paymentIntentId);
    const charge = intent && charges.get(intent.latest_charge as string);
    if (!intent || !charge || amount > refundable(charge)) return null;
    const refund: Json = {
      id: newId('re'),
      object: 'refund',
      amount,
      charge: charge.id,
      created: nowSeconds(),
      currency: charge.currency,
      metadata,
      payment_intent: paymentIntentId,
      reason: null,
      status: 'succeeded',
    };
    refunds.push(refund);
    charge.amount_refunded = (charge.amount_refunded as number) + amount;
    charge.refunded = charge.amount_refunded === charge.amount_captured;
    return refund;
  }

  function answer(req: StubRequest): { status: number; body: unknown } {
    const p = req.params;
    if (req.method === 'POST' && req.path === '/v1/checkout/sessions') {
      return { status: 200, body: createCheckout(p) };
    }
    const checkout = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(req.path);
    if (req.method === 'GET' && checkout) {
      const found = checkoutSessions.get(checkout[1] as string);
      return found
        ? { status: 200, body: found }
        : stripeError(404, 'No such checkout.session', 'resource_missing');
    }
    const intent = /^\/v1\/payment_intents\/([^/]+)$/.exec(req.path);
    if (req.method === 'GET' && intent) {
      const found = paymentIntents.get(intent[1] as string);
      if (!found) return stripeError(404, 'No such payment_intent', 'resource_missing');
      const expand = Object.entries(p).some(
        ([key, value]) => key.startsWith('expand') && value === 'latest_charge',
      );
      return {
        status: 200,
        body: expand ? { ...found, latest_charge: charges.get(found.latest_charge as string) } : found,
      };
    }
    if (req.method === 'POST' && req.path === '/v1/refunds') {
      const metadata = Object.fromEntries(
        Object.entries(p)
          .filter(([key]) => key.startsWith('metadata['))
          .map(([key, value]) => [key.slice('metadata['.length, -1), value]),
      );
      const refund = addRefund(p.payment_intent ?? '', Number(p.amount), metadata);
      return refund
        ? { status: 200, body: refund }
        : stripeError(400, 'Refund amount is greater than unrefunded amount on charge', 'amount_too_large');
    }
    if (req.method === 'GET' && req.path === '/v1/refunds') {
      const data = refunds.filter((refund) => !p.charge || refund.charge === p.charge);
      return { status: 200, body: { object: 'list', data, has_more: false, url: '/v1/refunds' } };
    }
    return stripeError(404, `Unrecognized request URL (${req.method}: ${req.path})`);
  }

  const server: Server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://stub');
    const text = req.method === 'GET' ? url.searchParams.toString() : await readBody(req);
    const recorded: StubRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      params: Object.fromEntries(new URLSearchParams(text)),
      authorization: req.headers.authorization,
      idempotencyKey: req.headers['idempotency-key'] as string | undefined,
    };
    requests.push(recorded);
    const { status, body } = answer(recorded);
    res.writeHead(status, { 'Content-Type': 'application/json', 'Request-Id': newId('req') });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  function chargeOf(paymentIntentId: string): Json {
    const intent = paymentIntents.get(paymentIntentId);
    const charge = intent && charges.get(intent.latest_charge as string);
    if (!charge) throw new Error(`no charge for ${paymentIntentId}`);
    return { ...charge };
  }

  return {
    url,
    requests,
    checkoutSessions,
    pay(checkoutId, options = {}) {
      const checkout = checkoutSessions.get(checkoutId);
      if (!checkout) throw new Error(`no checkout ${checkoutId}`);
      const amount = options.amount ?? (checkout.amount_total as number);
      const paymentIntentId = newId('pi');
      const charge: Json = {
        id: newId('ch'),
        object: 'charge',
        amount,
        amount_captured: amount,
        amount_refunded: 0,
        captured: true,
        created: nowSeconds(),
        currency: checkout.currency,
        metadata: checkout.metadata,
        paid: true,
        payment_intent: paymentIntentId,
        refunded: false,
        status: 'succeeded',
      };
      const paymentIntent: Json = {
        id: paymentIntentId,
        object: 'payment_intent',
        amount,
        amount_received: amount,
        created: nowSeconds(),
        currency: checkout.currency,
        last_payment_error: null,
        latest_charge: charge.id,
        metadata: checkout.metadata,
        status: 'succeeded',
      };
      charges.set(charge.id as string, charge);
      paymentIntents.set(paymentIntentId, paymentIntent);
      Object.assign(checkout, {
        amount_total: amount,
        payment_intent: paymentIntentId,
        payment_status: 'paid',
        status: 'complete',
        url: null,
      });
      return { checkout: { ...checkout }, paymentIntent: { ...paymentIntent }, charge: { ...charge } };
    },
    expire(checkoutId) {
      const checkout = checkoutSessions.get(checkoutId);
      if (!checkout) throw new Error(`no checkout ${checkoutId}`);
      Object.assign(checkout, { status: 'expired', url: null });
      return { ...checkout };
    },
    refundOutside(paymentIntentId, amount) {
      const refund = addRefund(paymentIntentId, amount, {});
      if (!refund) throw new Error(`cannot refund ${amount} of ${paymentIntentId}`);
      return { refund, charge: chargeOf(paymentIntentId) };
    },
    chargeOf,
    event(type, object, secret) {
      const id = newId('evt');
      const body = JSON.stringify({
        id,
        object: 'event',
        api_version: Stripe.API_VERSION,
        created: nowSeconds(),
        data: { object },
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        type,
      });
      return { id, body, signature: signer.webhooks.generateTestHeaderString({ payload: body, secret }) };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
