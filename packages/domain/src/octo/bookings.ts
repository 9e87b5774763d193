/**
 * What a reseller does to its bookings: reserve (a hold), confirm, update, extend and
 * cancel, each one transaction over the native booking use cases, so seats, prices, history
 * and events are the same as every other channel's. Reads are in booking-lookups.ts.
 */

import type { Actor, BookingRecord } from '../bookings/index.js';
import {
  cancelUnderPolicy,
  createBooking,
  emitBookingEvent,
  extendHold,
  resellerChannel,
  setBookingStatus,
  updateBooking,
} from '../bookings/index.js';
import type { Availability, Tour } from '../catalog/index.js';
import { newId } from '../shared/ids.js';
import type { UnitOfWork } from '../shared/ports.js';
import { ok, type Result } from '../shared/result.js';
import { findOwn, viewOf } from './booking-lookups.js';
import {
  customerOf,
  DEFAULT_HOLD_MINUTES,
  isOctoCancellable,
  MAX_HOLD_MINUTES,
  newUuid,
  octoStatusOf,
  participantsOf,
  toOctoContact,
  unitItemLinks,
} from './booking-mapping.js';
import { checkOption, publishedTour } from './catalog.js';
import {
  badRequest,
  invalidAvailability,
  type OctoError,
  type OctoFailure,
  type OctoResult,
  unprocessableEntity,
} from './errors.js';
import type { OctoBookingLink, OctoCaller, OctoDeps, OctoStores } from './ports.js';
import type {
  OctoConfirmationInput,
  OctoReservationInput,
  OctoUnitItemInput,
  OctoUpdateInput,
} from './schemas.js';
import type { OctoBooking, OctoContact } from './shapes.js';
import { currentUnitItems, movedUnitItems, planUnitItems } from './unit-item-plans.js';

const actorOf = (caller: OctoCaller): Actor => ({ type: 'api_token', id: caller.connectionId });
const contextOf = (caller: OctoCaller) => ({ workspaceId: caller.workspaceId, actor: actorOf(caller) });

/** The deps of the booking use cases, joined to this transaction. */
const joined = (deps: OctoDeps, tx: UnitOfWork<OctoStores>) => ({
  uow: tx,
  clock: deps.clock,
  payments: deps.payments,
});

const holdMinutes = (asked: number | undefined) => Math.min(asked ?? DEFAULT_HOLD_MINUTES, MAX_HOLD_MINUTES);

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
      // Its seats taken now: the answer shows the departure's vacancies with them.
      resellerChannel(holdMinutes(input.expirationMinutes)),
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
        resellerChannel(holdMinutes(input.expirationMinutes)),
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
