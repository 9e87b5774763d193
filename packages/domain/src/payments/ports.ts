const PAYMENT_PURPOSES = ['FULL', 'DEPOSIT', 'BALANCE'] as const;
export type PaymentPurpose = (typeof PAYMENT_PURPOSES)[number];

export type PaymentPageOpener = 'guest' | 'operator';

/** A hosted payment page for one amount of one booking (checkout, payment link or retry). */
export interface PaymentSession {
  id: string;
  /** Unguessable; the page's address. */
  token: string;
  workspaceId: string;
  bookingId: string;
  amount: number;
  currency: string;
  purpose: PaymentPurpose;
  /**
   * Who handed the page out: the guest (from the widget or their booking page), whose return
   * leads back to their booking page; or the operator (a payment link, payable by anyone it is
   * sent to), whose pages show the payment's state only and never lead to the guest page.
   */
  openedBy: PaymentPageOpener;
  status: 'OPEN' | 'SUCCEEDED' | 'FAILED' | 'EXPIRED';
  expiresAt: Date;
  createdAt: Date;
  completedAt: Date | null;
  /** The provider's checkout for this session (a Stripe Checkout Session id); null until started. */
  providerReference: string | null;
}

export interface PaymentRecord {
  id: string;
  workspaceId: string;
  bookingId: string;
  sessionId: string | null;
  kind: 'PAYMENT' | 'REFUND';
  amount: number;
  currency: string;
  reason: string | null;
  /**
   * The provider's record of the money: a PAYMENT's payment (what refunds draw on), a REFUND's
   * refund id (ids separated by spaces when one refund drew on several payments). Null in the
   * sandbox.
   */
  providerReference: string | null;
  createdAt: Date;
}

/** A payment page as its opener decides it; the store adds the rest. */
export type NewPaymentSession = Omit<PaymentSession, 'createdAt' | 'completedAt' | 'providerReference'>;

export interface PaymentStore {
  insertSession(session: NewPaymentSession): Promise<PaymentSession>;
  findSessionByToken(token: string): Promise<PaymentSession | null>;
  /** A session by its id (what a provider's webhook names); null when unknown. */
  findSessionById(id: string): Promise<PaymentSession | null>;
  /**
   * Records the provider's checkout for the session if its reference is still `expected` (a
   * fresh checkout replaces the stale one it was opened after); false when another visit
   * recorded one first: one checkout per session at a time, the one its payment must name.
   */
  setSessionReference(id: string, providerReference: string, expected: string | null): Promise<boolean>;
  /** Locks the session row (FOR UPDATE). Lock the booking's departure and the booking first. */
  lockSession(id: string): Promise<PaymentSession | null>;
  updateSession(
    id: string,
    patch: Pick<PaymentSession, 'status'> & { completedAt?: Date | null },
  ): Promise<PaymentSession>;
  /** Marks the booking's OPEN sessions EXPIRED (a fresh one replaces them). */
  expireOpenSessions(bookingId: string): Promise<void>;
  /** Moves the expiry of the booking's OPEN sessions to its hold's: a page never outlives the hold. */
  extendOpenSessions(bookingId: string, expiresAt: Date): Promise<void>;
  insertPayment(payment: Omit<PaymentRecord, 'createdAt'>): Promise<PaymentRecord>;
  listPayments(workspaceId: string, bookingId: string): Promise<PaymentRecord[]>;
  /** The provider references of the booking's PAYMENT records, newest first (what refunds draw on). */
  listPaymentReferences(bookingId: string): Promise<string[]>;
}

/** Webhook events already handled, per provider: each is acted on once. */
export interface ProviderEventStore {
  /**
   * Claims the event for the caller's transaction: true the first time, false when it was
   * handled before (a concurrent twin waits for the first to commit or roll back).
   */
  claim(provider: string, eventId: string, type: string): Promise<boolean>;
}
