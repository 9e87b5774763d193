import type {
  CheckoutRequest,
  CheckoutStart,
  PaymentProvider,
  RefundRequest,
} from '@travelops/domain/payments';
import { fail, ok, type Result, unprocessable } from '@travelops/domain/shared';
import type Stripe from 'stripe';
import { stripeFailure } from './client.js';

/** Metadata keys this service writes on Stripe's objects; the webhooks read them back. */
export const METADATA = { session: 'travelops_session', booking: 'travelops_booking' } as const;

const MINUTE = 60_000;
/** Stripe's bounds for `expires_at` (30 minutes to 24 hours after creation), with a minute of margin for clock skew. */
const SHORTEST_MS = 31 * MINUTE;
const LONGEST_MS = 24 * 60 * MINUTE - MINUTE;

/**
 * When Stripe's checkout closes (Unix seconds): with our session, unless Stripe's floor is
 * later. A checkout may so outlive a short hold (a guest hold is 15 minutes by default, Stripe's
 * floor 30): a payment that lands after the hold was released is returned (see the domain's
 * handlePaymentEvent).
 */
export function checkoutExpiresAt(sessionExpiresAt: Date, now: Date): number {
  const at = Math.min(
    Math.max(sessionExpiresAt.getTime(), now.getTime() + SHORTEST_MS),
    now.getTime() + LONGEST_MS,
  );
  return Math.floor(at / 1000);
}

export interface StripeProviderOptions {
  /** Base of the links handed out: `{publicBaseUrl}/pay/{token}`. */
  publicBaseUrl: string;
  now?: () => Date;
}

/** The payment port on Stripe Checkout: hosted checkout sessions, refunds per PaymentIntent. */
export function createStripePaymentProvider(stripe: Stripe, options: StripeProviderOptions): PaymentProvider {
  const now = options.now ?? (() => new Date());

  async function openCheckout(request: CheckoutRequest): Promise<Stripe.Checkout.Session> {
    const { session } = request;
    const metadata = { [METADATA.session]: session.id, [METADATA.booking]: session.bookingId };
    return stripe.checkout.sessions.create({
      mode: 'payment',
      line_items: [
        {
          quantity: 1,
          price_data: {
            currency: session.currency.toLowerCase(),
            unit_amount: session.amount,
            product_data: { name: request.description },
          },
        },
      ],
      client_reference_id: session.id,
      metadata,
      // Copied by Stripe onto the charge: refunds and failures name our session too.
      payment_intent_data: { metadata },
      ...(request.customerEmail && { customer_email: request.customerEmail }),
      success_url: request.returnUrl,
      cancel_url: request.cancelUrl,
      expires_at: checkoutExpiresAt(session.expiresAt, now()),
    });
  }

  return {
    checkoutUrl: (session) => `${options.publicBaseUrl}/pay/${session.token}`,

    async startCheckout(request): Promise<Result<CheckoutStart>> {
      try {
        const reference = request.session.providerReference;
        if (reference) {
          const existing = await stripe.checkout.sessions.retrieve(reference);
          if (existing.status === 'open' && existing.url) {
            return ok({ redirectUrl: existing.url, reference: existing.id });
          }
          // Paid already (its webhook is on the way): back to where Stripe would send the payer.
          if (existing.status === 'complete') {
            return ok({ redirectUrl: request.returnUrl, reference: existing.id });
          }
        }
        const opened = await openCheckout(request);
        if (!opened.url) return fail({ code: 'INTERNAL_ERROR', message: 'Stripe opened no checkout page.' });
        return ok({ redirectUrl: opened.url, reference: opened.id });
      } catch (error) {
        return fail(stripeFailure(error));
      }
    },

    async refund(request: RefundRequest): Promise<Result<{ reference: string }>> {
      const references = request.paymentReferences ?? [];
      try {
        // What each payment can still return, by Stripe's books (dashboard refunds included).
        const plan: Array<{ paymentIntent: string; amount: number }> = [];
        let left = request.amount;
        for (const paymentIntent of references) {
          if (left <= 0) break;
          const intent = await stripe.paymentIntents.retrieve(paymentIntent, { expand: ['latest_charge'] });
          const charge = intent.latest_charge;
          if (!charge || typeof charge === 'string') continue;
          const amount = Math.min(left, charge.amount_captured - charge.amount_refunded);
          if (amount <= 0) continue;
          plan.push({ paymentIntent, amount });
          left -= amount;
        }
        if (left > 0) {
          return fail(
            unprocessable(
              `Stripe holds ${request.amount - left} of this booking's payments that can still be refunded; refund the rest outside the service.`,
              'amount',
              'not_refundable_at_provider',
            ),
          );
        }
        const ids: string[] = [];
        for (const part of plan) {
          // A refund made before a later part fails is recorded by its charge.refunded webhook.
          const refund = await stripe.refunds.create({
            payment_intent: part.paymentIntent,
            amount: part.amount,
            metadata: { [METADATA.booking]: request.bookingId },
          });
          ids.push(refund.id);
        }
        return ok({ reference: ids.join(' ') });
      } catch (error) {
        return fail(stripeFailure(error));
      }
    },
  };
}
