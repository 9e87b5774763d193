import * as v from 'valibot';
import { DateSchema, DateTimeSchema } from '../shared/schemas.js';

export const DAYS_OF_WEEK = ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'] as const;
export type DayOfWeek = (typeof DAYS_OF_WEEK)[number];

const SCHEDULE_STATUSES = ['ACTIVE', 'CANCELLED'] as const;

/** How many local start times one schedule may have in a day. */
const MAX_TIMES = 24;

const capacity = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(10_000));

/** A local time of day, 24 h: `09:00`, `14:30`, `23:59`. */
const LocalTimeSchema = v.pipe(v.string(), v.regex(/^(?:[01]\d|2[0-3]):[0-5]\d$/, 'invalid_time'));

/** Each repeated item is reported at its own index (`times[2]`, issue `duplicate`). */
const noDuplicates = <T>() =>
  v.rawCheck<T[]>(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const seen = new Set<T>();
    dataset.value.forEach((item, index) => {
      if (seen.has(item)) {
        addIssue({
          message: 'duplicate',
          path: [{ type: 'array', origin: 'value', input: dataset.value, key: index, value: item }],
        });
      }
      seen.add(item);
    });
  });

const DaysOfWeekInputSchema = v.pipe(
  v.array(v.picklist(DAYS_OF_WEEK)),
  v.minLength(1),
  v.maxLength(DAYS_OF_WEEK.length),
  noDuplicates<DayOfWeek>(),
);

const TimesInputSchema = v.pipe(
  v.array(LocalTimeSchema),
  v.minLength(1),
  v.maxLength(MAX_TIMES),
  noDuplicates<string>(),
);

/**
 * A rule that generates departures: every `times` (local, in the tour's `timeZone`) of every
 * `daysOfWeek` from `startsOn` to `endsOn`, both inclusive.
 */
export const ScheduleSchema = v.object({
  id: v.string(),
  tourId: v.string(),
  daysOfWeek: v.array(v.picklist(DAYS_OF_WEEK)),
  /** Local times of day, `HH:MM` 24 h, in the tour's time zone, ascending. */
  times: v.array(v.string()),
  startsOn: DateSchema,
  endsOn: DateSchema,
  /** Seats of each generated departure; null: the tour's capacity. */
  capacity: v.nullable(v.number()),
  /** CANCELLED once deleted: its future unbooked departures were cancelled. */
  status: v.picklist(SCHEDULE_STATUSES),
  cancelledAt: v.nullable(DateTimeSchema),
  createdAt: DateTimeSchema,
  updatedAt: DateTimeSchema,
});
export type Schedule = v.InferOutput<typeof ScheduleSchema>;

const SCHEDULE_EXAMPLE: Schedule = {
  id: 'sch_4sV7hQ2mZ8pR1xK9tW3bYc',
  tourId: 'tour_9fJ2kL5nP8qR1sT4uV7wXy',
  daysOfWeek: ['MON', 'WED', 'SAT'],
  times: ['09:00', '14:30'],
  startsOn: '2026-04-01',
  endsOn: '2026-09-30',
  capacity: 16,
  status: 'ACTIVE',
  cancelledAt: null,
  createdAt: '2026-03-20T10:00:00.000Z',
  updatedAt: '2026-03-20T10:00:00.000Z',
};

export const CreateScheduleSchema = v.pipe(
  v.strictObject({
    daysOfWeek: DaysOfWeekInputSchema,
    times: TimesInputSchema,
    startsOn: DateSchema,
    /** At most 18 months after today (in the tour's time zone). */
    endsOn: DateSchema,
    capacity: v.optional(capacity),
  }),
  v.forward(
    v.partialCheck(
      [['startsOn'], ['endsOn']],
      // A day that does not exist has its own issue; comparing it would add a second.
      (s) => !v.is(DateSchema, s.startsOn) || !v.is(DateSchema, s.endsOn) || s.startsOn <= s.endsOn,
      'before_starts_on',
    ),
    ['endsOn'],
  ),
  v.examples([
    {
      daysOfWeek: ['MON', 'WED', 'SAT'],
      times: ['09:00', '14:30'],
      startsOn: '2026-04-01',
      endsOn: '2026-09-30',
    },
  ]),
);
export type CreateScheduleInput = v.InferOutput<typeof CreateScheduleSchema>;

/** Every field optional; what is sent replaces the schedule's own. `capacity: null` follows the tour's. */
export const UpdateScheduleSchema = v.pipe(
  v.strictObject({
    daysOfWeek: v.optional(DaysOfWeekInputSchema),
    times: v.optional(TimesInputSchema),
    startsOn: v.optional(DateSchema),
    endsOn: v.optional(DateSchema),
    capacity: v.optional(v.nullable(capacity)),
  }),
  v.examples([{ times: ['10:00', '15:00'], capacity: 12 }]),
);
export type UpdateScheduleInput = v.InferOutput<typeof UpdateScheduleSchema>;

/** POST answer: the schedule, and how many departures it made. */
export const ScheduleCreatedSchema = v.pipe(
  v.object({
    ...ScheduleSchema.entries,
    /** Departures made: the starts the schedule describes after now, less those the tour already had. */
    departuresCreated: v.number(),
  }),
  v.examples([{ ...SCHEDULE_EXAMPLE, departuresCreated: 156 }]),
);
export type ScheduleCreated = v.InferOutput<typeof ScheduleCreatedSchema>;

/** PATCH answer: the schedule, what happened to its future departures, and those left as they were. */
export const ScheduleUpdatedSchema = v.pipe(
  v.object({
    ...ScheduleSchema.entries,
    departuresCreated: v.number(),
    /** Unbooked departures whose capacity changed. */
    departuresUpdated: v.number(),
    /** Unbooked departures the new pattern no longer describes, deleted. */
    departuresRemoved: v.number(),
    /** Departures the change would have moved, resized or removed, left as they were because they have bookings. */
    departuresLeft: v.array(v.string()),
  }),
  v.examples([
    {
      ...SCHEDULE_EXAMPLE,
      times: ['10:00', '15:00'],
      capacity: 12,
      updatedAt: '2026-03-21T08:00:00.000Z',
      departuresCreated: 150,
      departuresUpdated: 0,
      departuresRemoved: 150,
      departuresLeft: ['avl_2bN6cM9dK3fH7gJ1hL5kQz', 'avl_8xW4vT1sR7qP3nM6kJ9hGf'],
    },
  ]),
);
export type ScheduleUpdated = v.InferOutput<typeof ScheduleUpdatedSchema>;

/** DELETE answer: the schedule (CANCELLED), how many departures were cancelled, those left. */
export const ScheduleCancelledSchema = v.pipe(
  v.object({
    ...ScheduleSchema.entries,
    /** Future departures without bookings, now CANCELLED. */
    departuresCancelled: v.number(),
    /** Future departures left open because they have bookings. */
    departuresLeft: v.array(v.string()),
  }),
  v.examples([
    {
      ...SCHEDULE_EXAMPLE,
      status: 'CANCELLED',
      cancelledAt: '2026-05-02T09:00:00.000Z',
      updatedAt: '2026-05-02T09:00:00.000Z',
      departuresCancelled: 98,
      departuresLeft: ['avl_2bN6cM9dK3fH7gJ1hL5kQz'],
    },
  ]),
);
export type ScheduleCancelled = v.InferOutput<typeof ScheduleCancelledSchema>;
