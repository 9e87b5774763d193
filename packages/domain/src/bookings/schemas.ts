import * as v from 'valibot';
import { CancellationPolicySchema } from '../catalog/index.js';
import { AGE_BANDS, BOOKING_STATUSES, PAYMENT_MODES, PAYMENT_STATUSES } from '../shared/enums.js';
import {
  AmountSchema,
  DateSchema,
  DateTimeInputSchema,
  DateTimeSchema,
  EmailSchema,
  PageQuerySchema,
  PhoneSchema,
  requiredText,
  text,
} from '../shared/schemas.js';

const Ref = v.pipe(v.string(), v.maxLength(100));

const MAX_PARTICIPANTS = 100;

export const ExternalReferenceSchema = v.pipe(
  v.string(),
  v.minLength(1),
  v.maxLength(100),
  v.regex(/^[\x21-\x7e]+$/, 'invalid_reference'),
);

export const BookingStatusSchema = v.picklist(BOOKING_STATUSES);
export const PaymentStatusSchema = v.picklist(PAYMENT_STATUSES);
export const PaymentModeSchema = v.picklist(PAYMENT_MODES);

export const ParticipantInputSchema = v.strictObject({
  name: requiredText(200),
  /** One of the tour's ticket types; without it, `ageBand` picks the type, else the ADULT type. */
  ticketTypeId: v.optional(Ref),
  ageBand: v.optional(v.picklist(AGE_BANDS)),
  dietaryNotes: v.optional(text(1000)),
  accessibilityNotes: v.optional(text(1000)),
  emergencyContact: v.optional(text(300)),
});
export type ParticipantInput = v.InferOutput<typeof ParticipantInputSchema>;

export const ParticipantSchema = v.object({
  id: v.string(),
  name: v.string(),
  ageBand: v.nullable(v.picklist(AGE_BANDS)),
  dietaryNotes: v.nullable(v.string()),
  accessibilityNotes: v.nullable(v.string()),
  emergencyContact: v.nullable(v.string()),
  waiverSigned: v.boolean(),
  checkedInAt: v.nullable(DateTimeSchema),
  // Additive fields (ticket types).
  /** The ticket type sold; null on a tour without ticket types. */
  ticketTypeId: v.nullable(v.string()),
  /** What this participant paid for the seat, in minor units (add-ons apart). */
  price: v.number(),
});
export type Participant = v.InferOutput<typeof ParticipantSchema>;

const ParticipantsSchema = v.pipe(
  v.array(ParticipantInputSchema),
  v.minLength(1),
  v.maxLength(MAX_PARTICIPANTS),
);

export const AddOnInputSchema = v.strictObject({
  id: Ref,
  quantity: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(1000)),
});

export const BookingCreateSchema = v.strictObject({
  availabilityId: Ref,
  customer: v.strictObject({
    name: requiredText(200),
    email: EmailSchema,
    phone: v.optional(PhoneSchema),
  }),
  participants: ParticipantsSchema,
  addOns: v.optional(v.pipe(v.array(AddOnInputSchema), v.maxLength(50))),
  paymentMode: v.optional(PaymentModeSchema),
  notes: v.optional(text(2000)),
  /** The channel partner's own id of the booking; unique in the workspace. */
  externalReference: v.optional(ExternalReferenceSchema),
});
export type BookingCreateInput = v.InferOutput<typeof BookingCreateSchema>;

const { availabilityId, customer, participants, addOns, paymentMode } = BookingCreateSchema.entries;

/**
 * A guest's booking (`POST /public/{workspaceSlug}/bookings`): the spec's BookingCreate and
 * nothing the product added for operators or partners (`externalReference`: strict, so 400
 * `unknown_field`). Its `notes` are the guest's message (`guestMessage`, at most 1 000
 * characters), never the operator's internal notes.
 */
export const PublicBookingCreateSchema = v.strictObject({
  availabilityId,
  customer,
  participants,
  addOns,
  paymentMode,
  notes: v.optional(text(1000)),
});
export type PublicBookingCreateInput = v.InferOutput<typeof PublicBookingCreateSchema>;

export const BookingAddOnSchema = v.object({
  id: v.string(),
  name: v.string(),
  unitPrice: v.number(),
  quantity: v.number(),
});
export type BookingAddOn = v.InferOutput<typeof BookingAddOnSchema>;

export const BookingSchema = v.object({
  id: v.string(),
  status: BookingStatusSchema,
  paymentStatus: PaymentStatusSchema,
  totalAmount: v.number(),
  currency: v.string(),
  availabilityId: v.string(),
  customerId: v.string(),
  participantCount: v.number(),
  participants: v.array(ParticipantSchema),
  paymentIntentId: v.nullable(v.string()),
  publicToken: v.nullable(v.string()),
  notes: v.nullable(v.string()),
  expiresAt: v.nullable(DateTimeSchema),
  confirmedAt: v.nullable(DateTimeSchema),
  createdAt: DateTimeSchema,
  updatedAt: DateTimeSchema,
  // Additive fields.
  tourId: v.string(),
  startsAt: DateTimeSchema,
  paymentMode: PaymentModeSchema,
  amountPaid: v.number(),
  amountRefunded: v.number(),
  addOns: v.array(BookingAddOnSchema),
  cancelledAt: v.nullable(DateTimeSchema),
  cancellationReason: v.nullable(v.string()),
  externalReference: v.nullable(v.string()),
  /** What the guest wrote when booking on the public path (their words, not the operator's `notes`). */
  guestMessage: v.nullable(v.string()),
  // Additive fields (cancellation policy).
  /** The tour's policy when the booking was made: what the guest agreed to. */
  cancellationPolicy: CancellationPolicySchema,
  /** `startsAt` less the policy's `cutoffHours`: guests may cancel strictly before it. */
  cancellationCutoffAt: DateTimeSchema,
  /** Whether a guest may cancel now: PENDING or CONFIRMED, and before `cancellationCutoffAt`. */
  cancellable: v.boolean(),
  paymentLinkUrl: v.optional(v.pipe(v.string(), v.url())),
  checkoutUrl: v.optional(v.pipe(v.string(), v.url())),
});
export type Booking = v.InferOutput<typeof BookingSchema>;

export const UpdateBookingSchema = v.strictObject({
  availabilityId: v.optional(Ref),
  participants: v.optional(ParticipantsSchema),
  notes: v.optional(v.nullable(text(2000))),
  totalAmount: v.optional(AmountSchema),
  externalReference: v.optional(v.nullable(ExternalReferenceSchema)),
  /** E-mail the guest when the departure or the participants change (default true). */
  notifyCustomer: v.optional(v.boolean()),
});
export type UpdateBookingInput = v.InferOutput<typeof UpdateBookingSchema>;

export const SetBookingStatusSchema = v.strictObject({
  status: BookingStatusSchema,
  reason: v.optional(text(500)),
  notifyCustomer: v.optional(v.boolean()),
  /** With status CANCELLED: refund this much of what was paid (minor units); default none. */
  refundAmount: v.optional(AmountSchema),
});
export type SetBookingStatusInput = v.InferOutput<typeof SetBookingStatusSchema>;

export const CheckInSchema = v.strictObject({
  participantIds: v.optional(v.pipe(v.array(Ref), v.minLength(1), v.maxLength(MAX_PARTICIPANTS))),
});

export const RefundCreateSchema = v.strictObject({
  amount: v.optional(v.pipe(AmountSchema, v.minValue(1))),
  reason: v.optional(text(500)),
});

export const WaiverSchema = v.strictObject({
  participantId: Ref,
  signedName: requiredText(200),
  accepted: v.literal(true),
});

/** A guest's cancel (`POST /public/bookings/{publicToken}/cancel`). */
export const GuestCancellationSchema = v.strictObject({
  reason: v.optional(text(500)),
});
export type GuestCancellationInput = v.InferOutput<typeof GuestCancellationSchema>;

/** Extends a PENDING hold (`POST .../bookings/{bookingId}/extend`). */
export const HoldExtensionSchema = v.strictObject({
  minutes: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(60)),
});

export const BOOKING_SORTS = [
  'createdAt',
  '-createdAt',
  'startsAt',
  '-startsAt',
  'totalAmount',
  '-totalAmount',
  'updatedAt',
  '-updatedAt',
] as const;
export type BookingSort = (typeof BOOKING_SORTS)[number];

export const ListBookingsQuerySchema = v.object({
  ...PageQuerySchema.entries,
  from: v.optional(DateSchema),
  to: v.optional(DateSchema),
  status: v.optional(BookingStatusSchema),
  paymentStatus: v.optional(PaymentStatusSchema),
  sort: v.optional(v.picklist(BOOKING_SORTS)),
  /** Partner sync: bookings changed at or after this instant, oldest change first. */
  updatedSince: v.optional(DateTimeInputSchema),
  /** Exact match of the channel partner's reference. */
  externalReference: v.optional(ExternalReferenceSchema),
});

export const PaymentLinkSchema = v.object({
  url: v.pipe(v.string(), v.url()),
  amount: v.number(),
  expiresAt: DateTimeSchema,
});

export const BookingHistoryEntrySchema = v.object({
  id: v.string(),
  bookingId: v.string(),
  fromStatus: v.nullable(BookingStatusSchema),
  toStatus: BookingStatusSchema,
  reason: v.nullable(v.string()),
  actor: v.object({
    type: v.picklist(['api_token', 'member', 'guest', 'system']),
    id: v.nullable(v.string()),
  }),
  createdAt: DateTimeSchema,
});
export type BookingHistoryEntry = v.InferOutput<typeof BookingHistoryEntrySchema>;
