import type { Availability, UpdateAvailabilityInput } from '../catalog/availability-schemas.js';
import { decideDeparturePatch } from '../catalog/departure-rules.js';
import { type DomainError, notFound, unprocessable } from '../shared/errors.js';
import { newId, randomBase62 } from '../shared/ids.js';
import type {
  Actor,
  AvailabilityPatch,
  Clock,
  DateRange,
  IncidentFilter,
  IncidentPatch,
  ItineraryItemPatch,
  ItineraryRecord,
  PageRequest,
  Stores,
} from '../shared/ports.js';
import { fail, ok, type Result } from '../shared/result.js';
import {
  ALERTING_SEVERITIES,
  type AssignmentRole,
  canMoveIncident,
  checkMemberFree,
  checkVehicleFits,
  departureInterval,
} from './rules.js';
import type {
  BlackoutDate,
  CreateBlackoutDateInput,
  CreateGuideInput,
  CreateIncidentInput,
  CreateItineraryInput,
  CreateItineraryItemInput,
  CreateTimeOffInput,
  CreateVehicleInput,
  CreateVendorInput,
  Guide,
  Incident,
  Itinerary,
  ItineraryItem,
  PublicItinerary,
  TimeOff,
  UpdateGuideInput,
  UpdateIncidentInput,
  UpdateItineraryInput,
  UpdateItineraryItemInput,
  UpdateVehicleInput,
  UpdateVendorInput,
  Vehicle,
  Vendor,
} from './schemas.js';

export interface OperationsDeps {
  stores: Stores;
  clock: Clock;
}

const unknownRef = (what: string, field: string): DomainError =>
  unprocessable(`No such ${what} in this workspace.`, field, 'not_found');

const orNotFound = <T>(value: T | null, resource: string): Result<T> =>
  value ? ok(value) : fail(notFound(resource));

const deleted = (id: string, found: boolean, resource: string): Result<{ id: string; deleted: true }> =>
  found ? ok({ id, deleted: true as const }) : fail(notFound(resource));

// ---- Blackout dates -------------------------------------------------------------------------

export async function createBlackoutDate(
  deps: OperationsDeps,
  workspaceId: string,
  input: CreateBlackoutDateInput,
): Promise<Result<BlackoutDate>> {
  const tourId = input.tourId ?? null;
  if (tourId && !(await deps.stores.tours.findById(workspaceId, tourId))) {
    return fail(unknownRef('tour', 'tourId'));
  }
  return deps.stores.blackoutDates.insert(workspaceId, {
    id: newId('blackoutDate'),
    tourId,
    date: input.date,
    reason: input.reason ?? null,
  });
}

export function listBlackoutDates(
  deps: OperationsDeps,
  workspaceId: string,
  filter: DateRange & { tourId?: string },
  page: PageRequest,
) {
  return deps.stores.blackoutDates.list(workspaceId, filter, page);
}

export async function deleteBlackoutDate(deps: OperationsDeps, workspaceId: string, id: string) {
  return deleted(id, await deps.stores.blackoutDates.delete(workspaceId, id), 'blackout date');
}

// ---- Guides and time-off --------------------------------------------------------------------

export async function createGuide(
  deps: OperationsDeps,
  workspaceId: string,
  input: CreateGuideInput,
): Promise<Result<Guide>> {
  if (!(await deps.stores.members.findById(workspaceId, input.memberId))) {
    return fail(unknownRef('member', 'memberId'));
  }
  return deps.stores.guides.insert(workspaceId, {
    memberId: input.memberId,
    isGuide: true,
    displayName: input.displayName,
    phone: input.phone ?? null,
    languages: [...new Set(input.languages ?? [])],
    certifications: [...new Set(input.certifications ?? [])],
  });
}

export async function updateGuide(
  deps: OperationsDeps,
  workspaceId: string,
  memberId: string,
  input: UpdateGuideInput,
): Promise<Result<Guide>> {
  const patch = {
    ...input,
    ...(input.languages && { languages: [...new Set(input.languages)] }),
    ...(input.certifications && { certifications: [...new Set(input.certifications)] }),
  };
  return orNotFound(await deps.stores.guides.update(workspaceId, memberId, patch), 'guide');
}

export function listGuides(
  deps: OperationsDeps,
  workspaceId: string,
  activeOnly: boolean,
  page: PageRequest,
) {
  return deps.stores.guides.list(workspaceId, { activeOnly }, page);
}

async function findGuide(deps: OperationsDeps, workspaceId: string, memberId: string) {
  return orNotFound(await deps.stores.guides.findByMemberId(workspaceId, memberId), 'guide');
}

export async function createTimeOff(
  deps: OperationsDeps,
  workspaceId: string,
  memberId: string,
  input: CreateTimeOffInput,
): Promise<Result<TimeOff>> {
  const guide = await findGuide(deps, workspaceId, memberId);
  if (!guide.ok) return guide;
  const startsAt = new Date(input.startsAt);
  const endsAt = new Date(input.endsAt);
  if (endsAt <= startsAt) {
    return fail(unprocessable('Time off must end after it starts.', 'endsAt', 'before_start'));
  }
  return ok(
    await deps.stores.timeOff.insert(workspaceId, {
      id: newId('timeOff'),
      memberId,
      startsAt: startsAt.toISOString(),
      endsAt: endsAt.toISOString(),
      reason: input.reason ?? null,
    }),
  );
}

export async function listTimeOff(
  deps: OperationsDeps,
  workspaceId: string,
  memberId: string,
  range: DateRange,
  page: PageRequest,
) {
  const guide = await findGuide(deps, workspaceId, memberId);
  if (!guide.ok) return guide;
  return ok(await deps.stores.timeOff.list(workspaceId, memberId, range, page));
}

export async function deleteTimeOff(deps: OperationsDeps, workspaceId: string, memberId: string, id: string) {
  return deleted(id, await deps.stores.timeOff.delete(workspaceId, memberId, id), 'time off');
}

// ---- Vehicles and vendors -------------------------------------------------------------------

export function createVehicle(deps: OperationsDeps, workspaceId: string, input: CreateVehicleInput) {
  return deps.stores.vehicles.insert(workspaceId, {
    id: newId('vehicle'),
    name: input.name,
    registration: input.registration ?? null,
    seats: input.seats,
    status: input.status ?? 'ACTIVE',
    notes: input.notes ?? null,
  });
}

export async function getVehicle(deps: OperationsDeps, workspaceId: string, id: string) {
  return orNotFound(await deps.stores.vehicles.findById(workspaceId, id), 'vehicle');
}

export async function updateVehicle(
  deps: OperationsDeps,
  workspaceId: string,
  id: string,
  input: UpdateVehicleInput,
): Promise<Result<Vehicle>> {
  const updated = await deps.stores.vehicles.update(workspaceId, id, input);
  return updated.ok ? orNotFound(updated.value, 'vehicle') : updated;
}

export function listVehicles(
  deps: OperationsDeps,
  workspaceId: string,
  filter: { status?: Vehicle['status'] },
  page: PageRequest,
) {
  return deps.stores.vehicles.list(workspaceId, filter, page);
}

/** A vehicle still assigned to an open departure cannot go (retire it, or unassign it first). */
export function deleteVehicle(deps: OperationsDeps, workspaceId: string, id: string) {
  return deps.stores.transaction(async (stores) => {
    if (!(await stores.vehicles.lock(workspaceId, id))) return fail(notFound('vehicle'));
    if (await stores.availability.hasOpenAssignments(workspaceId, { vehicleId: id })) {
      return fail(
        unprocessable(
          'The vehicle is assigned to departures that have not finished; unassign it or set status RETIRED.',
          'id',
          'vehicle_in_use',
        ),
      );
    }
    return deleted(id, await stores.vehicles.delete(workspaceId, id), 'vehicle');
  });
}

export async function createVendor(
  deps: OperationsDeps,
  workspaceId: string,
  input: CreateVendorInput,
): Promise<Result<Vendor>> {
  return ok(
    await deps.stores.vendors.insert(workspaceId, {
      id: newId('vendor'),
      name: input.name,
      category: input.category,
      contactName: input.contactName ?? null,
      email: input.email ?? null,
      phone: input.phone ?? null,
      notes: input.notes ?? null,
    }),
  );
}

export async function getVendor(deps: OperationsDeps, workspaceId: string, id: string) {
  return orNotFound(await deps.stores.vendors.findById(workspaceId, id), 'vendor');
}

export async function updateVendor(
  deps: OperationsDeps,
  workspaceId: string,
  id: string,
  input: UpdateVendorInput,
) {
  return orNotFound(await deps.stores.vendors.update(workspaceId, id, input), 'vendor');
}

export function listVendors(
  deps: OperationsDeps,
  workspaceId: string,
  filter: { category?: Vendor['category'] },
  page: PageRequest,
) {
  return deps.stores.vendors.list(workspaceId, filter, page);
}

export async function deleteVendor(deps: OperationsDeps, workspaceId: string, id: string) {
  return deleted(id, await deps.stores.vendors.delete(workspaceId, id), 'vendor');
}

// ---- Departure assignments ------------------------------------------------------------------

function toPatch(input: UpdateAvailabilityInput): AvailabilityPatch {
  return {
    ...(input.startsAt !== undefined && { startsAt: new Date(input.startsAt) }),
    ...(input.capacity !== undefined && { capacity: input.capacity }),
    ...(input.status !== undefined && { status: input.status }),
    ...(input.bookingCutoffAt !== undefined && {
      bookingCutoffAt: input.bookingCutoffAt === null ? null : new Date(input.bookingCutoffAt),
    }),
    ...(input.guideId !== undefined && { guideId: input.guideId }),
    ...(input.driverId !== undefined && { driverId: input.driverId }),
    ...(input.vehicleId !== undefined && { vehicleId: input.vehicleId }),
  };
}

/**
 * PATCH of a departure, assignments included. Whoever the departure will have (guide,
 * driver, vehicle) is checked against its interval, startsAt .. startsAt + the tour's
 * duration, whenever the assignment, the time or the capacity changes. The member and
 * vehicle rows are locked first (members by id, then the vehicle, then the departure), so
 * two assignments of one guide to overlapping departures serialise: the second sees the first.
 */
export function updateDeparture(
  deps: OperationsDeps,
  workspaceId: string,
  id: string,
  input: UpdateAvailabilityInput,
): Promise<Result<Availability>> {
  const patch = toPatch(input);
  return deps.stores.transaction(async (stores) => {
    const seen = await stores.availability.findById(workspaceId, id);
    if (!seen) return fail(notFound('availability'));
    const guideId = patch.guideId === undefined ? seen.guideId : patch.guideId;
    const driverId = patch.driverId === undefined ? seen.driverId : patch.driverId;
    const vehicleId = patch.vehicleId === undefined ? seen.vehicleId : patch.vehicleId;
    const recheck = patch.startsAt !== undefined || patch.capacity !== undefined;
    const members: [AssignmentRole, string][] = [];
    if (guideId && (patch.guideId !== undefined || recheck)) members.push(['guide', guideId]);
    if (driverId && (patch.driverId !== undefined || recheck)) members.push(['driver', driverId]);
    const checkVehicle = vehicleId && (patch.vehicleId !== undefined || recheck) ? vehicleId : null;

    for (const memberId of [...new Set(members.map(([, memberId]) => memberId))].sort()) {
      if (!(await stores.members.lock(workspaceId, memberId))) {
        const [role] = members.find(([, m]) => m === memberId) as [AssignmentRole, string];
        return fail(unknownRef('member', `${role}Id`));
      }
    }
    const vehicle = checkVehicle ? await stores.vehicles.lock(workspaceId, checkVehicle) : null;
    if (checkVehicle && !vehicle) return fail(unknownRef('vehicle', 'vehicleId'));

    const current = await stores.availability.lock(workspaceId, id);
    if (!current) return fail(notFound('availability'));
    const decided = decideDeparturePatch(current, patch);
    if (!decided.ok) return decided;
    const tour = await stores.tours.findById(workspaceId, current.tourId);
    if (!tour) return fail(notFound('tour'));
    const interval = departureInterval(patch.startsAt ?? current.startsAt, tour.durationMinutes);
    const capacity = patch.capacity ?? current.capacity;
    // A cancelled departure frees its people and vehicle: nothing to check.
    const active = (patch.status ?? current.status) !== 'CANCELLED';

    for (const [role, memberId] of active ? members : []) {
      if (role === 'guide') {
        const guide = await stores.guides.findByMemberId(workspaceId, memberId);
        if (!guide?.isGuide) {
          return fail(unprocessable('This member is not an active guide.', 'guideId', 'not_a_guide'));
        }
      }
      const timeOff = await stores.timeOff.findOverlapping(
        workspaceId,
        memberId,
        interval.start,
        interval.end,
      );
      const busy = await stores.availability.findOverlapping(
        workspaceId,
        { memberId },
        interval.start,
        interval.end,
        id,
      );
      const free = checkMemberFree(role, interval, timeOff, busy);
      if (!free.ok) return free;
    }
    if (vehicle && active) {
      const busy = await stores.availability.findOverlapping(
        workspaceId,
        { vehicleId: vehicle.id },
        interval.start,
        interval.end,
        id,
      );
      const fits = checkVehicleFits(vehicle, capacity, busy);
      if (!fits.ok) return fits;
    }
    return stores.availability.updateWith(workspaceId, id, (locked) => decideDeparturePatch(locked, patch));
  });
}

// ---- Incidents ------------------------------------------------------------------------------

export function createIncident(
  deps: OperationsDeps,
  workspaceId: string,
  actor: Actor,
  input: CreateIncidentInput,
): Promise<Result<Incident>> {
  return deps.stores.transaction(async (stores) => {
    const availabilityId = input.availabilityId ?? null;
    const bookingId = input.bookingId ?? null;
    if (availabilityId && !(await stores.availability.findById(workspaceId, availabilityId))) {
      return fail(unknownRef('departure', 'availabilityId'));
    }
    const booking = bookingId ? await stores.bookings.findById(workspaceId, bookingId) : null;
    if (bookingId && !booking) return fail(unknownRef('booking', 'bookingId'));
    if (booking && availabilityId && booking.availabilityId !== availabilityId) {
      return fail(unprocessable('The booking is not on this departure.', 'bookingId', 'different_departure'));
    }
    const incident = await stores.incidents.insert(workspaceId, {
      id: newId('incident'),
      // A booking pins its departure, so filters by departure find it.
      availabilityId: availabilityId ?? booking?.availabilityId ?? null,
      bookingId,
      severity: input.severity,
      status: 'OPEN',
      title: input.title,
      description: input.description ?? null,
      occurredAt: new Date(input.occurredAt).toISOString(),
      reportedBy: input.reportedBy ?? actor.id ?? actor.type,
      resolvedAt: null,
    });
    if (ALERTING_SEVERITIES.includes(incident.severity)) {
      await stores.outbox.append(
        {
          id: newId('event'),
          type: 'incident.created',
          createdAt: deps.clock.now().toISOString(),
          workspaceId,
          data: incident,
        },
        incident.id,
      );
    }
    return ok(incident);
  });
}

export async function getIncident(deps: OperationsDeps, workspaceId: string, id: string) {
  return orNotFound(await deps.stores.incidents.findById(workspaceId, id), 'incident');
}

export function listIncidents(
  deps: OperationsDeps,
  workspaceId: string,
  filter: IncidentFilter,
  page: PageRequest,
) {
  return deps.stores.incidents.list(workspaceId, filter, page);
}

export function updateIncident(
  deps: OperationsDeps,
  workspaceId: string,
  id: string,
  input: UpdateIncidentInput,
): Promise<Result<Incident>> {
  return deps.stores.transaction(async (stores) => {
    const current = await stores.incidents.lock(workspaceId, id);
    if (!current) return fail(notFound('incident'));
    const patch: IncidentPatch = { ...input };
    if (input.status && !canMoveIncident(current.status, input.status)) {
      return fail(
        unprocessable(
          `A ${current.status} incident cannot become ${input.status}.`,
          'status',
          'invalid_transition',
        ),
      );
    }
    if (input.status && input.status !== current.status) {
      const closing = input.status === 'RESOLVED' || input.status === 'CLOSED';
      patch.resolvedAt = closing ? (current.resolvedAt ?? deps.clock.now().toISOString()) : null;
    }
    return ok(await stores.incidents.update(workspaceId, id, patch));
  });
}

// ---- Itineraries ----------------------------------------------------------------------------

const newItineraryToken = () => randomBase62(32);

function checkDates(startsOn: string, endsOn: string): Result<true> {
  return endsOn < startsOn
    ? fail(unprocessable('The trip must not end before it starts.', 'endsOn', 'before_start'))
    : ok(true);
}

const toItinerary = (record: ItineraryRecord, items?: ItineraryItem[]): Itinerary => {
  const { workspaceId: _w, ...itinerary } = record;
  return items ? { ...itinerary, items } : itinerary;
};

export async function createItinerary(
  deps: OperationsDeps,
  workspaceId: string,
  input: CreateItineraryInput,
): Promise<Result<Itinerary>> {
  if (!(await deps.stores.customers.findById(workspaceId, input.customerId))) {
    return fail(unknownRef('customer', 'customerId'));
  }
  const dates = checkDates(input.startsOn, input.endsOn);
  if (!dates.ok) return dates;
  const record = await deps.stores.itineraries.insert({
    id: newId('itinerary'),
    workspaceId,
    customerId: input.customerId,
    title: input.title,
    startsOn: input.startsOn,
    endsOn: input.endsOn,
    notes: input.notes ?? null,
    publicToken: newItineraryToken(),
  });
  return ok(toItinerary(record, []));
}

export async function getItinerary(deps: OperationsDeps, workspaceId: string, id: string) {
  const record = await deps.stores.itineraries.findById(workspaceId, id);
  if (!record) return fail(notFound('itinerary'));
  return ok(toItinerary(record, await deps.stores.itineraries.listItems(workspaceId, id)));
}

export async function listItineraries(
  deps: OperationsDeps,
  workspaceId: string,
  filter: DateRange & { customerId?: string },
  page: PageRequest,
) {
  const found = await deps.stores.itineraries.list(workspaceId, filter, page);
  return { ...found, items: found.items.map((record) => toItinerary(record)) };
}

export async function updateItinerary(
  deps: OperationsDeps,
  workspaceId: string,
  id: string,
  input: UpdateItineraryInput,
): Promise<Result<Itinerary>> {
  const current = await deps.stores.itineraries.findById(workspaceId, id);
  if (!current) return fail(notFound('itinerary'));
  const dates = checkDates(input.startsOn ?? current.startsOn, input.endsOn ?? current.endsOn);
  if (!dates.ok) return dates;
  await deps.stores.itineraries.update(workspaceId, id, input);
  return getItinerary(deps, workspaceId, id);
}

/** Items fall within the trip's days; a linked booking must be the same traveller's. */
async function checkItem(
  stores: Stores,
  itinerary: ItineraryRecord,
  item: { startsAt: string; endsAt: string | null; bookingId: string | null },
): Promise<Result<true>> {
  const day = item.startsAt.slice(0, 10);
  if (day < itinerary.startsOn || day > itinerary.endsOn) {
    return fail(
      unprocessable(
        `The item must start within the trip (${itinerary.startsOn} to ${itinerary.endsOn}, UTC).`,
        'startsAt',
        'outside_itinerary',
      ),
    );
  }
  if (item.endsAt && item.endsAt < item.startsAt) {
    return fail(unprocessable('The item must not end before it starts.', 'endsAt', 'before_start'));
  }
  if (item.bookingId) {
    const booking = await stores.bookings.findById(itinerary.workspaceId, item.bookingId);
    if (!booking) return fail(unknownRef('booking', 'bookingId'));
    if (booking.customerId !== itinerary.customerId) {
      return fail(
        unprocessable(
          "The booking belongs to another customer than the itinerary's.",
          'bookingId',
          'different_customer',
        ),
      );
    }
  }
  return ok(true);
}

const isoOrNull = (value: string | null | undefined) => (value ? new Date(value).toISOString() : null);

export async function addItineraryItem(
  deps: OperationsDeps,
  workspaceId: string,
  itineraryId: string,
  input: CreateItineraryItemInput,
): Promise<Result<ItineraryItem>> {
  const itinerary = await deps.stores.itineraries.findById(workspaceId, itineraryId);
  if (!itinerary) return fail(notFound('itinerary'));
  const item = {
    id: newId('itineraryItem'),
    itineraryId,
    type: input.type,
    title: input.title,
    startsAt: new Date(input.startsAt).toISOString(),
    endsAt: isoOrNull(input.endsAt),
    location: input.location ?? null,
    description: input.description ?? null,
    operatorNotes: input.operatorNotes ?? null,
    bookingId: input.bookingId ?? null,
  };
  const checked = await checkItem(deps.stores, itinerary, item);
  if (!checked.ok) return checked;
  return ok(await deps.stores.itineraries.insertItem(workspaceId, item));
}

export async function updateItineraryItem(
  deps: OperationsDeps,
  workspaceId: string,
  itineraryId: string,
  id: string,
  input: UpdateItineraryItemInput,
): Promise<Result<ItineraryItem>> {
  const itinerary = await deps.stores.itineraries.findById(workspaceId, itineraryId);
  const current = itinerary ? await deps.stores.itineraries.findItem(workspaceId, itineraryId, id) : null;
  if (!itinerary || !current) return fail(notFound('itinerary item'));
  const patch: ItineraryItemPatch = {
    ...input,
    ...(input.startsAt !== undefined && { startsAt: new Date(input.startsAt).toISOString() }),
    ...(input.endsAt !== undefined && { endsAt: isoOrNull(input.endsAt) }),
  };
  const checked = await checkItem(deps.stores, itinerary, {
    startsAt: patch.startsAt ?? current.startsAt,
    endsAt: patch.endsAt === undefined ? current.endsAt : patch.endsAt,
    bookingId: patch.bookingId === undefined ? null : patch.bookingId,
  });
  if (!checked.ok) return checked;
  return orNotFound(
    await deps.stores.itineraries.updateItem(workspaceId, itineraryId, id, patch),
    'itinerary item',
  );
}

export async function deleteItineraryItem(
  deps: OperationsDeps,
  workspaceId: string,
  itineraryId: string,
  id: string,
) {
  return deleted(
    id,
    await deps.stores.itineraries.deleteItem(workspaceId, itineraryId, id),
    'itinerary item',
  );
}

/** The traveller's view by token: what they need for the trip, nothing internal. */
export async function getPublicItinerary(
  deps: OperationsDeps,
  publicToken: string,
): Promise<Result<PublicItinerary>> {
  const itinerary = await deps.stores.itineraries.findByPublicToken(publicToken);
  const customer = itinerary
    ? await deps.stores.customers.findById(itinerary.workspaceId, itinerary.customerId)
    : null;
  if (!itinerary || !customer) return fail(notFound('itinerary'));
  const items = await deps.stores.itineraries.listItems(itinerary.workspaceId, itinerary.id);
  const statuses = new Map<string, string>();
  for (const bookingId of new Set(items.flatMap((item) => (item.bookingId ? [item.bookingId] : [])))) {
    const booking = await deps.stores.bookings.findById(itinerary.workspaceId, bookingId);
    // Only the traveller's own bookings ever show (a link checked at write time, checked again).
    if (booking && booking.customerId === itinerary.customerId) statuses.set(bookingId, booking.status);
  }
  return ok({
    title: itinerary.title,
    travellerName: customer.name,
    startsOn: itinerary.startsOn,
    endsOn: itinerary.endsOn,
    items: items.map((item) => ({
      type: item.type,
      title: item.title,
      startsAt: item.startsAt,
      endsAt: item.endsAt,
      location: item.location,
      description: item.description,
      bookingStatus: (item.bookingId && statuses.get(item.bookingId)) || null,
    })),
  });
}
