export * from './booking-event.js';
export * from './calendar-file.js';
export * from './cancel-public-booking.js';
export * from './create-public-booking.js';
export * from './guest-view.js';
export * from './public-booking.js';
