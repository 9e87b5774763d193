import * as v from 'valibot';
import { isGuestCancellable } from '../bookings/policy-rules.js';
import type { BookingRecord } from '../bookings/ports.js';
import type { Participant, ParticipantInput } from '../bookings/schemas.js';
import type { AvailabilityView, DeparturePrice, SalesStatus } from '../catalog/availability-schemas.js';
import { addDays, daysBetween, localDateOf, localIsoDateTime } from '../catalog/local-time.js';
import { bestSalesStatus } from '../catalog/sales-status.js';
import type { TicketType, Tour } from '../catalog/tour-schemas.js';
import type { AgeBand } from '../shared/enums.js';
import { ok, type Result } from '../shared/result.js';
import { EmailSchema, PhoneSchema } from '../shared/schemas.js';
import { invalidUnit, type OctoError } from './errors.js';
import type { OctoBookingLink, OctoUnitItemLink } from './ports.js';
import type { OctoContactInput, OctoUnitItemInput } from './schemas.js';
import type {
  OctoAvailability,
  OctoBooking,
  OctoBookingStatus,
  OctoCalendarDay,
  OctoContact,
  OctoOption,
  OctoPricing,
  OctoProduct,
  OctoUnit,
  OctoUnitItem,
  OctoUnitType,
} from './shapes.js';

/** Every product has one option: the tour as it is sold. */
export const DEFAULT_OPTION_ID = 'DEFAULT';

/** The one unit of a tour without ticket types: an ADULT seat at `basePrice`. */
export const STANDARD_UNIT_ID = 'adult';

/** A reservation without `expirationMinutes` holds this long; no hold is longer than the maximum. */
export const DEFAULT_HOLD_MINUTES = 30;
export const MAX_HOLD_MINUTES = 60;

const ADULT_BANDS: ReadonlySet<AgeBand> = new Set(['ADULT', 'SENIOR']);

/** OCTO shows UTC to the second: `2031-03-14T18:30:00Z`. */
export function utcSeconds(instant: string | Date): string {
  return `${new Date(instant).toISOString().slice(0, 19)}Z`;
}

const utcOrNull = (instant: string | null | undefined) => (instant ? utcSeconds(instant) : null);

/** Digits after the decimal point of the currency's minor unit (EUR 2, JPY 0, KWD 3). */
export function currencyPrecision(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions()
      .maximumFractionDigits as number;
  } catch {
    return 2;
  }
}

/** A price in minor units: what the guest pays; the reseller's net rate is not this service's. */
function pricingOf(amount: number, currency: string): OctoPricing {
  return {
    original: amount,
    retail: amount,
    net: null,
    currency,
    currencyPrecision: currencyPrecision(currency),
    includedTaxes: [],
  };
}

/** The band's OCTO unit type: the bands are OCTO's own names. */
const unitTypeOf = (band: AgeBand): OctoUnitType => band;

/** The tour's units: its ticket types, or one ADULT unit on a tour without them. */
function unitsOf(tour: Pick<Tour, 'ticketTypes' | 'basePrice'>): TicketType[] {
  if (tour.ticketTypes.length > 0) return tour.ticketTypes;
  return [
    {
      id: STANDARD_UNIT_ID,
      name: 'Adult',
      ageBand: 'ADULT',
      price: tour.basePrice,
      minAge: null,
      maxAge: null,
      minPerBooking: null,
      maxPerBooking: null,
      requiresAdult: false,
    },
  ];
}

/** A unit's price on a departure: its override there, else the type's. */
const unitPrice = (type: TicketType, overrides: readonly DeparturePrice[]) =>
  overrides.find((price) => price.ticketTypeId === type.id)?.price ?? type.price;

function toOctoUnit(
  type: TicketType,
  all: readonly TicketType[],
  currency: string,
  pricing: boolean,
): OctoUnit {
  const unit: OctoUnit = {
    id: type.id,
    internalName: type.name,
    reference: null,
    type: unitTypeOf(type.ageBand),
    restrictions: {
      minAge: type.minAge ?? 0,
      maxAge: type.maxAge ?? 120,
      idRequired: false,
      minQuantity: type.minPerBooking,
      maxQuantity: type.maxPerBooking,
      paxCount: 1,
      accompaniedBy: type.requiresAdult ? all.filter((t) => ADULT_BANDS.has(t.ageBand)).map((t) => t.id) : [],
    },
    requiredContactFields: [],
  };
  if (pricing) unit.pricingFrom = [pricingOf(type.price, currency)];
  return unit;
}

export function toOctoUnits(tour: Tour, pricing: boolean): OctoUnit[] {
  const all = unitsOf(tour);
  return all.map((type) => toOctoUnit(type, all, tour.currency, pricing));
}

/**
 * The product's one option. `startTimes` are the local start times of its schedules and future
 * departures; OCTO wants at least one, so a tour with neither shows midnight (and has no
 * availability to sell).
 */
function toOctoOption(tour: Tour, startTimes: readonly string[], pricing: boolean): OctoOption {
  const hours = tour.cancellationPolicy.cutoffHours;
  return {
    id: DEFAULT_OPTION_ID,
    default: true,
    internalName: tour.name,
    reference: null,
    availabilityLocalStartTimes: startTimes.length > 0 ? [...startTimes] : ['00:00'],
    cancellationCutoff: `${hours} hour${hours === 1 ? '' : 's'}`,
    cancellationCutoffAmount: hours,
    cancellationCutoffUnit: 'hour',
    requiredContactFields: [],
    restrictions: { minUnits: 1, maxUnits: null },
    units: toOctoUnits(tour, pricing),
  };
}

/**
 * A published tour as an OCTO product: START_TIME availability in the tour's time zone,
 * confirmed at once, delivered as a voucher the guide checks against the manifest.
 */
export function toOctoProduct(tour: Tour, startTimes: readonly string[], pricing: boolean): OctoProduct {
  const product: OctoProduct = {
    id: tour.id,
    internalName: tour.name,
    reference: tour.slug,
    locale: 'en',
    timeZone: tour.timeZone,
    allowFreesale: false,
    instantConfirmation: true,
    instantDelivery: true,
    availabilityRequired: true,
    availabilityType: 'START_TIME',
    deliveryFormats: ['QRCODE'],
    deliveryMethods: ['VOUCHER'],
    redemptionMethod: 'MANIFEST',
    options: [toOctoOption(tour, startTimes, pricing)],
  };
  if (pricing) {
    product.defaultCurrency = tour.currency;
    product.availableCurrencies = [tour.currency];
    product.pricingPer = 'UNIT';
  }
  return product;
}

/** Local start times (`HH:MM`) in the tour's zone, sorted, each once. */
export function localStartTimes(
  scheduleTimes: readonly string[],
  departureStarts: readonly string[],
  timeZone: string,
): string[] {
  const times = new Set(scheduleTimes);
  for (const startsAt of departureStarts) times.add(localIsoDateTime(startsAt, timeZone).slice(11, 16));
  return [...times].sort();
}

const isOpen = (status: SalesStatus) => status === 'AVAILABLE' || status === 'LIMITED';

/** Seats the reseller asks about at once (the sum of the units' quantities); 0 when it did not say. */
export const seatsAsked = (units: ReadonlyArray<{ quantity: number }> | undefined) =>
  (units ?? []).reduce((sum, unit) => sum + unit.quantity, 0);

/**
 * A departure as an OCTO availability: its id is the departure's, its status the departure's
 * `salesStatus`. `available` says whether it can be booked now (for `seats` seats, when asked).
 */
export function toOctoAvailability(
  departure: AvailabilityView,
  tour: Tour,
  options: { pricing: boolean; seats?: number },
): OctoAvailability {
  const end = new Date(Date.parse(departure.startsAt) + tour.durationMinutes * 60_000);
  const vacancies = Math.max(0, departure.seatsRemaining);
  const availability: OctoAvailability = {
    id: departure.id,
    localDateTimeStart: localIsoDateTime(departure.startsAt, tour.timeZone),
    localDateTimeEnd: localIsoDateTime(end, tour.timeZone),
    utcCutoffAt: utcSeconds(departure.bookingCutoffAt ?? departure.startsAt),
    allDay: false,
    available: isOpen(departure.salesStatus) && vacancies >= Math.max(1, options.seats ?? 0),
    status: departure.salesStatus,
    vacancies,
    capacity: departure.capacity,
    maxUnits: null,
    openingHours: [],
  };
  if (options.pricing) {
    availability.unitPricing = unitsOf(tour).map((type) => ({
      unitId: type.id,
      ...pricingOf(unitPrice(type, departure.prices), tour.currency),
    }));
  }
  return availability;
}

/**
 * One row per local day from `from` to `to` (the tour's zone), from its departures' views:
 * the best status of the day's open departures (CLOSED without one), the most seats one of
 * them has left and its capacity, and (with pricing) each unit's lowest price that day.
 */
export function toOctoCalendar(
  range: { from: string; to: string },
  departures: readonly AvailabilityView[],
  tour: Tour,
  options: { pricing: boolean; seats?: number },
): OctoCalendarDay[] {
  const byDay = new Map<string, AvailabilityView[]>();
  for (const departure of departures) {
    if (departure.salesStatus === 'CLOSED') continue;
    const day = localDateOf(new Date(departure.startsAt), tour.timeZone);
    byDay.set(day, [...(byDay.get(day) ?? []), departure]);
  }
  const days: OctoCalendarDay[] = [];
  for (let offset = 0; offset <= daysBetween(range.from, range.to); offset++) {
    const localDate = addDays(range.from, offset);
    const open = byDay.get(localDate) ?? [];
    const best = open.reduce<AvailabilityView | null>(
      (top, d) => (top === null || d.seatsRemaining > top.seatsRemaining ? d : top),
      null,
    );
    const status = bestSalesStatus(open.map((d) => d.salesStatus));
    const vacancies = Math.max(0, best?.seatsRemaining ?? 0);
    const day: OctoCalendarDay = {
      localDate,
      available: isOpen(status) && vacancies >= Math.max(1, options.seats ?? 0),
      status,
      vacancies,
      capacity: best?.capacity ?? 0,
      openingHours: [],
    };
    if (options.pricing) {
      const selling = open.filter((d) => d.seatsRemaining > 0);
      day.unitPricingFrom = selling.length
        ? unitsOf(tour).map((type) => ({
            unitId: type.id,
            ...pricingOf(Math.min(...selling.map((d) => unitPrice(type, d.prices))), tour.currency),
          }))
        : [];
    }
    days.push(day);
  }
  return days;
}

/** A unit a reseller named, as the booking use cases take it: a ticket type, or the ADULT seat. */
export interface ResolvedUnit {
  unitId: string;
  ticketTypeId?: string;
  ageBand: AgeBand;
  name: string;
}

/** Each unit item's unit among the tour's; an unknown one is INVALID_UNIT_ID. */
export function resolveUnits(
  tour: Pick<Tour, 'ticketTypes' | 'basePrice'>,
  unitIds: readonly string[],
): Result<ResolvedUnit[], OctoError> {
  const resolved: ResolvedUnit[] = [];
  for (const unitId of unitIds) {
    const type = unitsOf(tour).find((t) => t.id === unitId);
    if (!type) return invalidUnit(unitId);
    resolved.push({
      unitId,
      ...(tour.ticketTypes.length > 0 && { ticketTypeId: type.id }),
      ageBand: type.ageBand,
      name: type.name,
    });
  }
  return ok(resolved);
}

/** A contact as OCTO answers it, from what the reseller sent (unset fields are null). */
export function toOctoContact(input: OctoContactInput | null | undefined): OctoContact {
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
export function contactName(contact: OctoContact | null | undefined): string | null {
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
  contact: OctoContact | null,
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
  bookingContact: OctoContact | null,
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
): OctoUnitItemLink[] {
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
  link: OctoBookingLink;
  tour: Tour;
  departure: AvailabilityView;
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

/** The UTC window that holds every departure on local days `from`..`to` of any zone. */
export function utcWindowOf(range: { from: string; to: string }): { startsFrom: Date; startsBefore: Date } {
  return {
    startsFrom: new Date(`${addDays(range.from, -1)}T00:00:00.000Z`),
    startsBefore: new Date(`${addDays(range.to, 2)}T00:00:00.000Z`),
  };
}

/** Whether the departure starts on one of the local days `from`..`to` in `timeZone`. */
export function startsWithin(
  startsAt: string,
  range: { from: string; to: string },
  timeZone: string,
): boolean {
  const day = localDateOf(new Date(startsAt), timeZone);
  return day >= range.from && day <= range.to;
}
