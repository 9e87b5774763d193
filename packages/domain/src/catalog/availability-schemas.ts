import * as v from 'valibot';
import { AVAILABILITY_STATUSES } from '../shared/enums.js';
import {
  AmountSchema,
  DateSchema,
  DateTimeInputSchema,
  DateTimeSchema,
  PageQuerySchema,
  text,
} from '../shared/schemas.js';
import { ResourceIdsInputSchema } from './resource-schemas.js';

const SALES_STATUSES = ['AVAILABLE', 'LIMITED', 'SOLD_OUT', 'CLOSED'] as const;
export type SalesStatus = (typeof SALES_STATUSES)[number];
export const SalesStatusSchema = v.picklist(SALES_STATUSES);

const capacity = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(10_000));

export const AvailabilityStatusSchema = v.picklist(AVAILABILITY_STATUSES);

/** A departure's own price for one of the tour's ticket types. */
export const DeparturePriceSchema = v.object({ ticketTypeId: v.string(), price: v.number() });
export type DeparturePrice = v.InferOutput<typeof DeparturePriceSchema>;

const DeparturePricesInputSchema = v.pipe(
  v.array(v.strictObject({ ticketTypeId: v.pipe(v.string(), v.maxLength(100)), price: AmountSchema })),
  v.maxLength(20),
  v.check((list) => new Set(list.map((p) => p.ticketTypeId)).size === list.length, 'duplicate_ticket_type'),
);

export const AvailabilitySchema = v.object({
  id: v.string(),
  tourId: v.string(),
  startsAt: DateTimeSchema,
  capacity: v.number(),
  seatsRemaining: v.number(),
  bookedSeats: v.number(),
  status: AvailabilityStatusSchema,
  guideId: v.nullable(v.string()),
  driverId: v.nullable(v.string()),
  vehicleId: v.nullable(v.string()),
  bookingCutoffAt: v.nullable(DateTimeSchema),
  createdAt: DateTimeSchema,
  updatedAt: DateTimeSchema,
  // Additive fields (ticket types and schedules).
  /** Overrides of the tour's ticket-type prices on this departure. */
  prices: v.array(DeparturePriceSchema),
  /** The schedule that generated the departure; null when made by hand. */
  scheduleId: v.nullable(v.string()),
  /** Seats in unpaid (PENDING) bookings, counted in `bookedSeats` too: held, not yet sold. */
  heldSeats: v.number(),
  // Additive field (sales status), computed when read: see `salesStatusOf`.
  /** What a buyer sees: AVAILABLE, LIMITED (few seats left), SOLD_OUT or CLOSED (not bookable). */
  salesStatus: SalesStatusSchema,
  // Additive field (resources, docs/resources.md).
  /** What it runs on; `seatsRemaining` is also capped by its SHARED_SEATS resources. */
  resourceIds: v.array(v.string()),
});
/** A departure as the API answers it, `salesStatus` included. */
export type DepartureView = v.InferOutput<typeof AvailabilitySchema>;
/** A departure as stored; its `salesStatus` depends on the clock and the blackouts, so it is added when read. */
export type Departure = Omit<DepartureView, 'salesStatus'>;

export const CreateAvailabilitySchema = v.strictObject({
  tourId: text(100),
  startsAt: DateTimeInputSchema,
  capacity: v.optional(capacity),
  status: v.optional(v.picklist(['SCHEDULED', 'DELAYED'])),
  bookingCutoffAt: v.optional(v.nullable(DateTimeInputSchema)),
  prices: v.optional(DeparturePricesInputSchema),
  /** The resources it runs on; without it, those the tour's `resourceRequirements` choose. */
  resourceIds: v.optional(ResourceIdsInputSchema),
});
export type CreateDepartureInput = v.InferOutput<typeof CreateAvailabilitySchema>;

export const UpdateAvailabilitySchema = v.strictObject({
  startsAt: v.optional(DateTimeInputSchema),
  capacity: v.optional(capacity),
  status: v.optional(AvailabilityStatusSchema),
  bookingCutoffAt: v.optional(v.nullable(DateTimeInputSchema)),
  /** A member with a guide profile; null unassigns. */
  guideId: v.optional(v.nullable(text(100))),
  /** Any member of the workspace; null unassigns. */
  driverId: v.optional(v.nullable(text(100))),
  /** An ACTIVE vehicle with at least `capacity` seats; null unassigns. */
  vehicleId: v.optional(v.nullable(text(100))),
  /** Replaces the departure's price overrides. */
  prices: v.optional(DeparturePricesInputSchema),
  /** Replaces the resources it runs on (its vehicle stays among them). */
  resourceIds: v.optional(ResourceIdsInputSchema),
  /** ADMIN only: a guide's or driver's overlap or time off does not refuse; each is kept on the departure's history. */
  force: v.optional(v.boolean()),
});
export type UpdateDepartureInput = v.InferOutput<typeof UpdateAvailabilitySchema>;

export const ListAvailabilityQuerySchema = v.object({
  ...PageQuerySchema.entries,
  from: v.optional(DateSchema),
  to: v.optional(DateSchema),
  tourId: v.optional(text(100)),
});

export const PublicAvailabilityQuerySchema = v.object({
  from: v.optional(DateSchema),
  to: v.optional(DateSchema),
});
