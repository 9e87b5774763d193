import * as v from 'valibot';
import { TimeZoneSchema } from '../catalog/index.js';
import {
  DateSchema,
  DateTimeInputSchema,
  DateTimeSchema,
  EmailSchema,
  PageQuerySchema,
  PhoneSchema,
  requiredText,
  text,
} from '../shared/schemas.js';

const id = text(100);
const notes = v.nullable(text(5000));

// ---- Blackout dates -------------------------------------------------------------------------

export const BlackoutDateSchema = v.object({
  id: v.string(),
  /** null: the whole workspace is closed that day; else only this tour. */
  tourId: v.nullable(v.string()),
  /** UTC calendar date: no departure starting on it (UTC) is bookable. */
  date: DateSchema,
  reason: v.nullable(v.string()),
  createdAt: DateTimeSchema,
});
export type BlackoutDate = v.InferOutput<typeof BlackoutDateSchema>;

export const CreateBlackoutDateSchema = v.strictObject({
  date: DateSchema,
  tourId: v.optional(v.nullable(id)),
  reason: v.optional(v.nullable(text(500))),
});
export type CreateBlackoutDateInput = v.InferOutput<typeof CreateBlackoutDateSchema>;

export const ListBlackoutDatesQuerySchema = v.object({
  ...PageQuerySchema.entries,
  from: v.optional(DateSchema),
  to: v.optional(DateSchema),
  tourId: v.optional(id),
});

// ---- Guides and time-off --------------------------------------------------------------------

const stringList = (max: number) => v.pipe(v.array(v.pipe(text(100), v.minLength(1))), v.maxLength(max));

export const GuideSchema = v.object({
  /** The workspace member who guides (`mem_...`); the id departures use as `guideId`/`driverId`. */
  memberId: v.string(),
  /** The member's sign-in e-mail; null to API tokens below ADMIN (staff contact data). */
  email: v.nullable(v.string()),
  isGuide: v.boolean(),
  displayName: v.string(),
  phone: v.nullable(v.string()),
  /** BCP 47 tags or plain names, as the operator writes them (`en`, `de`, `Italian`). */
  languages: v.array(v.string()),
  certifications: v.array(v.string()),
  createdAt: DateTimeSchema,
  updatedAt: DateTimeSchema,
});
export type Guide = v.InferOutput<typeof GuideSchema>;

export const CreateGuideSchema = v.strictObject({
  memberId: id,
  displayName: requiredText(200),
  phone: v.optional(v.nullable(PhoneSchema)),
  languages: v.optional(stringList(30)),
  certifications: v.optional(stringList(50)),
});
export type CreateGuideInput = v.InferOutput<typeof CreateGuideSchema>;

export const UpdateGuideSchema = v.strictObject({
  isGuide: v.optional(v.boolean()),
  displayName: v.optional(requiredText(200)),
  phone: v.optional(v.nullable(PhoneSchema)),
  languages: v.optional(stringList(30)),
  certifications: v.optional(stringList(50)),
});
export type UpdateGuideInput = v.InferOutput<typeof UpdateGuideSchema>;

export const ListGuidesQuerySchema = v.object({
  ...PageQuerySchema.entries,
  /** `true` (default) lists active guides only; `false` lists former guides too. */
  activeOnly: v.optional(v.boolean()),
});

export const TimeOffSchema = v.object({
  id: v.string(),
  memberId: v.string(),
  startsAt: DateTimeSchema,
  endsAt: DateTimeSchema,
  reason: v.nullable(v.string()),
  createdAt: DateTimeSchema,
});
export type TimeOff = v.InferOutput<typeof TimeOffSchema>;

export const CreateTimeOffSchema = v.strictObject({
  startsAt: DateTimeInputSchema,
  endsAt: DateTimeInputSchema,
  reason: v.optional(v.nullable(text(500))),
});
export type CreateTimeOffInput = v.InferOutput<typeof CreateTimeOffSchema>;

/** A rule an ADMIN overrode when assigning a departure (`force: true`), kept on its history. */
export const DepartureHistoryEntrySchema = v.object({
  id: v.string(),
  availabilityId: v.string(),
  kind: v.picklist(['ASSIGNMENT_FORCED']),
  /** The assignment's field (`guideId`, `driverId`) and the rule overridden (`guide_double_booked`...). */
  field: v.string(),
  issue: v.string(),
  /** The refusal it would have been, naming the other departure or the time off. */
  message: v.string(),
  actor: v.object({
    type: v.picklist(['api_token', 'member', 'guest', 'system']),
    id: v.nullable(v.string()),
  }),
  createdAt: DateTimeSchema,
});
export type DepartureHistoryEntry = v.InferOutput<typeof DepartureHistoryEntrySchema>;

/** One local day of a workspace's resources and guides (docs/resources.md). */
export const ResourceCalendarQuerySchema = v.object({
  date: DateSchema,
  /** The zone whose day it is (IANA; UTC by default): a workspace has no zone of its own yet. */
  timeZone: v.optional(TimeZoneSchema),
});

/** A departure as a row of the day's timeline shows it. */
const TimelineDepartureSchema = v.object({
  availabilityId: v.string(),
  tourId: v.string(),
  tourName: v.string(),
  startsAt: DateTimeSchema,
  /** The end, the resource's turnaround not included. */
  endsAt: DateTimeSchema,
  bookedSeats: v.number(),
  capacity: v.number(),
});

export const ResourceCalendarSchema = v.object({
  date: DateSchema,
  timeZone: v.string(),
  resources: v.array(
    v.object({
      resourceId: v.string(),
      name: v.string(),
      kind: v.string(),
      sharing: v.string(),
      /** Seats of the resource; null when it has none. */
      seatsTotal: v.nullable(v.number()),
      departures: v.array(
        v.object({
          ...TimelineDepartureSchema.entries,
          /** Seats booked on the departures overlapping this one on the resource, its own included. */
          seatsUsed: v.number(),
          /** EXCLUSIVE and overlapping another, or SHARED_SEATS and over its seats. */
          conflict: v.boolean(),
        }),
      ),
    }),
  ),
  guides: v.array(
    v.object({
      memberId: v.string(),
      displayName: v.string(),
      departures: v.array(
        v.object({
          ...TimelineDepartureSchema.entries,
          role: v.picklist(['GUIDE', 'DRIVER']),
          /** Overlapping another of theirs, or their time off. */
          conflict: v.boolean(),
        }),
      ),
      timeOff: v.array(TimeOffSchema),
    }),
  ),
});
export type ResourceCalendar = v.InferOutput<typeof ResourceCalendarSchema>;

/** A guide's days (UTC dates, both inclusive, at most 62 days), as their schedule reads them. */
export const GuideScheduleQuerySchema = v.pipe(
  v.object({ from: DateSchema, to: DateSchema }),
  v.forward(
    v.check((q) => q.from <= q.to, 'before_from'),
    ['to'],
  ),
  v.forward(
    v.check((q) => Date.parse(q.to) - Date.parse(q.from) <= 61 * 86_400_000, 'range_too_long'),
    ['to'],
  ),
);

/** One departure a guide works on, as their schedule shows it. */
const ScheduledDepartureSchema = v.object({
  availabilityId: v.string(),
  tourId: v.string(),
  tourName: v.string(),
  /** GUIDE or DRIVER: how the member is assigned. */
  role: v.picklist(['GUIDE', 'DRIVER']),
  startsAt: DateTimeSchema,
  endsAt: DateTimeSchema,
  /** The start on the tour's clocks, with its offset (RFC 3339). */
  localStartsAt: v.string(),
  status: v.string(),
});

export const GuideScheduleSchema = v.object({
  memberId: v.string(),
  from: DateSchema,
  to: DateSchema,
  /** Departures (not cancelled) overlapping those days, by start. */
  departures: v.array(ScheduledDepartureSchema),
  /** Time off overlapping those days, by start. */
  timeOff: v.array(TimeOffSchema),
});
export type GuideSchedule = v.InferOutput<typeof GuideScheduleSchema>;

export const DateRangeQuerySchema = v.object({
  ...PageQuerySchema.entries,
  from: v.optional(DateSchema),
  to: v.optional(DateSchema),
});

// ---- Vehicles -------------------------------------------------------------------------------

const VEHICLE_STATUSES = ['ACTIVE', 'MAINTENANCE', 'RETIRED'] as const;
export type VehicleStatus = (typeof VEHICLE_STATUSES)[number];
const seats = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(10_000));

export const VehicleSchema = v.object({
  id: v.string(),
  name: v.string(),
  registration: v.nullable(v.string()),
  /** Passenger seats, driver excluded: a departure's capacity must fit. */
  seats: v.number(),
  status: v.picklist(VEHICLE_STATUSES),
  notes: v.nullable(v.string()),
  createdAt: DateTimeSchema,
  updatedAt: DateTimeSchema,
});
export type Vehicle = v.InferOutput<typeof VehicleSchema>;

export const CreateVehicleSchema = v.strictObject({
  name: requiredText(200),
  registration: v.optional(v.nullable(text(40))),
  seats,
  status: v.optional(v.picklist(VEHICLE_STATUSES)),
  notes: v.optional(notes),
});
export type CreateVehicleInput = v.InferOutput<typeof CreateVehicleSchema>;

export const UpdateVehicleSchema = v.strictObject({
  name: v.optional(requiredText(200)),
  registration: v.optional(v.nullable(text(40))),
  seats: v.optional(seats),
  status: v.optional(v.picklist(VEHICLE_STATUSES)),
  notes: v.optional(notes),
});
export type UpdateVehicleInput = v.InferOutput<typeof UpdateVehicleSchema>;

export const ListVehiclesQuerySchema = v.object({
  ...PageQuerySchema.entries,
  status: v.optional(v.picklist(VEHICLE_STATUSES)),
});

// ---- Vendors --------------------------------------------------------------------------------

const VENDOR_CATEGORIES = ['TRANSPORT', 'ACCOMMODATION', 'FOOD', 'ACTIVITY', 'OTHER'] as const;

export const VendorSchema = v.object({
  id: v.string(),
  name: v.string(),
  category: v.picklist(VENDOR_CATEGORIES),
  contactName: v.nullable(v.string()),
  email: v.nullable(v.string()),
  phone: v.nullable(v.string()),
  notes: v.nullable(v.string()),
  createdAt: DateTimeSchema,
  updatedAt: DateTimeSchema,
});
export type Vendor = v.InferOutput<typeof VendorSchema>;

export const CreateVendorSchema = v.strictObject({
  name: requiredText(200),
  category: v.picklist(VENDOR_CATEGORIES),
  contactName: v.optional(v.nullable(text(200))),
  email: v.optional(v.nullable(EmailSchema)),
  phone: v.optional(v.nullable(PhoneSchema)),
  notes: v.optional(notes),
});
export type CreateVendorInput = v.InferOutput<typeof CreateVendorSchema>;

export const UpdateVendorSchema = v.strictObject({
  name: v.optional(requiredText(200)),
  category: v.optional(v.picklist(VENDOR_CATEGORIES)),
  contactName: v.optional(v.nullable(text(200))),
  email: v.optional(v.nullable(EmailSchema)),
  phone: v.optional(v.nullable(PhoneSchema)),
  notes: v.optional(notes),
});
export type UpdateVendorInput = v.InferOutput<typeof UpdateVendorSchema>;

export const ListVendorsQuerySchema = v.object({
  ...PageQuerySchema.entries,
  category: v.optional(v.picklist(VENDOR_CATEGORIES)),
});

// ---- Incidents ------------------------------------------------------------------------------

const INCIDENT_SEVERITIES = ['LOW', 'MEDIUM', 'HIGH', 'CRITICAL'] as const;
export type IncidentSeverity = (typeof INCIDENT_SEVERITIES)[number];
const INCIDENT_STATUSES = ['OPEN', 'INVESTIGATING', 'RESOLVED', 'CLOSED'] as const;
export type IncidentStatus = (typeof INCIDENT_STATUSES)[number];

export const IncidentSchema = v.object({
  id: v.string(),
  availabilityId: v.nullable(v.string()),
  bookingId: v.nullable(v.string()),
  severity: v.picklist(INCIDENT_SEVERITIES),
  status: v.picklist(INCIDENT_STATUSES),
  title: v.string(),
  description: v.nullable(v.string()),
  occurredAt: DateTimeSchema,
  /** Who reported it: the name given, else the API token's id. */
  reportedBy: v.string(),
  resolvedAt: v.nullable(DateTimeSchema),
  createdAt: DateTimeSchema,
  updatedAt: DateTimeSchema,
});
export type Incident = v.InferOutput<typeof IncidentSchema>;

export const CreateIncidentSchema = v.strictObject({
  availabilityId: v.optional(v.nullable(id)),
  bookingId: v.optional(v.nullable(id)),
  severity: v.picklist(INCIDENT_SEVERITIES),
  title: requiredText(200),
  description: v.optional(v.nullable(text(10_000))),
  occurredAt: DateTimeInputSchema,
  reportedBy: v.optional(requiredText(200)),
});
export type CreateIncidentInput = v.InferOutput<typeof CreateIncidentSchema>;

export const UpdateIncidentSchema = v.strictObject({
  status: v.optional(v.picklist(INCIDENT_STATUSES)),
  severity: v.optional(v.picklist(INCIDENT_SEVERITIES)),
  title: v.optional(requiredText(200)),
  description: v.optional(v.nullable(text(10_000))),
});
export type UpdateIncidentInput = v.InferOutput<typeof UpdateIncidentSchema>;

export const ListIncidentsQuerySchema = v.object({
  ...PageQuerySchema.entries,
  from: v.optional(DateSchema),
  to: v.optional(DateSchema),
  severity: v.optional(v.picklist(INCIDENT_SEVERITIES)),
  status: v.optional(v.picklist(INCIDENT_STATUSES)),
});
