export * from './checkout.js';
export * from './complete-payment.js';
export * from './payment-link.js';
export * from './ports.js';
export * from './refund-booking.js';
