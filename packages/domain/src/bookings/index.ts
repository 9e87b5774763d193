// The bookings context's face: bookings: creating, changing, pricing, holds, check-in and their views.
// Other contexts, adapters and apps use these names and nothing else of this folder.

// First the files whose imports never lead back into this context: ESM evaluates them before
// an import cycle through another context can ask for their values.
export { cancellationCutoff, checkGuestCancel, isGuestCancellable, policyRefund } from './policy-rules.js';
export {
  type BookingChannelPolicy,
  type BookingHolder,
  NATIVE_CHANNEL,
  publicChannel,
  resellerChannel,
} from './channel-policy.js';
export type {
  Actor,
  BookingContext,
  BookingFilter,
  BookingHistoryStore,
  BookingPatch,
  BookingRecord,
  BookingStore,
  BookingStores,
  FirstBookingWrites,
  LockedBooking,
  NewBooking,
  NewHistoryEntry,
} from './ports.js';
export { getBooking, listBookingChanges, listBookingHistory, listBookings } from './queries.js';
export { type BookingLinks, toBookingView } from './view.js';
export { type CancelStores, cancelLocked, emitBookingEvent, recordStatus, SYSTEM } from './booking-writes.js';
export { checkInBooking, rotatePublicToken } from './check-in.js';
export { type ExpireHoldsDeps, expireHolds } from './expire-holds.js';
export { extendHold } from './extend-hold.js';
export { checkSeats, derivePaymentStatus, firstPaymentAmount, outstandingAmount } from './rules.js';
export {
  AddOnInputSchema,
  BOOKING_SORTS,
  type BookingAddOn,
  BookingAddOnSchema,
  type BookingCreateInput,
  BookingCreateSchema,
  type BookingHistoryEntry,
  BookingHistoryEntrySchema,
  BookingSchema,
  type BookingSort,
  BookingStatusSchema,
  CheckInSchema,
  ExternalReferenceSchema,
  type GuestCancellationInput,
  GuestCancellationSchema,
  HoldExtensionSchema,
  ListBookingsQuerySchema,
  type Participant,
  type ParticipantInput,
  type UpdateBookingInput,
  ParticipantInputSchema,
  ParticipantSchema,
  PaymentLinkSchema,
  PaymentModeSchema,
  PaymentStatusSchema,
  type PublicBookingCreateInput,
  PublicBookingCreateSchema,
  RefundCreateSchema,
  SetBookingStatusSchema,
  UpdateBookingSchema,
  WaiverSchema,
} from './schemas.js';

export type {
  ResellerBookingFilter,
  ResellerBookingLink,
  ResellerBookingRecord,
  ResellerBookingStore,
  ResellerContact,
  ResellerUnitItemLink,
} from './reseller-links.js';
// Then the files that reach this context again through another one.
export { cancelUnderPolicy } from './cancel-under-policy.js';
export { type CreateBookingDeps, type CreatedBooking, createBooking } from './create-booking/index.js';
export { setBookingStatus } from './set-booking-status.js';
export { updateBooking } from './update-booking/index.js';
