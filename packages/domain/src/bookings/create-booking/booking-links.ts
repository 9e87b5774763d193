import type { NewPaymentSession, PaymentProvider } from '../../payments/index.js';
import type { PaymentMode } from '../../shared/enums.js';
import type { BookingLinks } from '../view.js';

/** The one-time links of the answer: the payment page, as a checkout or as a link to send on. */
export function bookingLinks(
  session: NewPaymentSession | null,
  mode: PaymentMode,
  payments: Pick<PaymentProvider, 'checkoutUrl'>,
): BookingLinks {
  if (!session) return {};
  const url = payments.checkoutUrl(session);
  return mode === 'PAYMENT_LINK' ? { paymentLinkUrl: url } : { checkoutUrl: url };
}
