export const PAYMENT_PURPOSES = ['FULL', 'DEPOSIT', 'BALANCE'] as const;
export type PaymentPurpose = (typeof PAYMENT_PURPOSES)[number];

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
  status: 'OPEN' | 'SUCCEEDED' | 'FAILED' | 'EXPIRED';
  expiresAt: Date;
  createdAt: Date;
  completedAt: Date | null;
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
  createdAt: Date;
}

export interface PaymentStore {
  insertSession(session: Omit<PaymentSession, 'createdAt' | 'completedAt'>): Promise<PaymentSession>;
  findSessionByToken(token: string): Promise<PaymentSession | null>;
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
}
