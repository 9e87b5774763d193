import { notFound, unprocessable } from '../shared/errors.js';
import { newId, randomBase62 } from '../shared/ids.js';
import type { DateRange, PageRequest } from '../shared/ports.js';
import { fail, ok, type Result } from '../shared/result.js';
import type {
  CreateItineraryInput,
  CreateItineraryItemInput,
  Itinerary,
  ItineraryItem,
  PublicItinerary,
  UpdateItineraryInput,
  UpdateItineraryItemInput,
} from './itinerary-schemas.js';
import type { ItineraryItemPatch, ItineraryRecord, OperationsDeps, OperationsStores } from './ports.js';
import { deleted, orNotFound, unknownRef } from './results.js';

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
  deps: OperationsDeps<'customers' | 'itineraries'>,
  workspaceId: string,
  input: CreateItineraryInput,
): Promise<Result<Itinerary>> {
  if (!(await deps.uow.stores.customers.findById(workspaceId, input.customerId))) {
    return fail(unknownRef('customer', 'customerId'));
  }
  const dates = checkDates(input.startsOn, input.endsOn);
  if (!dates.ok) return dates;
  const record = await deps.uow.stores.itineraries.insert({
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

export async function getItinerary(deps: OperationsDeps<'itineraries'>, workspaceId: string, id: string) {
  const record = await deps.uow.stores.itineraries.findById(workspaceId, id);
  if (!record) return fail(notFound('itinerary'));
  return ok(toItinerary(record, await deps.uow.stores.itineraries.listItems(workspaceId, id)));
}

export async function listItineraries(
  deps: OperationsDeps<'itineraries'>,
  workspaceId: string,
  filter: DateRange & { customerId?: string },
  page: PageRequest,
) {
  const found = await deps.uow.stores.itineraries.list(workspaceId, filter, page);
  return { ...found, items: found.items.map((record) => toItinerary(record)) };
}

export async function updateItinerary(
  deps: OperationsDeps<'bookings' | 'itineraries'>,
  workspaceId: string,
  id: string,
  input: UpdateItineraryInput,
): Promise<Result<Itinerary>> {
  const current = await deps.uow.stores.itineraries.findById(workspaceId, id);
  if (!current) return fail(notFound('itinerary'));
  const dates = checkDates(input.startsOn ?? current.startsOn, input.endsOn ?? current.endsOn);
  if (!dates.ok) return dates;
  await deps.uow.stores.itineraries.update(workspaceId, id, input);
  return getItinerary(deps, workspaceId, id);
}

/** Items fall within the trip's days; a linked booking must be the same traveller's. */
async function checkItem(
  stores: Pick<OperationsStores, 'bookings'>,
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
  deps: OperationsDeps<'bookings' | 'itineraries'>,
  workspaceId: string,
  itineraryId: string,
  input: CreateItineraryItemInput,
): Promise<Result<ItineraryItem>> {
  const itinerary = await deps.uow.stores.itineraries.findById(workspaceId, itineraryId);
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
  const checked = await checkItem(deps.uow.stores, itinerary, item);
  if (!checked.ok) return checked;
  return ok(await deps.uow.stores.itineraries.insertItem(workspaceId, item));
}

export async function updateItineraryItem(
  deps: OperationsDeps<'bookings' | 'itineraries'>,
  workspaceId: string,
  itineraryId: string,
  id: string,
  input: UpdateItineraryItemInput,
): Promise<Result<ItineraryItem>> {
  const itinerary = await deps.uow.stores.itineraries.findById(workspaceId, itineraryId);
  const current = itinerary ? await deps.uow.stores.itineraries.findItem(workspaceId, itineraryId, id) : null;
  if (!itinerary || !current) return fail(notFound('itinerary item'));
  const patch: ItineraryItemPatch = {
    ...input,
    ...(input.startsAt !== undefined && { startsAt: new Date(input.startsAt).toISOString() }),
    ...(input.endsAt !== undefined && { endsAt: isoOrNull(input.endsAt) }),
  };
  const checked = await checkItem(deps.uow.stores, itinerary, {
    startsAt: patch.startsAt ?? current.startsAt,
    endsAt: patch.endsAt === undefined ? current.endsAt : patch.endsAt,
    bookingId: patch.bookingId === undefined ? null : patch.bookingId,
  });
  if (!checked.ok) return checked;
  return orNotFound(
    await deps.uow.stores.itineraries.updateItem(workspaceId, itineraryId, id, patch),
    'itinerary item',
  );
}

export async function deleteItineraryItem(
  deps: OperationsDeps<'itineraries'>,
  workspaceId: string,
  itineraryId: string,
  id: string,
) {
  return deleted(
    id,
    await deps.uow.stores.itineraries.deleteItem(workspaceId, itineraryId, id),
    'itinerary item',
  );
}

/** The traveller's view by token: what they need for the trip, nothing internal. */
export async function getPublicItinerary(
  deps: OperationsDeps<'bookings' | 'customers' | 'itineraries'>,
  publicToken: string,
): Promise<Result<PublicItinerary>> {
  const itinerary = await deps.uow.stores.itineraries.findByPublicToken(publicToken);
  const customer = itinerary
    ? await deps.uow.stores.customers.findById(itinerary.workspaceId, itinerary.customerId)
    : null;
  if (!itinerary || !customer) return fail(notFound('itinerary'));
  const items = await deps.uow.stores.itineraries.listItems(itinerary.workspaceId, itinerary.id);
  const statuses = new Map<string, string>();
  for (const bookingId of new Set(items.flatMap((item) => (item.bookingId ? [item.bookingId] : [])))) {
    const booking = await deps.uow.stores.bookings.findById(itinerary.workspaceId, bookingId);
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
