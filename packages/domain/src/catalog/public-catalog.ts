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

async function findPublicTour(
  deps: CatalogDeps<'workspaces' | 'tours'>,
  workspaceSlug: string,
  tourSlug: string,
) {
  const workspace = await publicWorkspace(deps, workspaceSlug);
  const tour = workspace ? await deps.uow.stores.tours.findBySlug(workspace.id, tourSlug) : null;
  return workspace && tour?.isPublic ? { workspace, tour } : null;
}

export async function getPublicTour(
  deps: CatalogDeps<'tours' | 'workspaces'>,
  workspaceSlug: string,
  tourSlug: string,
): Promise<Result<Tour>> {
  const found = await findPublicTour(deps, workspaceSlug, tourSlug);
  return found ? ok(found.tour) : fail(notFound('tour'));
}

export async function listPublicAvailability(
  deps: CatalogDeps<'availability' | 'blackoutDates' | 'tours' | 'workspaces'>,
  workspaceSlug: string,
  tourSlug: string,
  filter: { from?: string; to?: string },
): Promise<Result<PublicDeparture[]>> {
  const found = await findPublicTour(deps, workspaceSlug, tourSlug);
  if (!found) return fail(notFound('tour'));
  const now = deps.clock.now();
  const open = await deps.uow.stores.availability.listBookable(
    found.workspace.id,
    found.tour.id,
    filter,
    now,
  );
  // The store keeps status, time and cutoff; blackout dates are the rule's to apply.
  const views = await viewDepartures(deps.uow.stores, found.workspace.id, open, now, [found.tour]);
  return ok(views.filter((departure) => departure.salesStatus !== 'CLOSED').map(toPublicDeparture));
}

/** Departures one calendar call reads at most: 27 a day for a year. */
const MAX_CALENDAR_DEPARTURES = 10_000;

/**
 * The public calendar of a published tour: one row per local day (the tour's time zone) of
 * the range, from one read of its bookable departures and one of its blackouts.
 */
export async function getPublicCalendar(
  deps: CatalogDeps<'availability' | 'blackoutDates' | 'tours' | 'workspaces'>,
  workspaceSlug: string,
  tourSlug: string,
  query: { from?: string; to?: string },
): Promise<Result<CalendarDay[]>> {
  const found = await findPublicTour(deps, workspaceSlug, tourSlug);
  if (!found) return fail(notFound('tour'));
  const { workspace, tour } = found;
  const now = deps.clock.now();
  const range = calendarRange(query, localDateOf(now, tour.timeZone));
  if (!range.ok) return range;
  // A local day lies within a day of its UTC date: one day more on each side covers every zone.
  const departures = await deps.uow.stores.availability.listBookable(
    workspace.id,
    tour.id,
    { from: addDays(range.value.from, -1), to: addDays(range.value.to, 1) },
    now,
    MAX_CALENDAR_DEPARTURES,
  );
  const blackouts = await deps.uow.stores.blackoutDates.listApplying(workspace.id, tour.id, range.value);
  return ok(calendarDays(range.value, departures, tour, now, blackouts));
}
