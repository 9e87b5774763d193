import type { BookingRecord } from '../bookings/index.js';
import { newId, randomBase62 } from '../shared/ids.js';
import type { Result } from '../shared/result.js';
import type {
  NewPaymentSession,
  PaymentPageOpener,
  PaymentPurpose,
  PaymentSession,
  PaymentStore,
} from './ports.js';

/** What a provider needs to open its hosted checkout for one of our payment sessions. */
export interface CheckoutRequest {
  session: PaymentSession;
  /** One line the payer recognises on the provider's page, e.g. "Volcano Trek, 2030-07-01 (deposit)". */
  description: string;
  /** Prefills the provider's page and receipt; null when unknown. */
  customerEmail: string | null;
  /** Where the provider sends the payer back: after paying, and on giving up. */
  returnUrl: string;
  cancelUrl: string;
}

/** Where to send the payer now, and the provider's checkout to remember for the session. */
export interface CheckoutStart {
  redirectUrl: string;
  /** The provider's checkout (e.g. a Stripe Checkout Session id); null when it keeps none. */
  reference: string | null;
}

/** Money back through the provider. Callers that pass only the first three fields still work. */
export interface RefundRequest {
  bookingId: string;
  amount: number;
  currency: string;
  /**
   * The provider references of the booking's payments, newest first: what the refund draws
   * on. `refundAtProvider` fills them in from the PaymentStore.
   */
  paymentReferences?: readonly string[];
}

/** A payment provider: the sandbox served by this API, or a real one's adapter. */
export interface PaymentProvider {
  /**
   * The link handed out for a session (checkoutUrl, paymentLinkUrl). Synchronous and
   * offline: it is called while the booking's departure is locked.
   */
  checkoutUrl(session: NewPaymentSession): string;
  /**
   * Opens (or resumes, given the session's `providerReference`) the provider's checkout for
   * an open session. May call the provider over the network: never call it in a transaction.
   */
  startCheckout(request: CheckoutRequest): Promise<Result<CheckoutStart>>;
  /**
   * Returns money to the payer; the sandbox always succeeds. `reference` is the provider's
   * refund id (ids separated by spaces when the refund drew on several payments).
   */
  refund(request: RefundRequest): Promise<Result<{ reference: string }>>;
}

/** A new, open payment page for `amount` of the booking (not yet written). */
export function newPaymentSession(
  booking: Pick<BookingRecord, 'id' | 'workspaceId' | 'currency'>,
  amount: number,
  purpose: PaymentPurpose,
  expiresAt: Date,
  openedBy: PaymentPageOpener,
): NewPaymentSession {
  return {
    id: newId('paymentSession'),
    token: randomBase62(32),
    workspaceId: booking.workspaceId,
    bookingId: booking.id,
    amount,
    currency: booking.currency,
    purpose,
    openedBy,
    status: 'OPEN',
    expiresAt,
  };
}

/** Opens a hosted payment page for `amount` of the booking; earlier open pages of it close. */
export async function openPaymentSession(
  stores: { payments: PaymentStore },
  provider: PaymentProvider,
  booking: BookingRecord,
  amount: number,
  purpose: PaymentPurpose,
  expiresAt: Date,
  openedBy: PaymentPageOpener,
): Promise<{ session: PaymentSession; url: string }> {
  await stores.payments.expireOpenSessions(booking.id);
  const session = await stores.payments.insertSession(
    newPaymentSession(booking, amount, purpose, expiresAt, openedBy),
  );
  return { session, url: provider.checkoutUrl(session) };
}

/**
 * Refunds `amount` of the booking through the provider, drawing on the booking's recorded
 * provider payments (read in the caller's transaction: on PGlite the pool is that connection).
 */
export async function refundAtProvider(
  stores: { payments: Pick<PaymentStore, 'listPaymentReferences'> },
  provider: PaymentProvider,
  booking: Pick<BookingRecord, 'id' | 'currency'>,
  amount: number,
): Promise<Result<{ reference: string }>> {
  return provider.refund({
    bookingId: booking.id,
    amount,
    currency: booking.currency,
    paymentReferences: await stores.payments.listPaymentReferences(booking.id),
  });
}
