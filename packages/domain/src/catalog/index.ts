// The catalog context's face: tours, ticket types, schedules and departures (the contract calls a departure an availability).
// Other contexts, adapters and apps use these names and nothing else of this folder.
export {
  type Departure,
  AvailabilitySchema,
  AvailabilityStatusSchema,
  type DepartureView,
  CreateAvailabilitySchema,
  type DeparturePrice,
  DeparturePriceSchema,
  ListAvailabilityQuerySchema,
  PublicAvailabilityQuerySchema,
  type SalesStatus,
  SalesStatusSchema,
  type UpdateDepartureInput,
  UpdateAvailabilitySchema,
} from './availability-schemas.js';
export { type CalendarMemo, createCalendarMemo } from './calendar-memo.js';
export { cancelSchedule } from './cancel-schedule.js';
export { createSchedule } from './create-schedule.js';
export { type BlackoutDay, blackoutFor, decideDeparturePatch, isBookable } from './departure-rules.js';
export { type DepartureNamer, departureNamer } from './departure-names.js';
export { viewDeparture, viewDepartures } from './departure-views.js';
export { createDeparture, listDepartures } from './departures.js';
export { getSchedule } from './get-schedule.js';
export { listSchedules } from './list-schedules.js';
export {
  addDays,
  daysBetween,
  localDateOf,
  localDateTime,
  localIsoDateTime,
  localTimeToUtc,
} from './local-time.js';
export type {
  AssignedResource,
  DepartureFilter,
  DeparturePatch,
  DepartureStore,
  CalendarWindow,
  CatalogStores,
  DepartureForBooking,
  NewDeparture,
  NewSchedule,
  NewResource,
  NewTour,
  OversoldDeparture,
  ResourcePatch,
  ResourceStore,
  SharedSeats,
  PublishedTour,
  ScheduleDeparture,
  SchedulePatch,
  ScheduleStore,
  SeatRefusal,
  TourPatch,
  TourStore,
  VersionedPublishedTour,
} from './ports.js';
export { PublicDepartureSchema } from './public-departure.js';
export {
  chooseResources,
  checkRequirements,
  type DepartureSlot,
  lockAndCheckResources,
} from './resource-assignment.js';
export { checkResourceFree, resourceFull, sharedSeatsRefusal } from './resource-rules.js';
export {
  CreateResourceSchema,
  type CreateResourceInput,
  ListResourcesQuerySchema,
  type Resource,
  type ResourceKind,
  type ResourceRequirement,
  ResourceSchema,
  type UpdateResourceInput,
  UpdateResourceSchema,
} from './resource-schemas.js';
export { PublicTourSchema } from './public-tour.js';
export { bestSalesStatus } from './sales-status.js';
export {
  CreateScheduleSchema,
  type DayOfWeek,
  type Schedule,
  ScheduleCancelledSchema,
  ScheduleCreatedSchema,
  ScheduleSchema,
  ScheduleUpdatedSchema,
  UpdateScheduleSchema,
} from './schedule-schemas.js';
export { checkDeparturePrices, fromPrice } from './ticket-types.js';
export {
  type CancellationPolicy,
  CancellationPolicyInputSchema,
  CancellationPolicySchema,
  CreateTourSchema,
  type TicketType,
  TicketTypeInputSchema,
  TicketTypeSchema,
  TimeZoneSchema,
  type Tour,
  type TourAddOn,
  TourAddOnSchema,
  TourSchema,
  UpdateTourSchema,
} from './tour-schemas.js';
export { createTour, getTour, listTours, updateTour } from './tours.js';
export { updateSchedule } from './update-schedule.js';
export {
  type CalendarDay,
  CalendarDaySchema,
  type CalendarDeparture,
  PublicCalendarQuerySchema,
} from './calendar.js';
export {
  getPublicCalendar,
  getPublicTour,
  listPublicDepartures,
  listPublicTours,
} from './public-catalog.js';
