import { DateSchema, EmailSchema, text } from '@travelops/domain/shared';
import * as v from 'valibot';

/*
 * What OCTO resellers send (OCTO core, as `@octocloud/types` publishes it). Objects are not
 * strict: resellers send fields of capabilities this supplier does not serve (pickups,
 * questions...), and OCTO asks suppliers to ignore what they do not know. Types, lengths and
 * formats are checked: a wrong one is OCTO's BAD_REQUEST.
 */

/** An id as a reseller sends it (product, option, unit, availability): opaque, bounded. */
const OctoIdSchema = text(100);

/** OCTO's uuids (`format: uuid`), kept in lower case (they are case-insensitive). */
const OctoUuidSchema = v.pipe(v.string(), v.uuid(), v.toLowerCase());

const nullableText = (max: number) => v.optional(v.nullable(text(max)));

/** OCTO's BookingContact: every field optional and nullable. */
const OctoContactInputSchema = v.object({
  fullName: nullableText(200),
  firstName: nullableText(100),
  lastName: nullableText(100),
  /** OCTO's `format: email`; an empty one means none (OCTO's examples send empty strings). */
  emailAddress: v.optional(v.nullable(v.union([v.literal(''), EmailSchema]))),
  phoneNumber: nullableText(40),
  locales: v.optional(v.pipe(v.array(text(35)), v.maxLength(20))),
  postalCode: nullableText(20),
  country: nullableText(100),
  notes: nullableText(2000),
});
export type OctoContactInput = v.InferOutput<typeof OctoContactInputSchema>;

/** A unit item: one seat of a unit (ticket type), with its own uuid and reference. */
const OctoUnitItemInputSchema = v.object({
  uuid: v.optional(OctoUuidSchema),
  unitId: OctoIdSchema,
  resellerReference: v.optional(text(100)),
  contact: v.optional(OctoContactInputSchema),
});
export type OctoUnitItemInput = v.InferOutput<typeof OctoUnitItemInputSchema>;

/** At most as many unit items as a booking has participants. */
const UnitItemsSchema = v.pipe(v.array(OctoUnitItemInputSchema), v.maxLength(100));

const MinutesSchema = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100_000));
const CurrencyInputSchema = v.optional(v.nullable(text(3)));

/** `POST /octo/bookings`. `unitItems` is checked by the use case: missing or empty is UNPROCESSABLE_ENTITY. */
export const OctoReservationSchema = v.object({
  uuid: v.optional(OctoUuidSchema),
  productId: OctoIdSchema,
  optionId: OctoIdSchema,
  availabilityId: v.optional(OctoIdSchema),
  expirationMinutes: v.optional(MinutesSchema),
  notes: nullableText(2000),
  unitItems: v.optional(UnitItemsSchema),
  resellerReference: v.optional(text(100)),
  contact: v.optional(OctoContactInputSchema),
  currency: CurrencyInputSchema,
});
export type OctoReservationInput = v.InferOutput<typeof OctoReservationSchema>;

/** `POST /octo/bookings/{uuid}/confirm`. */
export const OctoConfirmationSchema = v.object({
  resellerReference: v.optional(text(100)),
  contact: OctoContactInputSchema,
  unitItems: v.optional(UnitItemsSchema),
  emailReceipt: v.optional(v.boolean()),
});
export type OctoConfirmationInput = v.InferOutput<typeof OctoConfirmationSchema>;

/** `PATCH /octo/bookings/{uuid}`: move (date or product), change units, contact, notes, reference. */
export const OctoUpdateSchema = v.object({
  resellerReference: v.optional(text(100)),
  productId: v.optional(OctoIdSchema),
  optionId: v.optional(OctoIdSchema),
  availabilityId: v.optional(OctoIdSchema),
  expirationMinutes: v.optional(MinutesSchema),
  notes: nullableText(2000),
  emailReceipt: v.optional(v.boolean()),
  unitItems: v.optional(UnitItemsSchema),
  contact: v.optional(OctoContactInputSchema),
});
export type OctoUpdateInput = v.InferOutput<typeof OctoUpdateSchema>;

/** `POST /octo/bookings/{uuid}/cancel` (a body is optional). */
export const OctoCancellationSchema = v.optional(
  v.object({ reason: nullableText(500), force: v.optional(v.boolean()) }),
);

/** `POST /octo/bookings/{uuid}/extend` (a body is optional). */
export const OctoExtensionSchema = v.optional(v.object({ expirationMinutes: v.optional(MinutesSchema) }));

/** Units asked about in an availability check or calendar. */
const AvailabilityUnitsSchema = v.pipe(
  v.array(
    v.object({ id: OctoIdSchema, quantity: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(100)) }),
  ),
  v.maxLength(20),
);

/** `POST /octo/availability`: one of `localDate`, `localDateStart` + `localDateEnd`, `availabilityIds`. */
export const OctoAvailabilityCheckSchema = v.object({
  productId: OctoIdSchema,
  optionId: OctoIdSchema,
  localDate: v.optional(DateSchema),
  localDateStart: v.optional(DateSchema),
  localDateEnd: v.optional(DateSchema),
  availabilityIds: v.optional(v.pipe(v.array(OctoIdSchema), v.minLength(1), v.maxLength(100))),
  units: v.optional(AvailabilityUnitsSchema),
  currency: CurrencyInputSchema,
});
export type OctoAvailabilityCheckInput = v.InferOutput<typeof OctoAvailabilityCheckSchema>;

/** `POST /octo/availability/calendar`: `localDateStart` and `localDateEnd` (the use case says so when missing). */
export const OctoCalendarSchema = v.object({
  productId: OctoIdSchema,
  optionId: OctoIdSchema,
  localDateStart: v.optional(DateSchema),
  localDateEnd: v.optional(DateSchema),
  units: v.optional(AvailabilityUnitsSchema),
  currency: CurrencyInputSchema,
});
export type OctoCalendarInput = v.InferOutput<typeof OctoCalendarSchema>;

/** `GET /octo/bookings`: at least one filter (the use case says so when none). */
export const OctoBookingsQuerySchema = v.object({
  resellerReference: v.optional(text(100)),
  supplierReference: v.optional(text(100)),
  localDate: v.optional(DateSchema),
  localDateStart: v.optional(DateSchema),
  localDateEnd: v.optional(DateSchema),
});
export type OctoBookingsQuery = v.InferOutput<typeof OctoBookingsQuerySchema>;

/** `{uuid}` in a booking path: any text (an unknown one is INVALID_BOOKING_UUID, not a 404). */
export const OctoBookingParamsSchema = v.object({ uuid: text(100) });

/** `{productId}` in `GET /octo/products/{productId}`. */
export const OctoProductParamsSchema = v.object({ productId: text(100) });
