import { notFound } from '../shared/errors.js';
import { fail, ok, type Result } from '../shared/result.js';
import type { CatalogDeps } from './ports.js';
import type { Schedule } from './schedule-schemas.js';

export async function getSchedule(
  deps: CatalogDeps<'schedules'>,
  workspaceId: string,
  tourId: string,
  id: string,
): Promise<Result<Schedule>> {
  const schedule = await deps.uow.stores.schedules.findById(workspaceId, tourId, id);
  return schedule ? ok(schedule) : fail(notFound('schedule'));
}
