export * from './checkout.js';
export * from './complete-payment.js';
export * from './handle-payment-event.js';
export * from './payment-link.js';
export * from './ports.js';
export * from './provider-events.js';
export * from './refund-booking.js';
export * from './start-checkout.js';
