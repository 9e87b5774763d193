import { notFound } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import { fail, ok, type Result } from '../shared/result.js';
import { localDateOf } from './local-time.js';
import type { CatalogDeps } from './ports.js';
import { assignScheduledKinds, checkScheduledResources } from './resource-assignment.js';
import {
  checkActiveSchedules,
  checkDeparturesToMake,
  checkScheduleRange,
  scheduleStarts,
} from './schedule-rules.js';
import type { CreateScheduleInput, ScheduleCreated } from './schedule-schemas.js';
import { ascending, generateDepartures, inWeekOrder } from './schedule-writes.js';

/**
 * Saves the schedule and, in the same transaction, makes every departure it describes after
 * now (local times in the tour's time zone). A start the tour already departs at is skipped.
 * Bounded: at most 2 000 departures per request and 20 active schedules per tour, the second
 * counted under the tour's lock.
 */
export function createSchedule(
  deps: CatalogDeps<'tours' | 'schedules' | 'resources' | 'departures'>,
  workspaceId: string,
  tourId: string,
  input: CreateScheduleInput,
): Promise<Result<ScheduleCreated>> {
  return deps.uow.transaction(async ({ stores }) => {
    const tour = await stores.tours.findById(workspaceId, tourId);
    if (!tour) return fail(notFound('tour'));
    const now = deps.clock.now();
    const range = checkScheduleRange(input, now, tour.timeZone);
    if (!range.ok) return range;
    const starts = scheduleStarts(input, tour.timeZone, now);
    const size = checkDeparturesToMake(starts.length);
    if (!size.ok) return size;
    const active = checkActiveSchedules(
      await stores.schedules.lockAndCountActive(workspaceId, tour.id, localDateOf(now, tour.timeZone)),
    );
    if (!active.ok) return active;
    const schedule = await stores.schedules.insert(workspaceId, {
      id: newId('schedule'),
      tourId: tour.id,
      daysOfWeek: inWeekOrder(input.daysOfWeek),
      times: ascending(input.times),
      startsOn: input.startsOn,
      endsOn: input.endsOn,
      capacity: input.capacity ?? null,
    });
    const departuresCreated = await generateDepartures(stores.schedules, workspaceId, tour, schedule, starts);
    const exclusive = await checkScheduledResources(stores, workspaceId, tour);
    if (!exclusive.ok) return exclusive;
    // Every future departure of a new schedule is one it just made.
    const made = await stores.schedules.lockFutureDepartures(workspaceId, schedule.id, now);
    const kinds = await assignScheduledKinds(
      stores,
      workspaceId,
      tour,
      made.map(({ departure }) => departure),
    );
    if (!kinds.ok) return kinds;
    return ok({ ...schedule, departuresCreated });
  });
}
