import { ok } from '@travelops/domain/shared';
import { getOctoBooking, listOctoBookings } from '../booking-lookups.js';
import { cancelOctoBooking, confirmOctoBooking, extendOctoBooking, reserveOctoBooking } from '../bookings.js';
import {
  checkOctoAvailability,
  getOctoCalendar,
  getOctoProduct,
  getOctoSupplier,
  listOctoCapabilities,
  listOctoProducts,
} from '../catalog.js';
import {
  OctoAvailabilityCheckSchema,
  OctoBookingParamsSchema,
  OctoBookingsQuerySchema,
  OctoCalendarSchema,
  OctoCancellationSchema,
  OctoConfirmationSchema,
  OctoExtensionSchema,
  OctoProductParamsSchema,
  OctoReservationSchema,
  OctoUpdateSchema,
} from '../schemas.js';
import { updateOctoBooking } from '../update-booking/index.js';
import { defineOctoRoute, type OctoRouteDefinition } from './route.js';

/**
 * The OCTO supplier API (OCTO core, plus `octo/pricing` when asked for), served under `/octo`
 * to reseller connections; the router is built from this list, and a test checks that each
 * one is in OCTO's published document and in docs/octo.md.
 */
export const octoRoutes: readonly OctoRouteDefinition[] = [
  defineOctoRoute({
    operationId: 'Supplier_GetSupplier',
    method: 'get',
    path: '/supplier',
    summary: 'The workspace as OCTO supplier',
    handle: ({ use, caller, endpoint }) => getOctoSupplier(use, caller, endpoint),
  }),
  defineOctoRoute({
    operationId: 'Capabilities_ListCapabilities',
    method: 'get',
    path: '/capabilities',
    summary: 'The capabilities served beside OCTO core (octo/pricing)',
    handle: async () => ok(listOctoCapabilities()),
  }),
  defineOctoRoute({
    operationId: 'Products_GetProducts',
    method: 'get',
    path: '/products',
    summary: 'The published tours as products',
    handle: ({ use, caller }) => listOctoProducts(use, caller),
  }),
  defineOctoRoute({
    operationId: 'Products_GetProduct',
    method: 'get',
    path: '/products/{productId}',
    summary: 'One published tour as a product',
    params: OctoProductParamsSchema,
    handle: ({ use, caller, params }) => getOctoProduct(use, caller, params.productId),
  }),
  defineOctoRoute({
    operationId: 'Availabilities_AvailabilityCalendar',
    method: 'post',
    path: '/availability/calendar',
    summary: "One row per local day of the product's departures",
    body: OctoCalendarSchema,
    expensive: true,
    handle: ({ use, caller, body }) => getOctoCalendar(use, caller, body),
  }),
  defineOctoRoute({
    operationId: 'Availabilities_AvailabilityCheck',
    method: 'post',
    path: '/availability',
    summary: "The product's departures, with their status and seats left",
    body: OctoAvailabilityCheckSchema,
    expensive: true,
    handle: ({ use, caller, body }) => checkOctoAvailability(use, caller, body),
  }),
  defineOctoRoute({
    operationId: 'Bookings_BookingReservation',
    method: 'post',
    path: '/bookings',
    summary: 'Reserve: a held booking (ON_HOLD until utcExpiresAt)',
    body: OctoReservationSchema,
    handle: ({ use, caller, body }) => reserveOctoBooking(use, caller, body),
  }),
  defineOctoRoute({
    operationId: 'Bookings_GetBookings',
    method: 'get',
    path: '/bookings',
    summary: "The connection's bookings by reference or local date",
    query: OctoBookingsQuerySchema,
    handle: ({ use, caller, query }) => listOctoBookings(use, caller, query),
  }),
  defineOctoRoute({
    operationId: 'Bookings_GetBooking',
    method: 'get',
    path: '/bookings/{uuid}',
    summary: 'One booking of the connection, by its uuid',
    params: OctoBookingParamsSchema,
    handle: ({ use, caller, params }) => getOctoBooking(use, caller, params.uuid),
  }),
  defineOctoRoute({
    operationId: 'Bookings_BookingUpdate',
    method: 'patch',
    path: '/bookings/{uuid}',
    summary: 'Change the date, product, units, contact, notes or reference',
    params: OctoBookingParamsSchema,
    body: OctoUpdateSchema,
    handle: ({ use, caller, params, body }) => updateOctoBooking(use, caller, params.uuid, body),
  }),
  defineOctoRoute({
    operationId: 'Bookings_BookingConfirmation',
    method: 'post',
    path: '/bookings/{uuid}/confirm',
    summary: 'Confirm a reservation with the contact and the reseller reference',
    params: OctoBookingParamsSchema,
    body: OctoConfirmationSchema,
    handle: ({ use, caller, params, body }) => confirmOctoBooking(use, caller, params.uuid, body),
  }),
  defineOctoRoute({
    operationId: 'Bookings_ExtendReservation',
    method: 'post',
    path: '/bookings/{uuid}/extend',
    summary: 'Hold a reservation longer',
    params: OctoBookingParamsSchema,
    body: OctoExtensionSchema,
    handle: ({ use, caller, params, body }) => extendOctoBooking(use, caller, params.uuid, body),
  }),
  defineOctoRoute({
    operationId: 'Bookings_BookingCancellation',
    method: 'post',
    path: '/bookings/{uuid}/cancel',
    summary: 'Release a reservation, or cancel a booking before its cutoff',
    params: OctoBookingParamsSchema,
    body: OctoCancellationSchema,
    handle: ({ use, caller, params, body }) => cancelOctoBooking(use, caller, params.uuid, body),
  }),
];
