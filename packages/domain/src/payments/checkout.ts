import type { BookingRecord } from '../bookings/ports.js';
import { newId, randomBase62 } from '../shared/ids.js';
import type { Result } from '../shared/result.js';
import type { PaymentPurpose, PaymentSession, PaymentStore } from './ports.js';

/** Where a guest pays: the provider's hosted page for a session (the sandbox serves its own). */
export interface PaymentProvider {
  checkoutUrl(session: PaymentSession): string;
  /** Returns money to the payer; the sandbox always succeeds. */
  refund(request: {
    bookingId: string;
    amount: number;
    currency: string;
  }): Promise<Result<{ reference: string }>>;
}

/** Opens a hosted payment page for `amount` of the booking; earlier open pages of it close. */
export async function openPaymentSession(
  stores: { payments: PaymentStore },
  provider: PaymentProvider,
  booking: BookingRecord,
  amount: number,
  purpose: PaymentPurpose,
  expiresAt: Date,
): Promise<{ session: PaymentSession; url: string }> {
  await stores.payments.expireOpenSessions(booking.id);
  const session = await stores.payments.insertSession({
    id: newId('paymentSession'),
    token: randomBase62(32),
    workspaceId: booking.workspaceId,
    bookingId: booking.id,
    amount,
    currency: booking.currency,
    purpose,
    status: 'OPEN',
    expiresAt,
  });
  return { session, url: provider.checkoutUrl(session) };
}
