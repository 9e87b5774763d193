import { notFound, unprocessable } from '../shared/errors.js';
import { fail, ok, type Result } from '../shared/result.js';
import type { CatalogDeps } from './ports.js';
import { planScheduleCancel } from './schedule-rules.js';
import type { ScheduleCancelled } from './schedule-schemas.js';

/**
 * Deletes the schedule: it becomes CANCELLED, and so do its future departures that have no
 * booking; booked ones stay open and are reported. Past departures are history and stay.
 */
export function cancelSchedule(
  deps: CatalogDeps<'schedules'>,
  workspaceId: string,
  tourId: string,
  id: string,
): Promise<Result<ScheduleCancelled>> {
  return deps.uow.transaction(async ({ stores }) => {
    const current = await stores.schedules.lock(workspaceId, tourId, id);
    if (!current) return fail(notFound('schedule'));
    if (current.status === 'CANCELLED') {
      return fail(unprocessable('The schedule is already deleted.', 'status', 'schedule_cancelled'));
    }
    const now = deps.clock.now();
    const departures = await stores.schedules.lockFutureDepartures(workspaceId, current.id, now);
    const plan = planScheduleCancel(departures);
    await stores.schedules.cancelDepartures(workspaceId, plan.cancel);
    const schedule = await stores.schedules.update(workspaceId, current.id, {
      status: 'CANCELLED',
      cancelledAt: now.toISOString(),
    });
    return ok({ ...schedule, departuresCancelled: plan.cancel.length, departuresLeft: plan.left });
  });
}
