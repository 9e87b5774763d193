import type { PaymentEventReader, PaymentProvider } from '@travelops/domain/payments';
import { createStripeClient } from './client.js';
import { createStripeEventReader } from './events.js';
import { createStripePaymentProvider } from './provider.js';

/** @public createStripePayments' argument: the composition root fills it from its env. */
export interface StripePaymentsConfig {
  secretKey: string;
  /** The webhook endpoint's signing secret (`whsec_...`). */
  webhookSecret: string;
  /** Another Stripe-compatible server (stripe-mock, a test double); unset: api.stripe.com. */
  apiUrl?: string;
  /** Base of the links handed out and of the pages Stripe sends payers back to. */
  publicBaseUrl: string;
}

/** Stripe behind the payment port, and the reader of its webhooks. */
export function createStripePayments(config: StripePaymentsConfig): {
  provider: PaymentProvider;
  events: PaymentEventReader;
} {
  const stripe = createStripeClient({
    secretKey: config.secretKey,
    ...(config.apiUrl && { apiUrl: config.apiUrl }),
  });
  return {
    provider: createStripePaymentProvider(stripe, { publicBaseUrl: config.publicBaseUrl }),
    events: createStripeEventReader(stripe, config.webhookSecret),
  };
}
