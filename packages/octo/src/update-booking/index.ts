import type { BookingRecord, ResellerBookingLink } from '@travelops/domain/bookings';
import { emitBookingEvent, extendHold, resellerChannel, updateBooking } from '@travelops/domain/bookings';
import type { Departure, Tour } from '@travelops/domain/catalog';
import { ok, type Result } from '@travelops/domain/shared';
import { findOwn, viewOf } from '../booking-lookups.js';
import { isOctoCancellable, unitItemLinks } from '../booking-mapping.js';
import { contextOf, holdMinutes, joined, refileCustomer, refusal } from '../booking-writes.js';
import { checkOption, publishedTour } from '../catalog.js';
import type { OctoFailure, OctoResult } from '../errors.js';
import type { OctoCaller, OctoDeps, OctoStores } from '../ports.js';
import type { OctoUpdateInput } from '../schemas.js';
import type { OctoBooking } from '../shapes.js';
import { bookingPatchOf } from './booking-patch.js';
import { checkTargetDeparture } from './check-target.js';
import { nextLink } from './next-link.js';
import { planUnitItemChange } from './plan-unit-items.js';

/**
 * OCTO's booking update (`PATCH`), allowed while the booking may be cancelled (a hold, or a
 * confirmed booking before its cutoff): another departure of the product or of another
 * published product, new unit items (each uuid kept is that unit item, each one left out is
 * removed), notes, the reseller's reference and contact, and (on a hold) more time. Seats
 * move atomically through `updateBooking`. Each step is a file of this folder.
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
    const where = await findTarget(stores, caller, input, current);
    if (!where.ok) return where;
    const { tour, target } = where.value;
    const locked = await stores.bookings.lockWithDepartures(
      caller.workspaceId,
      found.value.booking.id,
      target?.id,
    );
    if (!locked.ok) return locked;
    let booking = locked.value.booking;
    const now = deps.clock.now();
    if (!isOctoCancellable(booking, now)) return refusal(booking, now, 'changed');
    const planned = planUnitItemChange({
      record: { booking, link: found.value.link },
      current,
      tour,
      asked: input.unitItems,
    });
    if (!planned.ok) return planned;
    const link: ResellerBookingLink = nextLink(found.value.link, input);
    if (input.contact && link.contact) booking = await refileCustomer(stores, booking, link.contact);
    const patch = bookingPatchOf({
      booking,
      target,
      planned: planned.value,
      contact: link.contact,
      notes: input.notes,
    });
    if (patch) {
      const updated = await updateBooking(
        joined(deps, tx),
        contextOf(caller),
        booking.id,
        patch,
        undefined,
        // The reseller's channel: a booking may move to another published product.
        resellerChannel(holdMinutes(input.expirationMinutes)),
      );
      if (!updated.ok) return updated;
      booking = updated.value;
      if (planned.value) link.unitItems = unitItemLinks(planned.value, booking.participants);
    } else if (input.contact) {
      await emitBookingEvent(stores, deps.clock, 'booking.updated', booking);
    }
    const extended = await extendIfAsked(deps, tx, caller, booking, input.expirationMinutes);
    if (!extended.ok) return extended;
    await stores.resellerBookings.update(caller.workspaceId, extended.value.id, link);
    return ok(await viewOf(stores, caller, { booking: extended.value, link }, now));
  });
}

/** The tour and departure the booking goes to: the product and departure asked for, checked. */
async function findTarget(
  stores: OctoStores,
  caller: OctoCaller,
  input: OctoUpdateInput,
  current: Tour,
): Promise<OctoResult<{ tour: Tour; target: Departure | null }>> {
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
  const target =
    input.availabilityId === undefined
      ? null
      : await stores.departures.findById(caller.workspaceId, input.availabilityId);
  const checked = checkTargetDeparture({
    currentTourId: current.id,
    tour,
    askedAvailabilityId: input.availabilityId,
    target,
  });
  return checked.ok ? ok({ tour, target }) : checked;
}

/** On a hold, `expirationMinutes` more (at most 60 past now); otherwise the booking as it is. */
async function extendIfAsked(
  deps: OctoDeps,
  tx: Parameters<typeof joined>[1],
  caller: OctoCaller,
  booking: BookingRecord,
  expirationMinutes: number | undefined,
): Promise<Result<BookingRecord, OctoFailure>> {
  if (expirationMinutes === undefined || booking.status !== 'PENDING') return ok(booking);
  return extendHold(joined(deps, tx), contextOf(caller), booking.id, holdMinutes(expirationMinutes));
}
