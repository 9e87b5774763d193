import type { Departure } from './availability-schemas.js';
import { localDateTime } from './local-time.js';
import type { TourStore } from './ports.js';

/** How a message names a departure to a person: its tour and its local day and time. */
export type DepartureNamer = (departure: Pick<Departure, 'id' | 'tourId' | 'startsAt'>) => string;

/**
 * Names departures by their tour and local time ("Sunset cruise on 2031-05-01 at 18:00
 * Europe/Lisbon"), reading their tours once; an id and UTC only for a tour not found.
 */
export async function departureNamer(
  tours: Pick<TourStore, 'findByIds'>,
  workspaceId: string,
  departures: readonly Pick<Departure, 'tourId'>[],
): Promise<DepartureNamer> {
  const ids = [...new Set(departures.map((d) => d.tourId))];
  const found = ids.length > 0 ? await tours.findByIds(workspaceId, ids) : [];
  const byId = new Map(found.map((tour) => [tour.id, tour]));
  return (departure) => {
    const tour = byId.get(departure.tourId);
    if (!tour) return `departure ${departure.id} starting ${departure.startsAt}`;
    const { date, time } = localDateTime(departure.startsAt, tour.timeZone);
    return `${tour.name} on ${date} at ${time} ${tour.timeZone}`;
  };
}
