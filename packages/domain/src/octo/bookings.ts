import { emitBookingEvent } from '../bookings/booking-writes.js';
import { cancelUnderPolicy } from '../bookings/cancel-under-policy.js';
import { createBooking } from '../bookings/create-booking.js';
import { extendHold } from '../bookings/extend-hold.js';
import type { Actor, BookingRecord } from '../bookings/ports.js';
import type { Participant } from '../bookings/schemas.js';
import { setBookingStatus } from '../bookings/set-booking-status.js';
import { updateBooking } from '../bookings/update-booking.js';
import type { Availability } from '../catalog/availability-schemas.js';
import { viewDepartures } from '../catalog/departure-views.js';
import type { Tour } from '../catalog/tour-schemas.js';
import { newId } from '../shared/ids.js';
import type { UnitOfWork } from '../shared/ports.js';
import { ok, type Result } from '../shared/result.js';
import { checkOption, publishedTour } from './catalog.js';
import {
  badRequest,
  invalidAvailability,
  invalidBookingUuid,
  type OctoError,
  type OctoFailure,
  type OctoResult,
  unprocessableEntity,
} from './errors.js';
import {
  customerOf,
  DEFAULT_HOLD_MINUTES,
  derivedUuid,
  isOctoCancellable,
  MAX_HOLD_MINUTES,
  newUuid,
  octoStatusOf,
  type PlannedUnitItem,
  participantsOf,
  resolveUnits,
  STANDARD_UNIT_ID,
  toOctoBooking,
  toOctoContact,
  unitItemLinks,
  utcWindowOf,
} from './mapping.js';
import type { OctoBookingLink, OctoBookingRecord, OctoCaller, OctoDeps, OctoStores } from './ports.js';
import type {
  OctoBookingsQuery,
  OctoConfirmationInput,
  OctoReservationInput,
  OctoUnitItemInput,
  OctoUpdateInput,
} from './schemas.js';
import type { OctoBooking, OctoContact } from './shapes.js';

/** A list by dates answers at most this many bookings. */
const MAX_LISTED = 500;

const actorOf = (caller: OctoCaller): Actor => ({ type: 'api_token', id: caller.connectionId });
const contextOf = (caller: OctoCaller) => ({ workspaceId: caller.workspaceId, actor: actorOf(caller) });

/** The deps of the booking use cases, joined to this transaction. */
const joined = (deps: OctoDeps, tx: UnitOfWork<OctoStores>) => ({
  uow: tx,
  clock: deps.clock,
  payments: deps.payments,
});

const holdMinutes = (asked: number | undefined) => Math.min(asked ?? DEFAULT_HOLD_MINUTES, MAX_HOLD_MINUTES);

/** The OCTO views of bookings: their tours and departures read once each. */
async function viewsOf(
  stores: OctoStores,
  caller: OctoCaller,
  records: readonly OctoBookingRecord[],
  now: Date,
): Promise<OctoBooking[]> {
  if (records.length === 0) return [];
  const tours = await stores.tours.findByIds(caller.workspaceId, [
    ...new Set(records.map((r) => r.booking.tourId)),
  ]);
  const departures = await Promise.all(
    [...new Set(records.map((r) => r.booking.availabilityId))].map((id) =>
      stores.availability.findById(caller.workspaceId, id),
    ),
  );
  const views = await viewDepartures(
    stores,
    caller.workspaceId,
    departures.filter((d): d is Availability => d !== null),
    now,
    tours,
  );
  return records.map(({ booking, link }) => {
    const tour = tours.find((t) => t.id === booking.tourId);
    const departure = views.find((d) => d.id === booking.availabilityId);
    // Bookings reference both by foreign key: a miss is a broken database, not a request's fault.
    if (!tour || !departure) throw new Error(`Booking ${booking.id} lost its tour or departure.`);
    return toOctoBooking({ booking, link, tour, departure, now, pricing: caller.pricing });
  });
}

async function viewOf(stores: OctoStores, caller: OctoCaller, record: OctoBookingRecord, now: Date) {
  const [view] = await viewsOf(stores, caller, [record], now);
  return view as OctoBooking;
}

/** The connection's booking with this uuid; another connection's (or none) is INVALID_BOOKING_UUID. */
async function findOwn(
  stores: OctoStores,
  caller: OctoCaller,
  uuid: string,
): Promise<Result<OctoBookingRecord, OctoError>> {
  const found = await stores.octoBookings.findByUuid(
    caller.workspaceId,
    caller.connectionId,
    uuid.toLowerCase(),
  );
  return found ? ok(found) : invalidBookingUuid(uuid);
}

/**
 * Bookings with a contact without an e-mail are filed under the connection's own customer
 * (`octo-<token id>@reseller.invalid`, a domain that never receives mail), named after it.
 */
async function connectionCustomer(stores: OctoStores, caller: OctoCaller) {
  const token = await stores.apiTokens.findById(caller.connectionId);
  return {
    name: `${token?.name ?? 'OCTO reseller'} (OCTO)`.slice(0, 200),
    email: `octo-${caller.connectionId.toLowerCase()}@reseller.invalid`,
  };
}

/** The uuid each current participant is known by: its unit item's, else derived from its id. */
function uuidsOf(record: Pick<OctoBookingRecord, 'booking' | 'link'>): Map<string, string> {
  const stored = new Map(record.link.unitItems.map((item) => [item.participantId, item.uuid]));
  return new Map(record.booking.participants.map((p) => [p.id, stored.get(p.id) ?? derivedUuid(p.id)]));
}

/**
 * The unit items to write, in order: each on one of the tour's units (else INVALID_UNIT_ID),
 * each uuid once (else BAD_REQUEST); one with the uuid of a current participant is that
 * participant (its details carry over, and what the reseller does not resend is kept).
 */
function planUnitItems(
  tour: Tour,
  inputs: readonly OctoUnitItemInput[],
  current: Pick<OctoBookingRecord, 'booking' | 'link'> | null,
): Result<PlannedUnitItem[], OctoError> {
  const units = resolveUnits(
    tour,
    inputs.map((input) => input.unitId),
  );
  if (!units.ok) return units;
  const known = new Map<string, Participant>();
  if (current) {
    const uuids = uuidsOf(current);
    for (const participant of current.booking.participants) {
      known.set(uuids.get(participant.id) as string, participant);
    }
  }
  const kept = new Map((current?.link.unitItems ?? []).map((item) => [item.uuid, item]));
  const seen = new Set<string>();
  const planned: PlannedUnitItem[] = [];
  for (const [index, input] of inputs.entries()) {
    const uuid = input.uuid ?? newUuid();
    if (seen.has(uuid))
      return badRequest(`unitItems[${index}].uuid appears twice: each unit item has its own.`);
    seen.add(uuid);
    const previous = kept.get(uuid);
    const existing = known.get(uuid);
    planned.push({
      unit: units.value[index] as PlannedUnitItem['unit'],
      input: {
        ...input,
        ...(input.resellerReference === undefined &&
          previous?.resellerReference && { resellerReference: previous.resellerReference }),
        ...(input.contact === undefined && previous?.contact && { contact: previous.contact }),
      },
      ...(existing && { existing }),
      uuid,
    });
  }
  return ok(planned);
}

/** The current participants as unit items (same uuids and units), to write them again. */
function currentUnitItems(record: Pick<OctoBookingRecord, 'booking' | 'link'>): OctoUnitItemInput[] {
  const uuids = uuidsOf(record);
  return record.booking.participants.map((p) => ({
    uuid: uuids.get(p.id) as string,
    unitId: p.ticketTypeId ?? STANDARD_UNIT_ID,
  }));
}

/** The current participants on another tour: each on that tour's first unit of its band. */
function movedUnitItems(
  record: Pick<OctoBookingRecord, 'booking' | 'link'>,
  from: Tour | null,
  to: Tour,
): Result<OctoUnitItemInput[], OctoError> {
  const uuids = uuidsOf(record);
  const items: OctoUnitItemInput[] = [];
  for (const participant of record.booking.participants) {
    const band =
      participant.ageBand ??
      from?.ticketTypes.find((t) => t.id === participant.ticketTypeId)?.ageBand ??
      'ADULT';
    const unit =
      to.ticketTypes.length === 0
        ? band === 'ADULT'
          ? STANDARD_UNIT_ID
          : undefined
        : to.ticketTypes.find((t) => t.ageBand === band)?.id;
    if (!unit) return unprocessableEntity(`The new product sells no ${band} unit: send unitItems for it.`);
    items.push({ uuid: uuids.get(participant.id) as string, unitId: unit });
  }
  return ok(items);
}

/**
 * Files the booking under the contact's customer (found or created by e-mail), when the
 * contact has one and it is another customer than now; both customers' figures follow.
 */
async function refileCustomer(stores: OctoStores, booking: BookingRecord, contact: OctoContact) {
  const wanted = customerOf(contact);
  if (!wanted) return booking;
  const customer = await stores.customers.findOrCreateByEmail(booking.workspaceId, {
    id: newId('customer'),
    name: wanted.name,
    email: wanted.email,
    phone: wanted.phone ?? null,
    tags: [],
    marketingConsent: false,
  });
  if (customer.id === booking.customerId) return booking;
  const updated = await stores.bookings.update(booking.workspaceId, booking.id, { customerId: customer.id });
  await stores.customers.refreshStats(booking.workspaceId, booking.customerId);
  await stores.customers.refreshStats(booking.workspaceId, customer.id);
  return updated;
}

/**
 * OCTO's reservation: a PENDING booking of the published tour's departure, in MANUAL mode (the
 * reseller pays the operator), holding its seats for `expirationMinutes` (default 30, at most
 * 60) through `createBooking`, so seats, prices, ticket rules, history and events are the
 * native ones. The reseller's `uuid` is the idempotency key: the same uuid from the same
 * connection answers the booking it made, and concurrent twins wait for each other.
 */
export function reserveOctoBooking(
  deps: OctoDeps,
  caller: OctoCaller,
  input: OctoReservationInput,
): Promise<OctoResult<OctoBooking>> {
  return deps.uow.transaction<OctoBooking, OctoFailure>(async (tx) => {
    const { stores } = tx;
    if (input.uuid) {
      await stores.octoBookings.lockUuid(caller.connectionId, input.uuid);
      const existing = await stores.octoBookings.findByUuid(
        caller.workspaceId,
        caller.connectionId,
        input.uuid,
      );
      if (existing) return ok(await viewOf(stores, caller, existing, deps.clock.now()));
    }
    const tour = await publishedTour(stores, caller.workspaceId, input.productId);
    if (!tour.ok) return tour;
    const option = checkOption(input.optionId);
    if (!option.ok) return option;
    if (!input.availabilityId) return invalidAvailability('');
    const departure = await stores.availability.findById(caller.workspaceId, input.availabilityId);
    if (departure?.tourId !== tour.value.id) return invalidAvailability(input.availabilityId);
    if (!input.unitItems?.length) return unprocessableEntity('unitItems must name at least one unit.');
    if (input.currency && input.currency !== tour.value.currency) {
      return badRequest(`This product sells in ${tour.value.currency} only.`);
    }
    const planned = planUnitItems(tour.value, input.unitItems, null);
    if (!planned.ok) return planned;
    const contact = input.contact ? toOctoContact(input.contact) : null;
    const created = await createBooking(
      joined(deps, tx),
      contextOf(caller),
      {
        availabilityId: departure.id,
        customer: customerOf(contact) ?? (await connectionCustomer(stores, caller)),
        participants: participantsOf(planned.value, contact),
        paymentMode: 'MANUAL',
        ...(input.notes && { notes: input.notes }),
      },
      // The answer shows the departure's vacancies with this reservation's seats taken.
      { channel: 'reseller', holdMinutes: holdMinutes(input.expirationMinutes), seats: 'now' },
    );
    if (!created.ok) return created;
    const { booking } = created.value;
    const link: OctoBookingLink = {
      bookingId: booking.id,
      workspaceId: caller.workspaceId,
      connectionId: caller.connectionId,
      uuid: input.uuid ?? newUuid(),
      resellerReference: input.resellerReference ?? null,
      contact,
      unitItems: unitItemLinks(planned.value, booking.participants),
    };
    await stores.octoBookings.insert(link);
    return ok(await viewOf(stores, caller, { link, booking }, deps.clock.now()));
  });
}

/** Why the booking cannot be confirmed or changed, in the reseller's words. */
function refusal(
  booking: BookingRecord,
  now: Date,
  action: 'confirmed' | 'changed',
): Result<never, OctoError> {
  const status = octoStatusOf(booking, now);
  if (status === 'EXPIRED') return unprocessableEntity('The reservation has expired: reserve again.');
  if (status === 'CONFIRMED' && action === 'changed') {
    return unprocessableEntity('The cancellation cutoff has passed: the booking can no longer change.');
  }
  return unprocessableEntity(`A ${status} booking cannot be ${action}.`);
}

/**
 * OCTO's confirmation: the hold becomes a CONFIRMED booking (the native status change:
 * `booking.confirmed`, the hold cleared), with the reseller's reference and contact, and new
 * unit items when sent. An expired hold is UNPROCESSABLE_ENTITY, even before the worker has
 * released it; confirming a confirmed booking again updates its reference and contact.
 */
export function confirmOctoBooking(
  deps: OctoDeps,
  caller: OctoCaller,
  uuid: string,
  input: OctoConfirmationInput,
): Promise<OctoResult<OctoBooking>> {
  return deps.uow.transaction<OctoBooking, OctoFailure>(async (tx) => {
    const { stores } = tx;
    const found = await findOwn(stores, caller, uuid);
    if (!found.ok) return found;
    // Locked as the hold-expiry job locks it: a confirm and an expiry serialise, one wins.
    const locked = await stores.bookings.lockWithDepartures(caller.workspaceId, found.value.booking.id);
    if (!locked.ok) return locked;
    let booking = locked.value.booking;
    const now = deps.clock.now();
    const status = octoStatusOf(booking, now);
    if (status !== 'ON_HOLD' && status !== 'CONFIRMED') return refusal(booking, now, 'confirmed');
    const contact = toOctoContact(input.contact);
    const link = { ...found.value.link, contact };
    if (input.resellerReference !== undefined) link.resellerReference = input.resellerReference;
    booking = await refileCustomer(stores, booking, contact);
    if (booking.status === 'PENDING') {
      // The names follow the contact while nothing has been sold yet (no check-in to lose).
      const tour = (await stores.tours.findById(caller.workspaceId, booking.tourId)) as Tour;
      const items = input.unitItems ?? currentUnitItems({ booking, link });
      if (items.length === 0) return unprocessableEntity('unitItems must name at least one unit.');
      const planned = planUnitItems(tour, items, { booking, link });
      if (!planned.ok) return planned;
      const updated = await updateBooking(joined(deps, tx), contextOf(caller), booking.id, {
        participants: participantsOf(planned.value, contact),
      });
      if (!updated.ok) return updated;
      link.unitItems = unitItemLinks(planned.value, updated.value.participants);
      const confirmed = await setBookingStatus(joined(deps, tx), contextOf(caller), booking.id, {
        status: 'CONFIRMED',
        reason: 'OCTO_CONFIRMED',
      });
      if (!confirmed.ok) return confirmed;
      booking = confirmed.value;
    } else if (input.unitItems) {
      return unprocessableEntity('A confirmed booking changes its unit items with PATCH.');
    } else {
      await emitBookingEvent(stores, deps.clock, 'booking.updated', booking);
    }
    await stores.octoBookings.update(caller.workspaceId, booking.id, link);
    return ok(await viewOf(stores, caller, { booking, link }, now));
  });
}

/**
 * OCTO's booking update (`PATCH`), allowed while the booking may be cancelled (a hold, or a
 * confirmed booking before its cutoff): another departure of the product or of another
 * published product, new unit items (each uuid kept is that unit item, each one left out is
 * removed), notes, the reseller's reference and contact, and (on a hold) more time. Seats
 * move atomically through `updateBooking`.
 */
export function updateOctoBooking(
  deps: OctoDeps,
  caller: OctoCaller,
  uuid: string,
  input: OctoUpdateInput,
): Promise<OctoResult<OctoBooking>> {
  return deps.uow.transaction<OctoBooking, OctoFailure>(async (tx) => {
    const { stores } = tx;
    const found = await findOwn(stores, caller, uuid);
    if (!found.ok) return found;
    const current = (await stores.tours.findById(caller.workspaceId, found.value.booking.tourId)) as Tour;
    let tour = current;
    if (input.productId !== undefined && input.productId !== current.id) {
      const other = await publishedTour(stores, caller.workspaceId, input.productId);
      if (!other.ok) return other;
      tour = other.value;
    }
    if (input.optionId !== undefined) {
      const option = checkOption(input.optionId);
      if (!option.ok) return option;
    }
    let target: Availability | null = null;
    if (input.availabilityId !== undefined) {
      target = await stores.availability.findById(caller.workspaceId, input.availabilityId);
      if (target?.tourId !== tour.id) return invalidAvailability(input.availabilityId);
    } else if (tour.id !== current.id) {
      return invalidAvailability('');
    }
    const locked = await stores.bookings.lockWithDepartures(
      caller.workspaceId,
      found.value.booking.id,
      target?.id,
    );
    if (!locked.ok) return locked;
    let booking = locked.value.booking;
    const now = deps.clock.now();
    if (!isOctoCancellable(booking, now)) return refusal(booking, now, 'changed');
    const record = { booking, link: found.value.link };
    let items: OctoUnitItemInput[] | null = input.unitItems ?? null;
    if (items?.length === 0) return unprocessableEntity('unitItems must name at least one unit.');
    if (!items && tour.id !== current.id) {
      const moved = movedUnitItems(record, current, tour);
      if (!moved.ok) return moved;
      items = moved.value;
    }
    const planned = items ? planUnitItems(tour, items, record) : null;
    if (planned && !planned.ok) return planned;
    const link: OctoBookingLink = { ...found.value.link };
    if (input.contact) {
      link.contact = toOctoContact(input.contact);
      booking = await refileCustomer(stores, booking, link.contact);
    }
    if (input.resellerReference !== undefined) link.resellerReference = input.resellerReference;
    const moving = target !== null && target.id !== booking.availabilityId;
    if (moving || planned || input.notes !== undefined) {
      const updated = await updateBooking(
        joined(deps, tx),
        contextOf(caller),
        booking.id,
        {
          ...(moving && { availabilityId: (target as Availability).id }),
          ...(planned && { participants: participantsOf(planned.value, link.contact) }),
          ...(input.notes !== undefined && { notes: input.notes }),
        },
        undefined,
        { acrossTours: true },
      );
      if (!updated.ok) return updated;
      booking = updated.value;
      if (planned) link.unitItems = unitItemLinks(planned.value, booking.participants);
    } else if (input.contact) {
      await emitBookingEvent(stores, deps.clock, 'booking.updated', booking);
    }
    if (input.expirationMinutes !== undefined && booking.status === 'PENDING') {
      const extended = await extendHold(
        joined(deps, tx),
        contextOf(caller),
        booking.id,
        holdMinutes(input.expirationMinutes),
      );
      if (!extended.ok) return extended;
      booking = extended.value;
    }
    await stores.octoBookings.update(caller.workspaceId, booking.id, link);
    return ok(await viewOf(stores, caller, { booking, link }, now));
  });
}

/** OCTO's extension of a hold: `expirationMinutes` (default 30) more, at most 60 past now. */
export function extendOctoBooking(
  deps: OctoDeps,
  caller: OctoCaller,
  uuid: string,
  input: { expirationMinutes?: number | undefined } | undefined,
): Promise<OctoResult<OctoBooking>> {
  return deps.uow.transaction<OctoBooking, OctoFailure>(async (tx) => {
    const found = await findOwn(tx.stores, caller, uuid);
    if (!found.ok) return found;
    const extended = await extendHold(
      joined(deps, tx),
      contextOf(caller),
      found.value.booking.id,
      holdMinutes(input?.expirationMinutes),
    );
    if (!extended.ok) return extended;
    return ok(await viewOf(tx.stores, caller, { ...found.value, booking: extended.value }, deps.clock.now()));
  });
}

/**
 * OCTO's cancellation: a hold is released at any time; a confirmed booking is cancelled
 * under the guest's rules (its cancellation cutoff, its policy's refund): after the cutoff,
 * UNPROCESSABLE_ENTITY.
 */
export function cancelOctoBooking(
  deps: OctoDeps,
  caller: OctoCaller,
  uuid: string,
  input: { reason?: string | null | undefined } | undefined,
): Promise<OctoResult<OctoBooking>> {
  return deps.uow.transaction<OctoBooking, OctoFailure>(async (tx) => {
    const found = await findOwn(tx.stores, caller, uuid);
    if (!found.ok) return found;
    const cancelled = await cancelUnderPolicy(joined(deps, tx), contextOf(caller), found.value.booking.id, {
      reason: input?.reason,
    });
    if (!cancelled.ok) return cancelled;
    return ok(
      await viewOf(tx.stores, caller, { ...found.value, booking: cancelled.value }, deps.clock.now()),
    );
  });
}

export async function getOctoBooking(
  deps: Pick<OctoDeps, 'uow' | 'clock'>,
  caller: OctoCaller,
  uuid: string,
): Promise<OctoResult<OctoBooking>> {
  const found = await findOwn(deps.uow.stores, caller, uuid);
  if (!found.ok) return found;
  return ok(await viewOf(deps.uow.stores, caller, found.value, deps.clock.now()));
}

/**
 * The connection's bookings by `resellerReference`, `supplierReference` (the booking id) or
 * departure local date(s) (`localDate`, or `localDateStart` with `localDateEnd`, in each
 * product's zone); every filter given applies. No filter is BAD_REQUEST. At most 500.
 */
export async function listOctoBookings(
  deps: Pick<OctoDeps, 'uow' | 'clock'>,
  caller: OctoCaller,
  query: OctoBookingsQuery,
): Promise<OctoResult<OctoBooking[]>> {
  const byRange = query.localDateStart !== undefined || query.localDateEnd !== undefined;
  if (byRange && (query.localDateStart === undefined || query.localDateEnd === undefined)) {
    return badRequest('localDateStart and localDateEnd go together.');
  }
  if (byRange && query.localDate !== undefined) {
    return badRequest('Send localDate or localDateStart with localDateEnd, not both.');
  }
  const range = query.localDate
    ? { from: query.localDate, to: query.localDate }
    : byRange
      ? { from: query.localDateStart as string, to: query.localDateEnd as string }
      : null;
  if (!range && query.resellerReference === undefined && query.supplierReference === undefined) {
    return badRequest(
      'Filter by resellerReference, supplierReference, localDate or localDateStart with localDateEnd.',
    );
  }
  if (range && range.to < range.from) return badRequest('localDateEnd is before localDateStart.');
  const stores = deps.uow.stores;
  const records = await stores.octoBookings.list(
    caller.workspaceId,
    caller.connectionId,
    {
      ...(query.resellerReference !== undefined && { resellerReference: query.resellerReference }),
      ...(query.supplierReference !== undefined && { supplierReference: query.supplierReference }),
      ...(range && utcWindowOf(range)),
    },
    MAX_LISTED,
  );
  const now = deps.clock.now();
  const views = await viewsOf(stores, caller, records, now);
  if (!range) return ok(views);
  // The local start carries the product's zone: its date is the departure's local day.
  return ok(
    views.filter((view) => {
      const day = view.availability.localDateTimeStart.slice(0, 10);
      return day >= range.from && day <= range.to;
    }),
  );
}
