import { addDays, type Departure, localTimeToUtc, type Resource, type Tour } from '../catalog/index.js';
import type { Page, PageRequest } from '../shared/ports.js';
import { ok, type Result } from '../shared/result.js';
import type { OperationsDeps } from './ports.js';
import { type Interval, overlaps } from './rules.js';
import type { ResourceCalendar } from './schemas.js';

const MINUTE = 60_000;
/** Rows read per list at most: a day's timeline of a workspace, not its year. */
const MAX_PAGES = 20;

async function readAll<T>(read: (page: PageRequest) => Promise<Page<T>>): Promise<T[]> {
  const all: T[] = [];
  let after: PageRequest['after'] = null;
  for (let i = 0; i < MAX_PAGES; i++) {
    const page = await read({ limit: 100, after });
    all.push(...page.items);
    if (!page.next) break;
    after = page.next;
  }
  return all;
}

const intervalOf = (d: Departure, tour: Tour | undefined, extraMinutes = 0): Interval => {
  const start = new Date(d.startsAt);
  return { start, end: new Date(start.getTime() + ((tour?.durationMinutes ?? 0) + extraMinutes) * MINUTE) };
};

/**
 * One local day at a glance: per resource and per guide, the departures (not cancelled) that
 * overlap it and the guides' time off, with seats used and total and conflicts marked. Reads
 * a few lists, whatever the number of departures.
 */
export async function getResourceCalendar(
  deps: OperationsDeps<'departures' | 'tours' | 'resources' | 'guides' | 'timeOff'>,
  workspaceId: string,
  query: { date: string; timeZone?: string },
): Promise<Result<ResourceCalendar>> {
  const { stores } = deps.uow;
  const timeZone = query.timeZone ?? 'UTC';
  const day: Interval = {
    start: localTimeToUtc(query.date, '00:00', timeZone),
    end: localTimeToUtc(addDays(query.date, 1), '00:00', timeZone),
  };
  // Departures starting from the day before (a long one may run into this day) to its end.
  const from = addDays(day.start.toISOString().slice(0, 10), -1);
  const to = day.end.toISOString().slice(0, 10);
  const [listed, resources, guides] = await Promise.all([
    readAll((page) => stores.departures.list(workspaceId, { from, to }, page)),
    readAll((page) => stores.resources.list(workspaceId, {}, page)),
    readAll((page) => stores.guides.list(workspaceId, { activeOnly: true }, page)),
  ]);
  const departures = listed.filter((d) => d.status !== 'CANCELLED');
  const tourIds = [...new Set(departures.map((d) => d.tourId))];
  const tours = new Map(
    (tourIds.length ? await stores.tours.findByIds(workspaceId, tourIds) : []).map((t) => [t.id, t]),
  );
  const row = (d: Departure) => {
    const tour = tours.get(d.tourId);
    const { start, end } = intervalOf(d, tour);
    return {
      availabilityId: d.id,
      tourId: d.tourId,
      tourName: tour?.name ?? '',
      startsAt: start.toISOString(),
      endsAt: end.toISOString(),
      bookedSeats: d.bookedSeats,
      capacity: d.capacity,
    };
  };
  const today = (d: Departure) => overlaps(intervalOf(d, tours.get(d.tourId)), day);

  const resourceRows = resources.map((resource: Resource) => {
    const on = departures.filter((d) => d.resourceIds.includes(resource.id));
    const span = (d: Departure) => intervalOf(d, tours.get(d.tourId), resource.turnaroundMinutes);
    return {
      resourceId: resource.id,
      name: resource.name,
      kind: resource.kind,
      sharing: resource.sharing,
      seatsTotal: resource.seats,
      departures: on.filter(today).map((d) => {
        const around = on.filter((o) => overlaps(span(o), span(d)));
        const seatsUsed = around.reduce((sum, o) => sum + o.bookedSeats, 0);
        const conflict =
          resource.sharing === 'EXCLUSIVE' ? around.length > 1 : seatsUsed > (resource.seats ?? Infinity);
        return { ...row(d), seatsUsed, conflict };
      }),
    };
  });

  const guideRows = [];
  for (const guide of guides) {
    const on = departures.filter((d) => d.guideId === guide.memberId || d.driverId === guide.memberId);
    const timeOff = await stores.timeOff.findOverlapping(workspaceId, guide.memberId, day.start, day.end);
    const busy = (d: Departure) =>
      on.some(
        (o) =>
          o.id !== d.id && overlaps(intervalOf(o, tours.get(o.tourId)), intervalOf(d, tours.get(d.tourId))),
      ) ||
      timeOff.some((off) =>
        overlaps(
          { start: new Date(off.startsAt), end: new Date(off.endsAt) },
          intervalOf(d, tours.get(d.tourId)),
        ),
      );
    guideRows.push({
      memberId: guide.memberId,
      displayName: guide.displayName,
      departures: on.filter(today).map((d) => ({
        ...row(d),
        role: d.guideId === guide.memberId ? ('GUIDE' as const) : ('DRIVER' as const),
        conflict: busy(d),
      })),
      timeOff,
    });
  }
  return ok({ date: query.date, timeZone, resources: resourceRows, guides: guideRows });
}
