import { notFound } from '../shared/errors.js';
import { fail, ok, type Result } from '../shared/result.js';
import { type CalendarDay, calendarDays, calendarRange } from './calendar.js';
import { viewDepartures } from './departure-views.js';
import { addDays, localDateOf } from './local-time.js';
import type { CatalogDeps } from './ports.js';
import { type PublicDeparture, toPublicDeparture } from './public-departure.js';
import type { Tour } from './tour-schemas.js';

/** Public catalog: resolves the workspace by slug; unknown slugs are 404 like any other miss. */
async function publicWorkspace(deps: CatalogDeps<'workspaces'>, slug: string) {
  return deps.uow.stores.workspaces.findBySlug(slug);
}

export async function listPublicTours(
  deps: CatalogDeps<'tours' | 'workspaces'>,
  workspaceSlug: string,
): Promise<Result<Tour[]>> {
  const workspace = await publicWorkspace(deps, workspaceSlug);
  if (!workspace) return fail(notFound('workspace'));
  return ok(await deps.uow.stores.tours.listPublic(workspace.id));
}

/** A published tour by its public address: unknown slugs and unpublished tours are 404 alike. */
function findPublicTour(deps: CatalogDeps<'tours'>, workspaceSlug: string, tourSlug: string) {
  return deps.uow.stores.tours.findPublicBySlugs(workspaceSlug, tourSlug);
}

export async function getPublicTour(
  deps: CatalogDeps<'tours'>,
  workspaceSlug: string,
  tourSlug: string,
): Promise<Result<Tour>> {
  const found = await findPublicTour(deps, workspaceSlug, tourSlug);
  return found ? ok(found.tour) : fail(notFound('tour'));
}

export async function listPublicAvailability(
  deps: CatalogDeps<'availability' | 'blackoutDates' | 'tours'>,
  workspaceSlug: string,
  tourSlug: string,
  filter: { from?: string; to?: string },
): Promise<Result<PublicDeparture[]>> {
  const found = await findPublicTour(deps, workspaceSlug, tourSlug);
  if (!found) return fail(notFound('tour'));
  const now = deps.clock.now();
  const open = await deps.uow.stores.availability.listBookable(found.workspaceId, found.tour.id, filter, now);
  // The store keeps status, time and cutoff; blackout dates are the rule's to apply.
  const views = await viewDepartures(deps.uow.stores, found.workspaceId, open, now, [found.tour]);
  return ok(views.filter((departure) => departure.salesStatus !== 'CLOSED').map(toPublicDeparture));
}

/** Departures one calendar call reads at most: 27 a day for a year. */
const MAX_CALENDAR_DEPARTURES = 10_000;

/**
 * The public calendar of a published tour: one row per local day (the tour's time zone) of
 * the range, from one read of the tour, one of its bookable departures and one of its blackouts.
 */
export async function getPublicCalendar(
  deps: CatalogDeps<'availability' | 'blackoutDates' | 'tours'>,
  workspaceSlug: string,
  tourSlug: string,
  query: { from?: string; to?: string },
): Promise<Result<CalendarDay[]>> {
  const found = await findPublicTour(deps, workspaceSlug, tourSlug);
  if (!found) return fail(notFound('tour'));
  const { workspaceId, tour } = found;
  const now = deps.clock.now();
  const range = calendarRange(query, localDateOf(now, tour.timeZone));
  if (!range.ok) return range;
  // A local day lies within a day of its UTC date: one day more on each side covers every zone.
  const departures = await deps.uow.stores.availability.listCalendarDepartures(
    workspaceId,
    tour.id,
    { from: addDays(range.value.from, -1), to: addDays(range.value.to, 1) },
    now,
    MAX_CALENDAR_DEPARTURES,
  );
  const blackouts = await deps.uow.stores.blackoutDates.listApplying(workspaceId, tour.id, range.value);
  return ok(calendarDays(range.value, departures, tour, now, blackouts));
}
