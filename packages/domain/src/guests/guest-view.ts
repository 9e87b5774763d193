import * as v from 'valibot';
import type { BookingLinks, BookingRecord } from '../bookings/index.js';
import {
  BookingAddOnSchema,
  BookingStatusSchema,
  cancellationCutoff,
  isGuestCancellable,
  PaymentModeSchema,
  PaymentStatusSchema,
  policyRefund,
} from '../bookings/index.js';
import type { TourStore } from '../catalog/index.js';
import { CancellationPolicySchema, type Tour } from '../catalog/index.js';
import { AGE_BANDS } from '../shared/enums.js';
import type { Clock, UnitOfWork } from '../shared/ports.js';
import { DateTimeSchema } from '../shared/schemas.js';

/** A participant as the guest sees it: what they entered and its state; no one else's contact. */
export const PublicParticipantSchema = v.object({
  id: v.string(),
  name: v.string(),
  ageBand: v.nullable(v.picklist(AGE_BANDS)),
  ticketTypeId: v.nullable(v.string()),
  /** The ticket type's name as the tour sells it ("Child (4-12)"); null without one, or once the tour no longer sells it. */
  ticketTypeName: v.nullable(v.string()),
  price: v.number(),
  waiverSigned: v.boolean(),
  checkedInAt: v.nullable(DateTimeSchema),
  dietaryNotes: v.nullable(v.string()),
  accessibilityNotes: v.nullable(v.string()),
  /** A masked hint that an emergency contact is on file (`Ak••••00`); never the contact itself. */
  emergencyContactHint: v.nullable(v.string()),
});

/** The tour as the guest's booking page needs it. */
export const PublicBookingTourSchema = v.object({
  id: v.string(),
  name: v.string(),
  meetingPoint: v.nullable(v.string()),
  durationMinutes: v.number(),
  timeZone: v.string(),
});

/**
 * The booking as its guest sees it (public token): names, ticket types, waiver and check-in
 * state, amounts, payment state, the tour, its meeting point and times. Never the operator's
 * notes, the ids of other records (customer, payment intent) or contacts in clear.
 */
export const PublicBookingSchema = v.object({
  id: v.string(),
  /** The guest's access to this page (they hold it already); rotated by the operator on request. */
  publicToken: v.nullable(v.string()),
  status: BookingStatusSchema,
  paymentStatus: PaymentStatusSchema,
  paymentMode: PaymentModeSchema,
  totalAmount: v.number(),
  amountPaid: v.number(),
  amountRefunded: v.number(),
  currency: v.string(),
  startsAt: DateTimeSchema,
  tour: v.nullable(PublicBookingTourSchema),
  participantCount: v.number(),
  participants: v.array(PublicParticipantSchema),
  addOns: v.array(BookingAddOnSchema),
  expiresAt: v.nullable(DateTimeSchema),
  confirmedAt: v.nullable(DateTimeSchema),
  cancelledAt: v.nullable(DateTimeSchema),
  /** Why it was cancelled (the guest's words, or the operator's reason: it reaches the guest). */
  cancellationReason: v.nullable(v.string()),
  /** The policy the guest booked under, when its cutoff falls, and whether they may cancel now. */
  cancellationPolicy: CancellationPolicySchema,
  cancellationCutoffAt: DateTimeSchema,
  cancellable: v.boolean(),
  /** What a guest's cancel would refund now under that policy (minor units); 0 when not cancellable. */
  cancellationRefund: v.number(),
  createdAt: DateTimeSchema,
  updatedAt: DateTimeSchema,
  checkoutUrl: v.optional(v.pipe(v.string(), v.url())),
});
export type PublicBooking = v.InferOutput<typeof PublicBookingSchema>;

/** `Akka +4700000000` -> `Ak••••00`: enough to recognise one's own entry, too little to use. */
function maskContact(contact: string | null): string | null {
  if (!contact) return null;
  const text = contact.trim();
  if (text.length <= 4) return '••••';
  return `${text.slice(0, 2)}••••${text.slice(-2)}`;
}

export function toPublicBooking(
  record: BookingRecord,
  tour: Pick<Tour, 'id' | 'name' | 'meetingPoint' | 'durationMinutes' | 'timeZone' | 'ticketTypes'> | null,
  now: Date,
  links: BookingLinks = {},
): PublicBooking {
  const cancellable = isGuestCancellable(record, now);
  return {
    id: record.id,
    publicToken: record.publicToken,
    status: record.status,
    paymentStatus: record.paymentStatus,
    paymentMode: record.paymentMode,
    totalAmount: record.totalAmount,
    amountPaid: record.amountPaid,
    amountRefunded: record.amountRefunded,
    currency: record.currency,
    startsAt: record.startsAt,
    tour: tour && {
      id: tour.id,
      name: tour.name,
      meetingPoint: tour.meetingPoint,
      durationMinutes: tour.durationMinutes,
      timeZone: tour.timeZone,
    },
    participantCount: record.participantCount,
    participants: record.participants.map((p) => ({
      id: p.id,
      name: p.name,
      ageBand: p.ageBand,
      ticketTypeId: p.ticketTypeId,
      ticketTypeName: tour?.ticketTypes.find((type) => type.id === p.ticketTypeId)?.name ?? null,
      price: p.price,
      waiverSigned: p.waiverSigned,
      checkedInAt: p.checkedInAt,
      dietaryNotes: p.dietaryNotes,
      accessibilityNotes: p.accessibilityNotes,
      emergencyContactHint: maskContact(p.emergencyContact),
    })),
    addOns: record.addOns,
    expiresAt: record.expiresAt,
    confirmedAt: record.confirmedAt,
    cancelledAt: record.cancelledAt,
    cancellationReason: record.cancellationReason,
    cancellationPolicy: record.cancellationPolicy,
    cancellationCutoffAt: cancellationCutoff(record.startsAt, record.cancellationPolicy).toISOString(),
    cancellable,
    cancellationRefund: cancellable ? policyRefund(record.cancellationPolicy, record) : 0,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    ...(links.checkoutUrl !== undefined && { checkoutUrl: links.checkoutUrl }),
  };
}

/** The guest's view of a booking, with its tour read through the unit of work. */
export async function viewForGuest(
  deps: { uow: UnitOfWork<{ tours: TourStore }>; clock: Clock },
  record: BookingRecord,
  links: BookingLinks = {},
): Promise<PublicBooking> {
  const tour = await deps.uow.stores.tours.findById(record.workspaceId, record.tourId);
  return toPublicBooking(record, tour, deps.clock.now(), links);
}
