import { notFound, unprocessable } from '../shared/errors.js';
import { fail, ok, type Result } from '../shared/result.js';
import type { CatalogDeps } from './ports.js';
import { assignScheduledKinds, checkScheduledResources } from './resource-assignment.js';
import {
  checkDeparturesToMake,
  checkScheduleRange,
  planScheduleChange,
  scheduleStarts,
} from './schedule-rules.js';
import type { ScheduleUpdated, UpdateScheduleInput } from './schedule-schemas.js';
import { ascending, generateDepartures, inWeekOrder, seatsOf } from './schedule-writes.js';

/**
 * Changes the schedule and brings its future departures in line with it: unbooked ones are
 * resized or deleted, missing starts are generated, and booked ones are left as they are
 * (and reported). The departures are locked before they are judged, so a booking racing
 * with the change either lands first (and its departure is left) or finds the change done.
 */
export function updateSchedule(
  deps: CatalogDeps<'tours' | 'schedules' | 'resources' | 'departures'>,
  workspaceId: string,
  tourId: string,
  id: string,
  input: UpdateScheduleInput,
): Promise<Result<ScheduleUpdated>> {
  return deps.uow.transaction(async ({ stores }) => {
    const current = await stores.schedules.lock(workspaceId, tourId, id);
    const tour = current && (await stores.tours.findById(workspaceId, tourId));
    if (!current || !tour) return fail(notFound('schedule'));
    if (current.status === 'CANCELLED') {
      return fail(unprocessable('A deleted schedule cannot change.', 'status', 'schedule_cancelled'));
    }
    const now = deps.clock.now();
    const next = {
      daysOfWeek: input.daysOfWeek ? inWeekOrder(input.daysOfWeek) : current.daysOfWeek,
      times: input.times ? ascending(input.times) : current.times,
      startsOn: input.startsOn ?? current.startsOn,
      endsOn: input.endsOn ?? current.endsOn,
      capacity: input.capacity === undefined ? current.capacity : input.capacity,
    };
    const range = checkScheduleRange(next, now, tour.timeZone);
    if (!range.ok) return range;

    const departures = await stores.schedules.lockFutureDepartures(workspaceId, current.id, now);
    const plan = planScheduleChange(
      departures,
      scheduleStarts(next, tour.timeZone, now),
      seatsOf(next, tour),
    );
    const size = checkDeparturesToMake(plan.create.length);
    if (!size.ok) return size;
    await stores.schedules.resizeDepartures(workspaceId, plan.resize, seatsOf(next, tour));
    await stores.schedules.removeDepartures(workspaceId, plan.remove);
    const created = await generateDepartures(stores.schedules, workspaceId, tour, current, plan.create);
    const exclusive = await checkScheduledResources(stores, workspaceId, tour);
    if (!exclusive.ok) return exclusive;
    if (created > 0) {
      // The ones this change made: not among the departures it found.
      const before = new Set(departures.map(({ departure }) => departure.id));
      const after = await stores.schedules.lockFutureDepartures(workspaceId, current.id, now);
      const made = after.map(({ departure }) => departure).filter((departure) => !before.has(departure.id));
      const kinds = await assignScheduledKinds(stores, workspaceId, tour, made);
      if (!kinds.ok) return kinds;
    }
    const schedule = await stores.schedules.update(workspaceId, current.id, next);
    return ok({
      ...schedule,
      departuresCreated: created,
      departuresUpdated: plan.resize.length,
      departuresRemoved: plan.remove.length,
      departuresLeft: plan.left,
    });
  });
}
