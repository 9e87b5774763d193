import { notFound } from '../shared/errors.js';
import { fail, ok, type Result } from '../shared/result.js';
import type { Availability } from './availability-schemas.js';
import { isBookable } from './departure-rules.js';
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
  const blackouts = await deps.uow.stores.blackoutDates.listApplying(
    found.workspace.id,
    found.tour.id,
    filter,
  );
  return ok(open.filter((departure) => isBookable(departure, now, blackouts)).map(toPublicDeparture));
}
