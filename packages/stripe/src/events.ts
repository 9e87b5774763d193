import type { PaymentEvent, PaymentEventReader, ProviderRefund } from '@travelops/domain/payments';
import { fail, hasIdPrefix, ok, parseInput, type Result, validationError } from '@travelops/domain/shared';
import type Stripe from 'stripe';
import * as v from 'valibot';
import { stripeFailure } from './client.js';
import { METADATA } from './provider.js';

const SIGNATURE_HEADER = 'Stripe-Signature';

const badSignature = (message: string) =>
  fail(validationError(message, [{ field: SIGNATURE_HEADER, issue: 'invalid_signature' }]));

/**
 * What this reader takes from Stripe's objects, checked before it is read: a signed event is
 * Stripe's word, but a field of another type (a number for `client_reference_id`) is a
 * malformed request (400), never a crash (a 5xx Stripe would send again for three days).
 * Objects keep their other fields unread.
 */
const Metadata = v.nullish(v.record(v.string(), v.string()));
const Expandable = v.nullish(v.union([v.string(), v.looseObject({ id: v.string() })]));
const Amount = v.pipe(v.number(), v.integer(), v.minValue(0));

const EventSchema = v.looseObject({
  id: v.string(),
  type: v.string(),
  data: v.looseObject({ object: v.looseObject({}) }),
});
type SignedEvent = v.InferOutput<typeof EventSchema>;

const CheckoutSchema = v.looseObject({
  id: v.string(),
  client_reference_id: v.nullish(v.string()),
  metadata: Metadata,
  payment_status: v.nullish(v.string()),
  payment_intent: Expandable,
  amount_total: v.nullish(Amount),
  currency: v.nullish(v.string()),
});

const ChargeSchema = v.looseObject({
  id: v.string(),
  metadata: Metadata,
  payment_intent: Expandable,
  amount_captured: Amount,
  currency: v.string(),
});

const PaymentIntentSchema = v.looseObject({
  metadata: Metadata,
  amount: Amount,
  last_payment_error: v.nullish(v.looseObject({ code: v.nullish(v.string()) })),
});

/** A signed event's object as `schema` reads it, or the 400 that names the malformed field. */
function objectOf<S extends v.GenericSchema>(schema: S, event: SignedEvent): Result<v.InferOutput<S>> {
  const parsed = parseInput(schema, event.data.object, 'data.object');
  return parsed.ok ? parsed : fail(validationError('The event is malformed.', parsed.error.details ?? []));
}

/** Our payment session named on a Stripe object, if it is one of ours. */
function ourSession(...candidates: Array<string | null | undefined>): string | null {
  return candidates.find((id): id is string => !!id && hasIdPrefix('paymentSession', id)) ?? null;
}

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value == null ? null : typeof value === 'string' ? value : value.id;

/**
 * Stripe's webhooks, verified with `stripe.webhooks.constructEvent` on the raw body and the
 * endpoint's signing secret, and read into the domain's neutral events. Only a refund list is
 * fetched from Stripe (its charge no longer embeds its refunds).
 */
export function createStripeEventReader(stripe: Stripe, webhookSecret: string): PaymentEventReader {
  async function toPaymentEvent(event: SignedEvent): Promise<Result<PaymentEvent>> {
    const base = { provider: 'stripe', eventId: event.id, type: event.type };
    const ignored = (reason: string): Result<PaymentEvent> => ok({ ...base, kind: 'ignored', reason });
    switch (event.type) {
      case 'checkout.session.completed':
      case 'checkout.session.async_payment_succeeded': {
        const read = objectOf(CheckoutSchema, event);
        if (!read.ok) return read;
        const checkout = read.value;
        const sessionId = ourSession(checkout.client_reference_id, checkout.metadata?.[METADATA.session]);
        if (!sessionId) return ignored('not_ours');
        // Delayed methods (bank debits) complete unpaid; async_payment_succeeded follows.
        if (checkout.payment_status === 'unpaid') return ignored('payment_pending');
        return ok({
          ...base,
          kind: 'checkout_completed',
          sessionId,
          checkoutReference: checkout.id,
          paymentReference: idOf(checkout.payment_intent),
          amount: checkout.amount_total ?? 0,
          currency: (checkout.currency ?? '').toUpperCase(),
        });
      }
      case 'checkout.session.expired': {
        const read = objectOf(CheckoutSchema, event);
        if (!read.ok) return read;
        const checkout = read.value;
        const sessionId = ourSession(checkout.client_reference_id, checkout.metadata?.[METADATA.session]);
        if (!sessionId) return ignored('not_ours');
        return ok({ ...base, kind: 'checkout_expired', sessionId, checkoutReference: checkout.id });
      }
      case 'charge.refunded': {
        const read = objectOf(ChargeSchema, event);
        if (!read.ok) return read;
        const charge = read.value;
        const sessionId = ourSession(charge.metadata?.[METADATA.session]);
        const paymentIntent = idOf(charge.payment_intent);
        if (!sessionId || !paymentIntent) return ignored('not_ours');
        const listed = await stripe.refunds.list({ charge: charge.id, limit: 100 });
        const refunds: ProviderRefund[] = listed.data
          // Pending refunds are on their way, as this service's own are once Stripe accepts them.
          .filter((refund) => refund.status === 'succeeded' || refund.status === 'pending')
          .map((refund) => ({
            reference: refund.id,
            amount: refund.amount,
            currency: refund.currency.toUpperCase(),
          }));
        return ok({
          ...base,
          kind: 'payment_refunded',
          sessionId,
          paymentReference: paymentIntent,
          paid: { amount: charge.amount_captured, currency: charge.currency.toUpperCase() },
          refunds,
        });
      }
      case 'payment_intent.payment_failed': {
        const read = objectOf(PaymentIntentSchema, event);
        if (!read.ok) return read;
        const intent = read.value;
        const sessionId = ourSession(intent.metadata?.[METADATA.session]);
        if (!sessionId) return ignored('not_ours');
        return ok({
          ...base,
          kind: 'payment_failed',
          sessionId,
          amount: intent.amount,
          reason: intent.last_payment_error?.code ?? null,
        });
      }
      default:
        return ignored('unhandled_type');
    }
  }

  return {
    provider: 'stripe',
    async read(rawBody, signature): Promise<Result<PaymentEvent>> {
      if (!signature) return badSignature(`The ${SIGNATURE_HEADER} header is missing.`);
      let signed: Stripe.Event;
      try {
        signed = stripe.webhooks.constructEvent(rawBody, signature, webhookSecret);
      } catch {
        return badSignature(`The ${SIGNATURE_HEADER} header does not verify this body.`);
      }
      const event = parseInput(EventSchema, signed);
      if (!event.ok) return fail(validationError('The event is malformed.', event.error.details ?? []));
      try {
        return await toPaymentEvent(event.value);
      } catch (error) {
        // Only the refund list is fetched: Stripe unreachable is a 5xx, and Stripe sends it again.
        return fail(stripeFailure(error));
      }
    },
  };
}
