import { newId } from '../shared/ids.js';
import type { NewDeparture, ScheduleStore } from './ports.js';
import { DAYS_OF_WEEK, type DayOfWeek, type Schedule } from './schedule-schemas.js';
import type { Tour } from './tour-schemas.js';

/** Days in week order (MON first) and times ascending, as a schedule shows them. */
export const inWeekOrder = (days: readonly DayOfWeek[]): DayOfWeek[] =>
  DAYS_OF_WEEK.filter((day) => days.includes(day));

export const ascending = (times: readonly string[]): string[] => [...times].sort();

/** The seats of each departure of the schedule: its own capacity, else the tour's. */
export const seatsOf = (schedule: Pick<Schedule, 'capacity'>, tour: Pick<Tour, 'capacity'>): number =>
  schedule.capacity ?? tour.capacity;

/**
 * Inserts a SCHEDULED departure of the schedule at each start, on the resources the tour's
 * requirements name (those by kind are chosen next, departure by departure:
 * `assignScheduledKinds`); returns how many were made.
 */
export function generateDepartures(
  schedules: ScheduleStore,
  workspaceId: string,
  tour: Pick<Tour, 'id' | 'capacity' | 'resourceRequirements'>,
  schedule: Pick<Schedule, 'id' | 'capacity'>,
  starts: readonly Date[],
): Promise<number> {
  const capacity = seatsOf(schedule, tour);
  const resourceIds = [
    ...new Set(tour.resourceRequirements.flatMap((r) => ('resourceId' in r ? [r.resourceId] : []))),
  ];
  const departures = starts.map(
    (startsAt): NewDeparture => ({
      id: newId('availability'),
      tourId: tour.id,
      startsAt,
      capacity,
      status: 'SCHEDULED',
      bookingCutoffAt: null,
      scheduleId: schedule.id,
      resourceIds,
    }),
  );
  return schedules.insertDepartures(workspaceId, tour.id, departures);
}
