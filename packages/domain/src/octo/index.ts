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
export type { OctoError, OctoFailure, OctoResult } from './errors.js';
export type * from './ports.js';
export * from './schemas.js';
export type * from './shapes.js';
