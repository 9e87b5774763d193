import type { BlackoutDateStore } from '../operations/index.js';
import type { Departure, DepartureView } from './availability-schemas.js';
import { localDateOf } from './local-time.js';
import type { TourStore } from './ports.js';
import { withSalesStatus } from './sales-status.js';
import type { Tour } from './tour-schemas.js';

/** What adding `salesStatus` reads: the tours' time zones and the blackouts of their days. */
export interface DepartureViewStores {
  tours: TourStore;
  blackoutDates: BlackoutDateStore;
}

/**
 * Departures as the API answers them, each with its `salesStatus` at `now`. Batched, however
 * many departures: one read of the tours not `known` (for their time zones) and one of the
 * blackouts on the departures' local days.
 */
export async function viewDepartures(
  stores: DepartureViewStores,
  workspaceId: string,
  departures: readonly Departure[],
  now: Date,
  known: readonly Pick<Tour, 'id' | 'timeZone'>[] = [],
): Promise<DepartureView[]> {
  if (departures.length === 0) return [];
  const zones = new Map(known.map((tour) => [tour.id, tour.timeZone]));
  const missing = [...new Set(departures.map((d) => d.tourId))].filter((id) => !zones.has(id));
  if (missing.length > 0) {
    for (const tour of await stores.tours.findByIds(workspaceId, missing)) zones.set(tour.id, tour.timeZone);
  }
  // Every departure has its tour (a foreign key); UTC only guards a row read mid-migration.
  const zoneOf = (departure: Departure) => zones.get(departure.tourId) ?? 'UTC';
  const days = [...new Set(departures.map((d) => localDateOf(new Date(d.startsAt), zoneOf(d))))];
  const blackouts = await stores.blackoutDates.listOnDays(workspaceId, days);
  return departures.map((d) => withSalesStatus(d, now, blackouts, zoneOf(d)));
}

/** One departure as the API answers it (see `viewDepartures`). */
export async function viewDeparture(
  stores: DepartureViewStores,
  workspaceId: string,
  departure: Departure,
  now: Date,
  tour?: Pick<Tour, 'id' | 'timeZone'>,
): Promise<DepartureView> {
  const [view] = await viewDepartures(stores, workspaceId, [departure], now, tour ? [tour] : []);
  return view as DepartureView;
}
