import type { PaymentEvent, PaymentEventReader, ProviderRefund } from '@travelops/domain/payments';
import { fail, hasIdPrefix, ok, type Result, validationError } from '@travelops/domain/shared';
import type Stripe from 'stripe';
import { stripeFailure } from './client.js';
import { METADATA } from './provider.js';

const SIGNATURE_HEADER = 'Stripe-Signature';

const badSignature = (message: string) =>
  fail(validationError(message, [{ field: SIGNATURE_HEADER, issue: 'invalid_signature' }]));

/** Our payment session named on a Stripe object, if it is one of ours. */
function ourSession(...candidates: Array<string | null | undefined>): string | null {
  return candidates.find((id): id is string => !!id && hasIdPrefix('paymentSession', id)) ?? null;
}

const idOf = (value: string | { id: string } | null): string | null =>
  value === null ? null : typeof value === 'string' ? value : value.id;

/**
 * Stripe's webhooks, verified with `stripe.webhooks.constructEvent` on the raw body and the
 * endpoint's signing secret, and read into the domain's neutral events. Only a refund list is
 * fetched from Stripe (its charge no longer embeds its refunds).
 */
export function createStripeEventReader(stripe: Stripe, webhookSecret: string): PaymentEventReader {
  async function toPaymentEvent(event: Stripe.Event): Promise<PaymentEvent> {
    const base = { provider: 'stripe', eventId: event.id, type: event.type };
    const ignored = (reason: string): PaymentEvent => ({ ...base, kind: 'ignored', reason });
    switch (event.type) {
      case 'checkout.session.completed':
      case 'checkout.session.async_payment_succeeded': {
        const checkout = event.data.object;
        const sessionId = ourSession(checkout.client_reference_id, checkout.metadata?.[METADATA.session]);
        if (!sessionId) return ignored('not_ours');
        // Delayed methods (bank debits) complete unpaid; async_payment_succeeded follows.
        if (checkout.payment_status === 'unpaid') return ignored('payment_pending');
        return {
          ...base,
          kind: 'checkout_completed',
          sessionId,
          checkoutReference: checkout.id,
          paymentReference: idOf(checkout.payment_intent),
          amount: checkout.amount_total ?? 0,
          currency: (checkout.currency ?? '').toUpperCase(),
        };
      }
      case 'checkout.session.expired': {
        const checkout = event.data.object;
        const sessionId = ourSession(checkout.client_reference_id, checkout.metadata?.[METADATA.session]);
        if (!sessionId) return ignored('not_ours');
        return { ...base, kind: 'checkout_expired', sessionId, checkoutReference: checkout.id };
      }
      case 'charge.refunded': {
        const charge = event.data.object;
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
        return {
          ...base,
          kind: 'payment_refunded',
          sessionId,
          paymentReference: paymentIntent,
          paid: { amount: charge.amount_captured, currency: charge.currency.toUpperCase() },
          refunds,
        };
      }
      case 'payment_intent.payment_failed': {
        const intent = event.data.object;
        const sessionId = ourSession(intent.metadata?.[METADATA.session]);
        if (!sessionId) return ignored('not_ours');
        return {
          ...base,
          kind: 'payment_failed',
          sessionId,
          amount: intent.amount,
          reason: intent.last_payment_error?.code ?? null,
        };
      }
      default:
        return ignored('unhandled_type');
    }
  }

  return {
    provider: 'stripe',
    async read(rawBody, signature): Promise<Result<PaymentEvent>> {
      if (!signature) return badSignature(`The ${SIGNATURE_HEADER} header is missing.`);
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(rawBody, signature, webhookSecret);
      } catch {
        return badSignature(`The ${SIGNATURE_HEADER} header does not verify this body.`);
      }
      try {
        return ok(await toPaymentEvent(event));
      } catch (error) {
        return fail(stripeFailure(error));
      }
    },
  };
}
