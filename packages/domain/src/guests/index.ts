// The guests context's face: what a guest sees and does without an account: the public booking path and the guest page.
// Other contexts, adapters and apps use these names and nothing else of this folder.

// First the files whose imports never lead back into this context: ESM evaluates them before
// an import cycle through another context can ask for their values.
export { guestBookingEvent } from './booking-event.js';
export { toIcs } from './calendar-file.js';

// Then the files that reach this context again through another one.
export { cancelPublicBooking } from './cancel-public-booking.js';
export { createPublicBooking } from './create-public-booking.js';
export {
  type PublicBooking,
  PublicBookingSchema,
  PublicBookingTourSchema,
  PublicParticipantSchema,
  toPublicBooking,
  viewForGuest,
} from './guest-view.js';
export { getPublicBooking, payPublicBalance, retryPublicPayment, signWaiver } from './public-booking.js';
