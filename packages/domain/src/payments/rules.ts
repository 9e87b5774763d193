import type { BookingRecord } from '../bookings/index.js';
import type { PaymentRecord, PaymentSession } from './ports.js';

/**
 * What a booking cannot keep of `received`, once recorded: all of it when the booking is
 * CANCELLED (paid after its hold was released, or after a cancellation), else whatever was
 * paid beyond its total (a second checkout paid for the same amount).
 */
export function moneyToReturn(
  booking: Pick<BookingRecord, 'status' | 'totalAmount' | 'amountPaid'>,
  received: number,
): number {
  if (booking.status === 'CANCELLED') return received;
  return Math.min(received, Math.max(0, booking.amountPaid - booking.totalAmount));
}

/** Whether an unpaid hold waited on this checkout alone: then its expiry releases the seats. */
export function holdWaitsOn(
  booking: Pick<BookingRecord, 'status' | 'amountPaid' | 'paymentIntentId'>,
  session: Pick<PaymentSession, 'id'>,
): boolean {
  return booking.status === 'PENDING' && booking.amountPaid === 0 && booking.paymentIntentId === session.id;
}

/** The provider refund ids already recorded on the booking's REFUND records. */
export function recordedRefundIds(payments: readonly PaymentRecord[]): Set<string> {
  return new Set(
    payments
      .filter((payment) => payment.kind === 'REFUND' && payment.providerReference)
      .flatMap((payment) => (payment.providerReference as string).split(/\s+/)),
  );
}
