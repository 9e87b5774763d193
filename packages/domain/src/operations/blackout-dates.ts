import { newId } from '../shared/ids.js';
import type { DateRange, PageRequest } from '../shared/ports.js';
import { fail, type Result } from '../shared/result.js';
import type { OperationsDeps } from './ports.js';
import { deleted, unknownRef } from './results.js';
import type { BlackoutDate, CreateBlackoutDateInput } from './schemas.js';

// ---- Blackout dates -------------------------------------------------------------------------

export async function createBlackoutDate(
  deps: OperationsDeps<'blackoutDates' | 'tours'>,
  workspaceId: string,
  input: CreateBlackoutDateInput,
): Promise<Result<BlackoutDate>> {
  const tourId = input.tourId ?? null;
  if (tourId && !(await deps.uow.stores.tours.findById(workspaceId, tourId))) {
    return fail(unknownRef('tour', 'tourId'));
  }
  return deps.uow.stores.blackoutDates.insert(workspaceId, {
    id: newId('blackoutDate'),
    tourId,
    date: input.date,
    reason: input.reason ?? null,
  });
}

export function listBlackoutDates(
  deps: OperationsDeps<'blackoutDates'>,
  workspaceId: string,
  filter: DateRange & { tourId?: string },
  page: PageRequest,
) {
  return deps.uow.stores.blackoutDates.list(workspaceId, filter, page);
}

export async function deleteBlackoutDate(
  deps: OperationsDeps<'blackoutDates'>,
  workspaceId: string,
  id: string,
) {
  return deleted(id, await deps.uow.stores.blackoutDates.delete(workspaceId, id), 'blackout date');
}
