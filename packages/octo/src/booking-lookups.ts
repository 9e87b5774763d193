/**
 * What a reseller reads of its bookings (one by uuid, or a list by references and dates), and
 * the OCTO views every booking use case answers with: only the connection's own bookings.
 */

import type { ResellerBookingRecord } from '@travelops/domain/bookings';
import type { Departure } from '@travelops/domain/catalog';
import { viewDepartures } from '@travelops/domain/catalog';
import { ok, type Result } from '@travelops/domain/shared';
import { utcWindowOf } from './availability-mapping.js';
import { toOctoBooking } from './booking-mapping.js';
import { badRequest, invalidBookingUuid, type OctoError, type OctoResult } from './errors.js';
import type { OctoCaller, OctoDeps, OctoStores } from './ports.js';
import type { OctoBookingsQuery } from './schemas.js';
import type { OctoBooking } from './shapes.js';

/** A list by dates answers at most this many bookings. */
const MAX_LISTED = 500;

/** The OCTO views of bookings: their tours and departures read once each. */
async function viewsOf(
  stores: OctoStores,
  caller: OctoCaller,
  records: readonly ResellerBookingRecord[],
  now: Date,
): Promise<OctoBooking[]> {
  if (records.length === 0) return [];
  const tours = await stores.tours.findByIds(caller.workspaceId, [
    ...new Set(records.map((r) => r.booking.tourId)),
  ]);
  const departures = await Promise.all(
    [...new Set(records.map((r) => r.booking.availabilityId))].map((id) =>
      stores.departures.findById(caller.workspaceId, id),
    ),
  );
  const views = await viewDepartures(
    stores,
    caller.workspaceId,
    departures.filter((d): d is Departure => d !== null),
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

export async function viewOf(
  stores: OctoStores,
  caller: OctoCaller,
  record: ResellerBookingRecord,
  now: Date,
) {
  const [view] = await viewsOf(stores, caller, [record], now);
  return view as OctoBooking;
}

/** The connection's booking with this uuid; another connection's (or none) is INVALID_BOOKING_UUID. */
export async function findOwn(
  stores: OctoStores,
  caller: OctoCaller,
  uuid: string,
): Promise<Result<ResellerBookingRecord, OctoError>> {
  const found = await stores.resellerBookings.findByUuid(
    caller.workspaceId,
    caller.connectionId,
    uuid.toLowerCase(),
  );
  return found ? ok(found) : invalidBookingUuid(uuid);
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
  const records = await stores.resellerBookings.list(
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
