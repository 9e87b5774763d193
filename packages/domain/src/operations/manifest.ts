import * as v from 'valibot';
import type { BookingRecord } from '../bookings/index.js';
import { BookingStatusSchema, type Participant, PaymentStatusSchema } from '../bookings/index.js';
import type { Tour } from '../catalog/index.js';
import { AvailabilitySchema, type DepartureView } from '../catalog/index.js';
import type { Customer } from '../crm/index.js';
import { AGE_BANDS } from '../shared/enums.js';
import { DateTimeSchema } from '../shared/schemas.js';

/** Participants sold no ticket type (a tour without types, or a booking made before them). */
const STANDARD = 'Standard';

export const ManifestParticipantSchema = v.object({
  id: v.string(),
  name: v.string(),
  ticketTypeId: v.nullable(v.string()),
  /** The type's name on the tour; `Standard` without a type; the id of a type the tour no longer sells. */
  ticketTypeName: v.string(),
  ageBand: v.nullable(v.picklist(AGE_BANDS)),
  waiverSigned: v.boolean(),
  checkedInAt: v.nullable(DateTimeSchema),
  dietaryNotes: v.nullable(v.string()),
  accessibilityNotes: v.nullable(v.string()),
  emergencyContact: v.nullable(v.string()),
});

export const ManifestBookingSchema = v.object({
  id: v.string(),
  status: BookingStatusSchema,
  paymentStatus: PaymentStatusSchema,
  externalReference: v.nullable(v.string()),
  /** The operator's internal notes. */
  notes: v.nullable(v.string()),
  /** What the guest wrote when booking online: the guest's words, not the operator's. */
  guestMessage: v.nullable(v.string()),
  /** Who booked, and how to reach them. */
  customer: v.object({
    id: v.string(),
    name: v.string(),
    email: v.string(),
    phone: v.nullable(v.string()),
  }),
  participants: v.array(ManifestParticipantSchema),
});
type ManifestBooking = v.InferOutput<typeof ManifestBookingSchema>;

export const TicketTypeCountSchema = v.object({
  /** Null: participants sold no ticket type, counted as `Standard`. */
  ticketTypeId: v.nullable(v.string()),
  name: v.string(),
  count: v.number(),
});
export type TicketTypeCount = v.InferOutput<typeof TicketTypeCountSchema>;

/** What the guide takes on the day: who comes, in which ticket type, and what to know about them. */
export const DepartureManifestSchema = v.object({
  departure: AvailabilitySchema,
  tour: v.object({
    id: v.string(),
    slug: v.string(),
    name: v.string(),
    timeZone: v.string(),
    meetingPoint: v.nullable(v.string()),
  }),
  /** Participants per ticket type: every type the tour sells (zero included), then any other held. */
  counts: v.array(TicketTypeCountSchema),
  totals: v.object({ bookings: v.number(), participants: v.number(), checkedIn: v.number() }),
  /** Every booking not CANCELLED (holds included), oldest first. */
  bookings: v.array(ManifestBookingSchema),
});
export type DepartureManifest = v.InferOutput<typeof DepartureManifestSchema>;

/**
 * Participants per ticket type: the tour's types in its order, zero included, then types it
 * no longer sells (named by id) and `Standard` (no type) when someone holds them; a tour
 * without types always shows its `Standard` row.
 */
export function countTicketTypes(
  tour: Pick<Tour, 'ticketTypes'>,
  participants: readonly Pick<Participant, 'ticketTypeId'>[],
): TicketTypeCount[] {
  const counts = new Map<string | null, TicketTypeCount>();
  for (const type of tour.ticketTypes)
    counts.set(type.id, { ticketTypeId: type.id, name: type.name, count: 0 });
  if (tour.ticketTypes.length === 0) counts.set(null, { ticketTypeId: null, name: STANDARD, count: 0 });
  for (const { ticketTypeId } of participants) {
    const row = counts.get(ticketTypeId) ?? { ticketTypeId, name: ticketTypeId ?? STANDARD, count: 0 };
    row.count += 1;
    counts.set(ticketTypeId, row);
  }
  return [...counts.values()];
}

/** The manifest of a departure from its bookings (not CANCELLED) and their customers. */
export function buildManifest(
  departure: DepartureView,
  tour: Pick<Tour, 'id' | 'slug' | 'name' | 'timeZone' | 'meetingPoint' | 'ticketTypes'>,
  bookings: readonly BookingRecord[],
  customers: readonly Customer[],
): DepartureManifest {
  const names = new Map(tour.ticketTypes.map((type) => [type.id, type.name]));
  const customerOf = new Map(customers.map((customer) => [customer.id, customer]));
  const rows = bookings.map((booking): ManifestBooking => {
    const customer = customerOf.get(booking.customerId);
    // A booking's customer is a foreign key of the same workspace: missing is a bug.
    if (!customer) throw new Error(`Customer ${booking.customerId} of booking ${booking.id} is missing.`);
    return {
      id: booking.id,
      status: booking.status,
      paymentStatus: booking.paymentStatus,
      externalReference: booking.externalReference,
      notes: booking.notes,
      guestMessage: booking.guestMessage,
      customer: { id: customer.id, name: customer.name, email: customer.email, phone: customer.phone },
      participants: booking.participants.map((p) => ({
        id: p.id,
        name: p.name,
        ticketTypeId: p.ticketTypeId,
        ticketTypeName: p.ticketTypeId === null ? STANDARD : (names.get(p.ticketTypeId) ?? p.ticketTypeId),
        ageBand: p.ageBand,
        waiverSigned: p.waiverSigned,
        checkedInAt: p.checkedInAt,
        dietaryNotes: p.dietaryNotes,
        accessibilityNotes: p.accessibilityNotes,
        emergencyContact: p.emergencyContact,
      })),
    };
  });
  const participants = bookings.flatMap((booking) => booking.participants);
  return {
    departure,
    tour: {
      id: tour.id,
      slug: tour.slug,
      name: tour.name,
      timeZone: tour.timeZone,
      meetingPoint: tour.meetingPoint,
    },
    counts: countTicketTypes(tour, participants),
    totals: {
      bookings: bookings.length,
      participants: participants.length,
      checkedIn: participants.filter((p) => p.checkedInAt !== null).length,
    },
    bookings: rows,
  };
}

/** The columns of the manifest as a table (the CSV answer): one row per participant. */
const MANIFEST_COLUMNS = [
  'bookingId',
  'bookingStatus',
  'paymentStatus',
  'externalReference',
  'customerName',
  'customerEmail',
  'customerPhone',
  'participantId',
  'participantName',
  'ticketTypeId',
  'ticketType',
  'ageBand',
  'waiverSigned',
  'checkedInAt',
  'dietaryNotes',
  'accessibilityNotes',
  'emergencyContact',
  'bookingNotes',
  'guestMessage',
] as const;

/** The manifest as rows of text under `MANIFEST_COLUMNS` (empty for null), header first. */
export function manifestTable(manifest: Pick<DepartureManifest, 'bookings'>): string[][] {
  const rows: string[][] = [[...MANIFEST_COLUMNS]];
  for (const booking of manifest.bookings) {
    for (const p of booking.participants) {
      rows.push([
        booking.id,
        booking.status,
        booking.paymentStatus,
        booking.externalReference ?? '',
        booking.customer.name,
        booking.customer.email,
        booking.customer.phone ?? '',
        p.id,
        p.name,
        p.ticketTypeId ?? '',
        p.ticketTypeName,
        p.ageBand ?? '',
        p.waiverSigned ? 'true' : 'false',
        p.checkedInAt ?? '',
        p.dietaryNotes ?? '',
        p.accessibilityNotes ?? '',
        p.emergencyContact ?? '',
        booking.notes ?? '',
        booking.guestMessage ?? '',
      ]);
    }
  }
  return rows;
}
