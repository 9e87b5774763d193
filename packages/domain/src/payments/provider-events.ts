import type { Result } from '../shared/result.js';

/** A refund as the provider reports it. */
export interface ProviderRefund {
  reference: string;
  amount: number;
  currency: string;
}

/**
 * A provider's webhook event, read into what this service acts on; the provider's own shapes
 * stay in its adapter. `sessionId` is our payment session the provider was told about.
 */
export type PaymentEvent = { provider: string; eventId: string; type: string } & (
  | {
      /** The payer paid through the provider's checkout. */
      kind: 'checkout_completed';
      sessionId: string;
      checkoutReference: string;
      /** The provider's payment (what refunds draw on). */
      paymentReference: string | null;
      amount: number;
      currency: string;
    }
  | {
      /** The provider's checkout closed unpaid. */
      kind: 'checkout_expired';
      sessionId: string;
      checkoutReference: string;
    }
  | {
      /** Money went back on one of the provider's payments, from this service or elsewhere. */
      kind: 'payment_refunded';
      sessionId: string;
      paymentReference: string;
      /** What the payment took: it is recorded first when its completion has not arrived yet. */
      paid: { amount: number; currency: string };
      refunds: readonly ProviderRefund[];
    }
  | {
      /** An attempt to pay failed; the checkout stays open for another attempt. */
      kind: 'payment_failed';
      sessionId: string;
      amount: number;
      reason: string | null;
    }
  | {
      /** Nothing to act on: another integration's object, a type not handled, a payment still pending. */
      kind: 'ignored';
      reason: string;
    }
);

/** Verifies a provider's webhook (its signature over the raw body) and reads it. */
export interface PaymentEventReader {
  /** The provider's name, as events and logs carry it. */
  readonly provider: string;
  /** VALIDATION_ERROR (field: the signature header) when the signature does not verify. */
  read(rawBody: Uint8Array, signature: string | undefined): Promise<Result<PaymentEvent>>;
}

/** What handling an event did; expected outcomes are data, the adapter only logs them. */
export type PaymentEventOutcome =
  /** The event id was handled before: nothing done. */
  | 'duplicate_event'
  | 'ignored'
  /** No payment session of ours has this id. */
  | 'unknown_session'
  /** The provider took another amount or currency than the session asked: nothing recorded. */
  | 'amount_mismatch'
  /** A completed checkout that is not the one the session keeps: nothing recorded. */
  | 'checkout_mismatch'
  | 'payment_recorded'
  /** Recorded before (by another event of the same payment): nothing done. */
  | 'payment_known'
  | 'checkout_expired'
  /** The checkout expired and the unpaid hold that waited on it was released early. */
  | 'hold_released'
  /** The event names a checkout the session has since replaced, or one already paid: nothing done. */
  | 'checkout_stale'
  | 'refunds_recorded'
  | 'refunds_known'
  | 'payment_failed';

export interface PaymentEventReport {
  outcome: PaymentEventOutcome;
  bookingId?: string;
  sessionId?: string;
  /** Why, for the log: the amounts of a mismatch, the reason of an ignored event. */
  detail?: string;
  /**
   * Money the booking cannot keep (paid after its hold was released or it was cancelled, or
   * beyond its total), and whether returning it through the provider worked.
   */
  returned?: { amount: number; ok: boolean; detail?: string };
}
