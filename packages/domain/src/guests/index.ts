export * from './public-booking.js';
