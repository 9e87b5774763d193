/**
 * What a reseller does to its bookings: reserve (a hold), confirm, update, extend and
 * cancel, each one transaction over the native booking use cases, so seats, prices, history
 * and events are the same as every other channel's. Reads are in booking-lookups.ts.
 */

import type { ResellerBookingLink } from '@travelops/domain/bookings';
import {
  cancelUnderPolicy,
  createBooking,
  emitBookingEvent,
  extendHold,
  resellerChannel,
  setBookingStatus,
  updateBooking,
} from '@travelops/domain/bookings';
import type { Tour } from '@travelops/domain/catalog';
import { ok } from '@travelops/domain/shared';
import { findOwn, viewOf } from './booking-lookups.js';
import {
  customerOf,
  newUuid,
  octoStatusOf,
  participantsOf,
  toOctoContact,
  unitItemLinks,
} from './booking-mapping.js';
import {
  connectionCustomer,
  contextOf,
  holdMinutes,
  joined,
  refileCustomer,
  refusal,
} from './booking-writes.js';
import { checkOption, publishedTour } from './catalog.js';
import {
  badRequest,
  invalidAvailability,
  type OctoFailure,
  type OctoResult,
  unprocessableEntity,
} from './errors.js';
import type { OctoCaller, OctoDeps } from './ports.js';
import type { OctoConfirmationInput, OctoReservationInput } from './schemas.js';
import type { OctoBooking } from './shapes.js';
import { currentUnitItems, planUnitItems } from './unit-item-plans.js';

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
      await stores.resellerBookings.lockUuid(caller.connectionId, input.uuid);
      const existing = await stores.resellerBookings.findByUuid(
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
    const departure = await stores.departures.findById(caller.workspaceId, input.availabilityId);
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
    const link: ResellerBookingLink = {
      bookingId: booking.id,
      workspaceId: caller.workspaceId,
      connectionId: caller.connectionId,
      uuid: input.uuid ?? newUuid(),
      resellerReference: input.resellerReference ?? null,
      contact,
      unitItems: unitItemLinks(planned.value, booking.participants),
    };
    await stores.resellerBookings.insert(link);
    return ok(await viewOf(stores, caller, { link, booking }, deps.clock.now()));
  });
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
    await stores.resellerBookings.update(caller.workspaceId, booking.id, link);
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
