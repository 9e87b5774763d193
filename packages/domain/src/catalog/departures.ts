import { unprocessable } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import type { Page, PageRequest } from '../shared/ports.js';
import { fail, ok, type Result } from '../shared/result.js';
import type { CreateDepartureInput, DepartureView } from './availability-schemas.js';
import { viewDeparture, viewDepartures } from './departure-views.js';
import type { CatalogDeps, DepartureFilter } from './ports.js';
import { chooseResources } from './resource-assignment.js';
import { checkDeparturePrices } from './ticket-types.js';

export async function createDeparture(
  deps: CatalogDeps<'departures' | 'blackoutDates' | 'tours' | 'resources'>,
  workspaceId: string,
  input: CreateDepartureInput,
): Promise<Result<DepartureView>> {
  const tour = await deps.uow.stores.tours.findById(workspaceId, input.tourId);
  if (!tour) return fail(unprocessable('No such tour in this workspace.', 'tourId', 'not_found'));
  const startsAt = new Date(input.startsAt);
  const bookingCutoffAt = input.bookingCutoffAt ? new Date(input.bookingCutoffAt) : null;
  if (bookingCutoffAt && bookingCutoffAt > startsAt) {
    return fail(
      unprocessable('The booking cutoff must not be after the start.', 'bookingCutoffAt', 'after_start'),
    );
  }
  const prices = checkDeparturePrices(tour, input.prices ?? []);
  if (!prices.ok) return prices;
  const id = newId('availability');
  const capacity = input.capacity ?? tour.capacity;
  const slot = { id, startsAt, durationMinutes: tour.durationMinutes, capacity };
  const resourceIds = await chooseResources(deps.uow.stores, workspaceId, tour, slot, input.resourceIds);
  if (!resourceIds.ok) return resourceIds;
  const departure = await deps.uow.stores.departures.insert(workspaceId, {
    id,
    tourId: tour.id,
    startsAt,
    capacity,
    status: input.status ?? 'SCHEDULED',
    bookingCutoffAt,
    prices: prices.value,
    resourceIds: resourceIds.value,
  });
  // Its seats on shared resources are counted over the other departures: read once it is there.
  const seated =
    departure.resourceIds.length > 0
      ? ((await deps.uow.stores.departures.findById(workspaceId, id)) ?? departure)
      : departure;
  return ok(await viewDeparture(deps.uow.stores, workspaceId, seated, deps.clock.now(), tour));
}

/** A page of departures by start time, each with its `salesStatus` (two more reads per page, not per row). */
export async function listDepartures(
  deps: CatalogDeps<'departures' | 'blackoutDates' | 'tours'>,
  workspaceId: string,
  filter: DepartureFilter,
  page: PageRequest,
): Promise<Page<DepartureView>> {
  const listed = await deps.uow.stores.departures.list(workspaceId, filter, page);
  const now = deps.clock.now();
  return { ...listed, items: await viewDepartures(deps.uow.stores, workspaceId, listed.items, now) };
}
