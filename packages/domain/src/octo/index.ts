// The octo context's face: the OCTO supplier API use cases.
// Other contexts, adapters and apps use these names and nothing else of this folder.
export type { OctoError, OctoFailure, OctoResult } from './errors.js';
export type {
  OctoBookingFilter,
  OctoBookingLink,
  OctoBookingRecord,
  OctoBookingStore,
  OctoCaller,
  OctoUnitItemLink,
} from './ports.js';
export {
  OctoAvailabilityCheckSchema,
  OctoBookingParamsSchema,
  OctoBookingsQuerySchema,
  OctoCalendarSchema,
  OctoCancellationSchema,
  OctoConfirmationSchema,
  OctoContactInputSchema,
  OctoExtensionSchema,
  OctoProductParamsSchema,
  OctoReservationSchema,
  OctoUnitItemInputSchema,
  OctoUpdateSchema,
  OctoUuidSchema,
} from './schemas.js';
export type { OctoContact } from './shapes.js';
export { getOctoBooking, listOctoBookings } from './booking-lookups.js';
export {
  cancelOctoBooking,
  confirmOctoBooking,
  extendOctoBooking,
  reserveOctoBooking,
  updateOctoBooking,
} from './bookings.js';
export {
  checkOctoAvailability,
  getOctoCalendar,
  getOctoProduct,
  getOctoSupplier,
  listOctoCapabilities,
  listOctoProducts,
} from './catalog.js';
