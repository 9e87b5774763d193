import { unprocessable } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import type { PageRequest } from '../shared/ports.js';
import { fail, ok, type Result } from '../shared/result.js';
import type { Availability, CreateAvailabilityInput } from './availability-schemas.js';
import type { AvailabilityFilter, CatalogDeps } from './ports.js';
import { checkDeparturePrices } from './ticket-types.js';

export async function createAvailability(
  deps: CatalogDeps<'availability' | 'tours'>,
  workspaceId: string,
  input: CreateAvailabilityInput,
): Promise<Result<Availability>> {
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
  const departure = await deps.uow.stores.availability.insert(workspaceId, {
    id: newId('availability'),
    tourId: tour.id,
    startsAt,
    capacity: input.capacity ?? tour.capacity,
    status: input.status ?? 'SCHEDULED',
    bookingCutoffAt,
    prices: prices.value,
  });
  return ok(departure);
}

export function listAvailability(
  deps: CatalogDeps<'availability'>,
  workspaceId: string,
  filter: AvailabilityFilter,
  page: PageRequest,
) {
  return deps.uow.stores.availability.list(workspaceId, filter, page);
}
