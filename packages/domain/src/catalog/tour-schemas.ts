import * as v from 'valibot';
import { AGE_BANDS } from '../shared/enums.js';
import {
  AmountSchema,
  CurrencySchema,
  DateTimeSchema,
  requiredText,
  SlugSchema,
  text,
} from '../shared/schemas.js';
import { ResourceRequirementSchema, ResourceRequirementsInputSchema } from './resource-schemas.js';

const capacity = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(10_000));
const durationMinutes = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(60 * 24 * 60));
const depositPercent = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(100));

export const TourAddOnSchema = v.object({
  id: v.string(),
  name: v.string(),
  price: v.number(),
});
export type TourAddOn = v.InferOutput<typeof TourAddOnSchema>;

/** Add-ons a tour sells; a PATCH replaces the whole list. Ids are the operator's own keys. */
const TourAddOnsInputSchema = v.pipe(
  v.array(
    v.strictObject({
      id: v.pipe(v.string(), v.maxLength(50), v.regex(/^[A-Za-z0-9_-]+$/, 'invalid_id')),
      name: requiredText(200),
      price: AmountSchema,
    }),
  ),
  v.maxLength(50),
  v.check((list) => new Set(list.map((a) => a.id)).size === list.length, 'duplicate_id'),
);

const age = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(120));
const perBooking = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(100));

/** A way to buy a seat on the tour: a band, a price and the rules of the band. */
export const TicketTypeSchema = v.object({
  id: v.string(),
  name: v.string(),
  ageBand: v.picklist(AGE_BANDS),
  /** Minor units of the tour's currency; a departure may override it (`prices`). */
  price: v.number(),
  minAge: v.nullable(v.number()),
  maxAge: v.nullable(v.number()),
  minPerBooking: v.nullable(v.number()),
  maxPerBooking: v.nullable(v.number()),
  /** A booking with this type needs at least one ADULT or SENIOR participant. */
  requiresAdult: v.boolean(),
});
export type TicketType = v.InferOutput<typeof TicketTypeSchema>;

/** One ticket type as sent on POST or PATCH of a tour; with `id`, an existing type is kept and changed. */
export const TicketTypeInputSchema = v.pipe(
  v.strictObject({
    id: v.optional(v.pipe(v.string(), v.maxLength(100))),
    name: requiredText(200),
    ageBand: v.picklist(AGE_BANDS),
    price: AmountSchema,
    minAge: v.optional(v.nullable(age)),
    maxAge: v.optional(v.nullable(age)),
    minPerBooking: v.optional(v.nullable(perBooking)),
    maxPerBooking: v.optional(v.nullable(perBooking)),
    requiresAdult: v.optional(v.boolean()),
  }),
  v.forward(
    v.check((t) => t.minAge == null || t.maxAge == null || t.minAge <= t.maxAge, 'below_min_age'),
    ['maxAge'],
  ),
  v.forward(
    v.check(
      (t) => t.minPerBooking == null || t.maxPerBooking == null || t.minPerBooking <= t.maxPerBooking,
      'below_min_per_booking',
    ),
    ['maxPerBooking'],
  ),
);
export type TicketTypeInput = v.InferOutput<typeof TicketTypeInputSchema>;

/** The whole list of a tour's ticket types; a PATCH replaces it (types left out are removed). */
const TicketTypesInputSchema = v.pipe(
  v.array(TicketTypeInputSchema),
  v.maxLength(20),
  v.check((list) => {
    const ids = list.flatMap((t) => (t.id ? [t.id] : []));
    return new Set(ids).size === ids.length;
  }, 'duplicate_id'),
);

/** True when the runtime knows the IANA time zone (`Europe/Berlin`); `UTC` always. */
function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

export const TimeZoneSchema = v.pipe(v.string(), v.maxLength(64), v.check(isTimeZone, 'invalid_time_zone'));

const CANCELLATION_REFUNDS = ['FULL', 'PARTIAL', 'NONE'] as const;

/** What a guest may do: cancel until `cutoffHours` before the start, with the refund it names. */
export const CancellationPolicySchema = v.object({
  cutoffHours: v.number(),
  refund: v.picklist(CANCELLATION_REFUNDS),
  refundPercent: v.nullable(v.number()),
});
export type CancellationPolicy = v.InferOutput<typeof CancellationPolicySchema>;

export const CancellationPolicyInputSchema = v.pipe(
  v.strictObject({
    cutoffHours: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(24 * 365)),
    refund: v.picklist(CANCELLATION_REFUNDS),
    refundPercent: v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(100)))),
  }),
  v.forward(
    v.check((p) => p.refund !== 'PARTIAL' || p.refundPercent != null, 'required'),
    ['refundPercent'],
  ),
);
export type CancellationPolicyInput = v.InferOutput<typeof CancellationPolicyInputSchema>;

/** A tour without a policy of its own: guests cancel up to 24 hours before, fully refunded. */
export const DEFAULT_CANCELLATION_POLICY: CancellationPolicy = {
  cutoffHours: 24,
  refund: 'FULL',
  refundPercent: null,
};

export const TourSchema = v.object({
  id: v.string(),
  slug: v.string(),
  name: v.string(),
  description: v.string(),
  durationMinutes: v.number(),
  basePrice: v.number(),
  currency: v.string(),
  capacity: v.number(),
  meetingPoint: v.nullable(v.string()),
  isPublic: v.boolean(),
  depositPercent: v.number(),
  addOns: v.array(TourAddOnSchema),
  createdAt: DateTimeSchema,
  updatedAt: DateTimeSchema,
  // Additive fields (ticket types).
  /** IANA name; schedules and the public calendar read local times in it. */
  timeZone: v.string(),
  /** Empty: every participant is one ADULT seat at `basePrice`, as before ticket types. */
  ticketTypes: v.array(TicketTypeSchema),
  cancellationPolicy: CancellationPolicySchema,
  /** Guests (public bookings) may hold at most this many seats in one booking. */
  maxSeatsPerPublicBooking: v.number(),
  /** How long an unpaid public booking holds its seats, in minutes. */
  publicHoldMinutes: v.number(),
  /** Guests of a CONFIRMED booking are e-mailed a reminder this many hours before the start; null: none. */
  reminderHoursBefore: v.nullable(v.number()),
  // Additive field (resources, docs/resources.md).
  /** What each departure runs on, assigned when one is created or scheduled. */
  resourceRequirements: v.array(ResourceRequirementSchema),
});
export type Tour = v.InferOutput<typeof TourSchema>;

export const DEFAULT_MAX_SEATS_PER_PUBLIC_BOOKING = 10;
export const DEFAULT_PUBLIC_HOLD_MINUTES = 15;
const maxSeatsPerPublicBooking = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100));
const publicHoldMinutes = v.pipe(v.number(), v.integer(), v.minValue(5), v.maxValue(60));
export const DEFAULT_REMINDER_HOURS_BEFORE = 24;
/** A week at most: a reminder is about the days before, not a second confirmation. */
const reminderHoursBefore = v.nullable(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(168)));

export const CreateTourSchema = v.strictObject({
  name: requiredText(200),
  slug: v.optional(SlugSchema),
  description: v.optional(text(10_000)),
  durationMinutes: durationMinutes,
  basePrice: AmountSchema,
  currency: CurrencySchema,
  capacity: capacity,
  meetingPoint: v.optional(v.nullable(text(500))),
  isPublic: v.optional(v.boolean()),
  depositPercent: v.optional(depositPercent),
  addOns: v.optional(TourAddOnsInputSchema),
  timeZone: v.optional(TimeZoneSchema),
  ticketTypes: v.optional(TicketTypesInputSchema),
  cancellationPolicy: v.optional(CancellationPolicyInputSchema),
  maxSeatsPerPublicBooking: v.optional(maxSeatsPerPublicBooking),
  publicHoldMinutes: v.optional(publicHoldMinutes),
  reminderHoursBefore: v.optional(reminderHoursBefore),
  resourceRequirements: v.optional(ResourceRequirementsInputSchema),
});
export type CreateTourInput = v.InferOutput<typeof CreateTourSchema>;

export const UpdateTourSchema = v.strictObject({
  name: v.optional(requiredText(200)),
  slug: v.optional(SlugSchema),
  description: v.optional(text(10_000)),
  durationMinutes: v.optional(durationMinutes),
  basePrice: v.optional(AmountSchema),
  currency: v.optional(CurrencySchema),
  capacity: v.optional(capacity),
  meetingPoint: v.optional(v.nullable(text(500))),
  isPublic: v.optional(v.boolean()),
  depositPercent: v.optional(depositPercent),
  addOns: v.optional(TourAddOnsInputSchema),
  timeZone: v.optional(TimeZoneSchema),
  ticketTypes: v.optional(TicketTypesInputSchema),
  cancellationPolicy: v.optional(CancellationPolicyInputSchema),
  maxSeatsPerPublicBooking: v.optional(maxSeatsPerPublicBooking),
  publicHoldMinutes: v.optional(publicHoldMinutes),
  reminderHoursBefore: v.optional(reminderHoursBefore),
  resourceRequirements: v.optional(ResourceRequirementsInputSchema),
});
export type UpdateTourInput = v.InferOutput<typeof UpdateTourSchema>;
