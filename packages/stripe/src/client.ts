import { type DomainError, unprocessable } from '@travelops/domain/shared';
import Stripe from 'stripe';

export interface StripeClientConfig {
  /** `sk_...` or a restricted `rk_...` key. */
  secretKey: string;
  /** Another Stripe-compatible server (stripe-mock, a test double); unset: api.stripe.com. */
  apiUrl?: string;
}

/** The SDK client, pointed at `apiUrl` when given. */
export function createStripeClient(config: StripeClientConfig): Stripe {
  const target = config.apiUrl ? new URL(config.apiUrl) : null;
  return new Stripe(config.secretKey, {
    // Retries reuse the SDK's idempotency key, so a retried create makes one object.
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    appInfo: { name: 'TravelOps' },
    ...(target && {
      host: target.hostname,
      port: target.port || (target.protocol === 'http:' ? '80' : '443'),
      protocol: target.protocol === 'http:' ? 'http' : 'https',
    }),
  });
}

/**
 * A failed call as a domain error: Stripe refusing the request (a 4xx: our request, or the
 * state of its objects) is UNPROCESSABLE; Stripe unreachable, limiting or failing is
 * INTERNAL_ERROR. Anything that is not the SDK's error is a bug and is thrown again.
 */
export function stripeFailure(error: unknown): DomainError {
  if (!(error instanceof Stripe.errors.StripeError)) throw error;
  const status = error.statusCode ?? 0;
  if (status >= 400 && status < 500 && status !== 429) {
    return unprocessable(`Stripe refused the request: ${error.message}`, 'payment', 'provider_refused');
  }
  return { code: 'INTERNAL_ERROR', message: 'The payment provider could not be reached; try again.' };
}
