import * as v from 'valibot';
import { DateTimeSchema, PageQuerySchema, requiredText, text } from '../shared/schemas.js';

const RESOURCE_KINDS = ['VEHICLE', 'BOAT', 'ROOM', 'EQUIPMENT', 'OTHER'] as const;
export type ResourceKind = (typeof RESOURCE_KINDS)[number];
const RESOURCE_SHARINGS = ['EXCLUSIVE', 'SHARED_SEATS'] as const;

const seats = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(10_000));
const turnaroundMinutes = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(24 * 60));

/** What departures run on (docs/resources.md): a boat, a bus, a room, equipment. */
export const ResourceSchema = v.object({
  id: v.string(),
  kind: v.picklist(RESOURCE_KINDS),
  name: v.string(),
  /** Seats it carries; null for a resource that only needs to be free (a room, a kayak trailer). */
  seats: v.nullable(v.number()),
  /** EXCLUSIVE: one departure at a time; SHARED_SEATS: overlapping departures share its seats. */
  sharing: v.picklist(RESOURCE_SHARINGS),
  /** Minutes after a departure ends before the resource serves the next (cleaning, mooring). */
  turnaroundMinutes: v.number(),
  active: v.boolean(),
  createdAt: DateTimeSchema,
  updatedAt: DateTimeSchema,
});
export type Resource = v.InferOutput<typeof ResourceSchema>;

export const CreateResourceSchema = v.pipe(
  v.strictObject({
    kind: v.picklist(RESOURCE_KINDS),
    name: requiredText(200),
    seats: v.optional(v.nullable(seats)),
    sharing: v.optional(v.picklist(RESOURCE_SHARINGS)),
    turnaroundMinutes: v.optional(turnaroundMinutes),
    active: v.optional(v.boolean()),
  }),
  // Shared seats need a number of seats to share.
  v.forward(
    v.check((r) => r.sharing !== 'SHARED_SEATS' || (r.seats ?? null) !== null, 'required_for_shared_seats'),
    ['seats'],
  ),
);
export type CreateResourceInput = v.InferOutput<typeof CreateResourceSchema>;

export const UpdateResourceSchema = v.strictObject({
  name: v.optional(requiredText(200)),
  seats: v.optional(v.nullable(seats)),
  sharing: v.optional(v.picklist(RESOURCE_SHARINGS)),
  turnaroundMinutes: v.optional(turnaroundMinutes),
  active: v.optional(v.boolean()),
});
export type UpdateResourceInput = v.InferOutput<typeof UpdateResourceSchema>;

export const ListResourcesQuerySchema = v.object({
  ...PageQuerySchema.entries,
  kind: v.optional(v.picklist(RESOURCE_KINDS)),
});

/**
 * What a tour runs on: a named resource, or any free active one of a kind with at least the
 * departure's capacity in seats (`seatsFrom: 'departure'`), chosen when a departure is made.
 */
export const ResourceRequirementSchema = v.union([
  v.strictObject({ resourceId: text(100) }),
  v.strictObject({ kind: v.picklist(RESOURCE_KINDS), seatsFrom: v.literal('departure') }),
]);
export type ResourceRequirement = v.InferOutput<typeof ResourceRequirementSchema>;

export const ResourceRequirementsInputSchema = v.pipe(v.array(ResourceRequirementSchema), v.maxLength(10));

/** A departure's resources, by hand: unique ids of this workspace's resources. */
export const ResourceIdsInputSchema = v.pipe(
  v.array(text(100)),
  v.maxLength(10),
  v.check((ids) => new Set(ids).size === ids.length, 'duplicate_resource'),
);
