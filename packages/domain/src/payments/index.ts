// The payments context's face: checkout, payment links, provider events and refunds.
// Other contexts, adapters and apps use these names and nothing else of this folder.

// First the files whose imports never lead back into this context: ESM evaluates them before
// an import cycle through another context can ask for their values.
export {
  type CheckoutRequest,
  type CheckoutStart,
  newPaymentSession,
  openPaymentSession,
  type PaymentProvider,
  type RefundRequest,
} from './checkout.js';
export type {
  NewPaymentSession,
  PaymentPageOpener,
  PaymentPurpose,
  PaymentRecord,
  PaymentSession,
  PaymentStore,
  ProviderEventStore,
} from './ports.js';
export type {
  PaymentEvent,
  PaymentEventOutcome,
  PaymentEventReader,
  PaymentEventReport,
  ProviderRefund,
} from './provider-events.js';
export { findCheckoutReturn, startCheckout } from './start-checkout.js';

// Then the files that reach this context again through another one.
export { completePayment, findPaymentSession } from './complete-payment.js';
export { handlePaymentEvent } from './handle-payment-event.js';
export { createPaymentLink } from './payment-link.js';
export { refundBooking, refundLocked } from './refund-booking.js';
