import { notFound } from '../shared/errors.js';
import type { Page, PageRequest } from '../shared/ports.js';
import { fail, ok, type Result } from '../shared/result.js';
import type { CatalogDeps } from './ports.js';
import type { Schedule } from './schedule-schemas.js';

/** The tour's schedules, newest first, cancelled ones included (they say so in `status`). */
export async function listSchedules(
  deps: CatalogDeps<'tours' | 'schedules'>,
  workspaceId: string,
  tourId: string,
  page: PageRequest,
): Promise<Result<Page<Schedule>>> {
  const tour = await deps.uow.stores.tours.findById(workspaceId, tourId);
  if (!tour) return fail(notFound('tour'));
  return ok(await deps.uow.stores.schedules.list(workspaceId, tourId, page));
}
