/**
 * Bookings as OCTO bookings: contacts and the customer they file under, unit items as
 * participants (and back), the uuids OCTO knows them by, OCTO's status of a booking and
 * whether it may still be cancelled, and the whole booking view.
 */

import type {
  BookingRecord,
  Participant,
  ParticipantInput,
  ResellerBookingLink,
  ResellerContact,
  ResellerUnitItemLink,
} from '@travelops/domain/bookings';
import { isGuestCancellable } from '@travelops/domain/bookings';
import type { DepartureView, Tour } from '@travelops/domain/catalog';
import { EmailSchema, PhoneSchema } from '@travelops/domain/shared';
import * as v from 'valibot';
import { toOctoAvailability } from './availability-mapping.js';
import {
  DEFAULT_OPTION_ID,
  pricingOf,
  type ResolvedUnit,
  STANDARD_UNIT_ID,
  toOctoUnits,
  utcSeconds,
} from './product-mapping.js';
import type { OctoContactInput, OctoUnitItemInput } from './schemas.js';
import type { OctoBooking, OctoBookingStatus, OctoUnitItem } from './shapes.js';

/** A reservation without `expirationMinutes` holds this long; no hold is longer than the maximum. */
export const DEFAULT_HOLD_MINUTES = 30;
export const MAX_HOLD_MINUTES = 60;

const utcOrNull = (instant: string | null | undefined) => (instant ? utcSeconds(instant) : null);

/** A contact as OCTO answers it, from what the reseller sent (unset fields are null). */
export function toOctoContact(input: OctoContactInput | null | undefined): ResellerContact {
  return {
    fullName: input?.fullName ?? null,
    firstName: input?.firstName ?? null,
    lastName: input?.lastName ?? null,
    emailAddress: input?.emailAddress || null,
    phoneNumber: input?.phoneNumber ?? null,
    locales: input?.locales ?? [],
    postalCode: input?.postalCode ?? null,
    country: input?.country ?? null,
    notes: input?.notes ?? null,
  };
}

/** The contact's name: `fullName`, else first and last name; null without either. */
export function contactName(contact: ResellerContact | null | undefined): string | null {
  const full = contact?.fullName?.trim();
  if (full) return full.slice(0, 200);
  const joined = [contact?.firstName, contact?.lastName]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(' ');
  return joined ? joined.slice(0, 200) : null;
}

/**
 * The booking's customer for a contact with a valid e-mail (found or created by it, as every
 * booking's customer is); null without one (the caller files it under the connection).
 */
export function customerOf(
  contact: ResellerContact | null,
): { name: string; email: string; phone?: string } | null {
  const email = contact?.emailAddress?.trim();
  if (!email || !v.is(EmailSchema, email)) return null;
  const phone = contact?.phoneNumber?.trim();
  return {
    name: contactName(contact) ?? email,
    email,
    ...(phone && v.is(PhoneSchema, phone) && { phone }),
  };
}

/** A unit item as the booking use cases need it: its unit, the reseller's data, and what to keep. */
export interface PlannedUnitItem {
  unit: ResolvedUnit;
  input: OctoUnitItemInput;
  /** The participant this unit item already is (same uuid), whose details carry over. */
  existing?: Participant;
  uuid: string;
}

/**
 * The participants for `items`, in order. A participant's name is its unit item's contact's,
 * else the booking contact's, else its unit's with its position ("Adult 2"); the details only
 * the operator's API sets (dietary and accessibility notes, emergency contact) carry over.
 */
export function participantsOf(
  items: readonly PlannedUnitItem[],
  bookingContact: ResellerContact | null,
): ParticipantInput[] {
  const lead = contactName(bookingContact);
  return items.map((item, index) => {
    const own = contactName(item.input.contact ? toOctoContact(item.input.contact) : null);
    const participant: ParticipantInput = {
      name: own ?? lead ?? `${item.unit.name} ${index + 1}`.slice(0, 200),
      ageBand: item.unit.ageBand,
    };
    if (item.unit.ticketTypeId) participant.ticketTypeId = item.unit.ticketTypeId;
    const kept = item.existing;
    if (kept?.dietaryNotes) participant.dietaryNotes = kept.dietaryNotes;
    if (kept?.accessibilityNotes) participant.accessibilityNotes = kept.accessibilityNotes;
    if (kept?.emergencyContact) participant.emergencyContact = kept.emergencyContact;
    return participant;
  });
}

/** The unit items' links once the booking's participants exist (same order as `items`). */
export function unitItemLinks(
  items: readonly PlannedUnitItem[],
  participants: readonly Participant[],
): ResellerUnitItemLink[] {
  return items.map((item, index) => ({
    participantId: (participants[index] as Participant).id,
    uuid: item.uuid,
    resellerReference: item.input.resellerReference ?? null,
    contact: item.input.contact ? toOctoContact(item.input.contact) : null,
  }));
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * A stable uuid for a participant no unit item names (one the operator added or changed
 * through the native API): derived from its random id, version 8 (RFC 9562, custom).
 */
export function derivedUuid(participantId: string): string {
  let value = 0n;
  for (const char of participantId.slice(participantId.indexOf('_') + 1)) {
    value = value * 62n + BigInt(Math.max(0, BASE62.indexOf(char)));
  }
  const hex = (value & ((1n << 128n) - 1n)).toString(16).padStart(32, '0').split('');
  hex[12] = '8';
  hex[16] = ((Number.parseInt(hex[16] as string, 16) & 0x3) | 0x8).toString(16);
  const h = hex.join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** A fresh random uuid (version 4) for a booking or unit item the reseller did not name. */
export const newUuid = (): string => globalThis.crypto.randomUUID();

/**
 * OCTO's status of a booking at `now`: a PENDING booking is ON_HOLD until its hold expires
 * (EXPIRED from then, even before the worker releases it) and PENDING without a hold; a
 * cancelled one is EXPIRED when its hold lapsed; CONFIRMED is REDEEMED once every participant
 * has checked in, and COMPLETED is REDEEMED. A NO_SHOW stays CONFIRMED (it was sold, not used).
 */
export function octoStatusOf(
  booking: Pick<BookingRecord, 'status' | 'expiresAt' | 'cancellationReason' | 'participants'>,
  now: Date,
): OctoBookingStatus {
  switch (booking.status) {
    case 'PENDING':
      if (booking.expiresAt === null) return 'PENDING';
      return Date.parse(booking.expiresAt) > now.getTime() ? 'ON_HOLD' : 'EXPIRED';
    case 'CANCELLED':
      return booking.cancellationReason === 'EXPIRED' ? 'EXPIRED' : 'CANCELLED';
    case 'CONFIRMED':
      return booking.participants.length > 0 && booking.participants.every((p) => p.checkedInAt !== null)
        ? 'REDEEMED'
        : 'CONFIRMED';
    case 'COMPLETED':
      return 'REDEEMED';
    case 'NO_SHOW':
      return 'CONFIRMED';
  }
}

/**
 * Whether the reseller may still cancel (and so change) the booking: a hold always, a
 * confirmed booking before its cancellation cutoff, nothing else.
 */
export function isOctoCancellable(booking: BookingRecord, now: Date): boolean {
  const status = octoStatusOf(booking, now);
  if (status === 'ON_HOLD') return true;
  return status === 'CONFIRMED' && booking.status === 'CONFIRMED' && isGuestCancellable(booking, now);
}

/**
 * What a cancellation refunded: what the payments say when money came back, else what the
 * policy gives a guest for a sold booking cancelled before its cutoff (the reseller settles
 * it); NONE for a hold that was never confirmed, or a cancel after the cutoff.
 */
function refundOf(booking: BookingRecord): 'FULL' | 'PARTIAL' | 'NONE' {
  if (booking.paymentStatus === 'REFUNDED') return 'FULL';
  if (booking.paymentStatus === 'PARTIALLY_REFUNDED') return 'PARTIAL';
  if (!booking.confirmedAt || !booking.cancelledAt) return 'NONE';
  const cutoff = Date.parse(booking.startsAt) - booking.cancellationPolicy.cutoffHours * 3_600_000;
  return Date.parse(booking.cancelledAt) < cutoff ? booking.cancellationPolicy.refund : 'NONE';
}

/** The latest check-in of the booking's participants, when every one has checked in. */
function redeemedAt(booking: BookingRecord): string | null {
  const times = booking.participants.map((p) => p.checkedInAt);
  if (times.length === 0 || times.some((time) => time === null)) return null;
  return utcSeconds(new Date(Math.max(...times.map((time) => Date.parse(time as string)))));
}

/** Everything a booking's OCTO view is made of. */
export interface OctoBookingParts {
  booking: BookingRecord;
  link: ResellerBookingLink;
  tour: Tour;
  departure: DepartureView;
  now: Date;
  pricing: boolean;
}

/**
 * A booking as OCTO shows it: `supplierReference` (and `id`) is the booking id; the unit items
 * are its participants, in order, each with the uuid the reseller gave it (or one derived from
 * the participant); the voucher is the booking id as a QR code, once the booking is sold.
 */
export function toOctoBooking(parts: OctoBookingParts): OctoBooking {
  const { booking, link, tour, departure, now, pricing } = parts;
  const status = octoStatusOf(booking, now);
  const units = toOctoUnits(tour, pricing);
  const items = new Map(link.unitItems.map((item) => [item.participantId, item]));
  const sold = status === 'CONFIRMED' || status === 'REDEEMED';
  const view: OctoBooking = {
    id: booking.id,
    uuid: link.uuid,
    testMode: false,
    resellerReference: link.resellerReference,
    supplierReference: booking.id,
    status,
    utcCreatedAt: utcSeconds(booking.createdAt),
    utcUpdatedAt: utcSeconds(booking.updatedAt),
    utcExpiresAt: status === 'ON_HOLD' ? utcOrNull(booking.expiresAt) : null,
    utcRedeemedAt: status === 'REDEEMED' ? redeemedAt(booking) : null,
    utcConfirmedAt: utcOrNull(booking.confirmedAt),
    productId: tour.id,
    optionId: DEFAULT_OPTION_ID,
    cancellable: isOctoCancellable(booking, now),
    cancellation:
      status === 'CANCELLED' || status === 'EXPIRED'
        ? {
            refund: refundOf(booking),
            reason: booking.cancellationReason ?? (status === 'EXPIRED' ? 'EXPIRED' : null),
            // A hold the worker has not released yet lapsed at its expiry.
            utcCancelledAt: utcSeconds(booking.cancelledAt ?? booking.expiresAt ?? booking.updatedAt),
          }
        : null,
    freesale: false,
    availabilityId: departure.id,
    availability: toOctoAvailability(departure, tour, { pricing }),
    contact: link.contact ?? toOctoContact(null),
    notes: booking.notes,
    deliveryMethods: ['VOUCHER'],
    voucher: {
      redemptionMethod: 'MANIFEST',
      utcRedeemedAt: status === 'REDEEMED' ? redeemedAt(booking) : null,
      deliveryOptions: sold ? [{ deliveryFormat: 'QRCODE', deliveryValue: booking.id }] : [],
    },
    unitItems: booking.participants.map((participant) => {
      const item = items.get(participant.id);
      const unitId = participant.ticketTypeId ?? STANDARD_UNIT_ID;
      const unit = units.find((u) => u.id === unitId);
      const unitItem: OctoUnitItem = {
        uuid: item?.uuid ?? derivedUuid(participant.id),
        resellerReference: item?.resellerReference ?? null,
        supplierReference: participant.id,
        unitId,
        ...(unit && { unit }),
        status: sold && participant.checkedInAt ? 'REDEEMED' : status,
        utcRedeemedAt: sold && participant.checkedInAt ? utcSeconds(participant.checkedInAt) : null,
        contact: item?.contact ?? toOctoContact(null),
        ticket: null,
      };
      if (pricing) unitItem.pricing = pricingOf(participant.price, booking.currency);
      return unitItem;
    }),
  };
  if (pricing) view.pricing = pricingOf(booking.totalAmount, booking.currency);
  return view;
}
