import { viewDeparture } from '../catalog/index.js';
import { notFound } from '../shared/errors.js';
import { fail, ok, type Result } from '../shared/result.js';
import { buildManifest, type DepartureManifest } from './manifest.js';
import type { OperationsDeps } from './ports.js';

/**
 * The manifest of a departure: the departure (with its sales status), participants per ticket
 * type, and every booking not CANCELLED with its participants and its customer's contact.
 * Five reads, whatever the number of bookings.
 */
export async function getDepartureManifest(
  deps: OperationsDeps<'departures' | 'blackoutDates' | 'bookings' | 'customers' | 'tours'>,
  workspaceId: string,
  availabilityId: string,
): Promise<Result<DepartureManifest>> {
  const { stores } = deps.uow;
  const departure = await stores.departures.findById(workspaceId, availabilityId);
  const tour = departure ? await stores.tours.findById(workspaceId, departure.tourId) : null;
  if (!departure || !tour) return fail(notFound('availability'));
  const bookings = await stores.bookings.listByDeparture(workspaceId, departure.id);
  const customers = await stores.customers.findByIds(workspaceId, [
    ...new Set(bookings.map((booking) => booking.customerId)),
  ]);
  const view = await viewDeparture(stores, workspaceId, departure, deps.clock.now(), tour);
  return ok(buildManifest(view, tour, bookings, customers));
}
