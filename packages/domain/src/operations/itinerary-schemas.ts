import * as v from 'valibot';
import {
  DateSchema,
  DateTimeInputSchema,
  DateTimeSchema,
  PageQuerySchema,
  requiredText,
  text,
} from '../shared/schemas.js';

const id = text(100);
const notes = v.nullable(text(5000));

// ---- Itineraries ----------------------------------------------------------------------------

const ITINERARY_ITEM_TYPES = ['ACTIVITY', 'TRANSFER', 'ACCOMMODATION', 'MEAL', 'FREE_TIME', 'OTHER'] as const;

export const ItineraryItemSchema = v.object({
  id: v.string(),
  itineraryId: v.string(),
  type: v.picklist(ITINERARY_ITEM_TYPES),
  title: v.string(),
  startsAt: DateTimeSchema,
  endsAt: v.nullable(DateTimeSchema),
  location: v.nullable(v.string()),
  /** What the traveller reads. */
  description: v.nullable(v.string()),
  /** Internal only: never shown on the public itinerary. */
  operatorNotes: v.nullable(v.string()),
  bookingId: v.nullable(v.string()),
  createdAt: DateTimeSchema,
  updatedAt: DateTimeSchema,
});
export type ItineraryItem = v.InferOutput<typeof ItineraryItemSchema>;

export const ItinerarySchema = v.object({
  id: v.string(),
  customerId: v.string(),
  title: v.string(),
  startsOn: DateSchema,
  endsOn: DateSchema,
  notes: v.nullable(v.string()),
  /** The traveller's link: `/public/itineraries/{publicToken}`. */
  publicToken: v.string(),
  /** By `startsAt`, then creation. Present on GET one; list answers omit it. */
  items: v.optional(v.array(ItineraryItemSchema)),
  createdAt: DateTimeSchema,
  updatedAt: DateTimeSchema,
});
export type Itinerary = v.InferOutput<typeof ItinerarySchema>;

export const CreateItinerarySchema = v.strictObject({
  customerId: id,
  title: requiredText(200),
  startsOn: DateSchema,
  endsOn: DateSchema,
  notes: v.optional(notes),
});
export type CreateItineraryInput = v.InferOutput<typeof CreateItinerarySchema>;

export const UpdateItinerarySchema = v.strictObject({
  title: v.optional(requiredText(200)),
  startsOn: v.optional(DateSchema),
  endsOn: v.optional(DateSchema),
  notes: v.optional(notes),
});
export type UpdateItineraryInput = v.InferOutput<typeof UpdateItinerarySchema>;

export const ListItinerariesQuerySchema = v.object({
  ...PageQuerySchema.entries,
  /** Trips overlapping [from, to] (calendar dates, inclusive). */
  from: v.optional(DateSchema),
  to: v.optional(DateSchema),
  customerId: v.optional(id),
});

export const CreateItineraryItemSchema = v.strictObject({
  type: v.picklist(ITINERARY_ITEM_TYPES),
  title: requiredText(200),
  startsAt: DateTimeInputSchema,
  endsAt: v.optional(v.nullable(DateTimeInputSchema)),
  location: v.optional(v.nullable(text(500))),
  description: v.optional(v.nullable(text(5000))),
  operatorNotes: v.optional(v.nullable(text(5000))),
  bookingId: v.optional(v.nullable(id)),
});
export type CreateItineraryItemInput = v.InferOutput<typeof CreateItineraryItemSchema>;

export const UpdateItineraryItemSchema = v.strictObject({
  type: v.optional(v.picklist(ITINERARY_ITEM_TYPES)),
  title: v.optional(requiredText(200)),
  startsAt: v.optional(DateTimeInputSchema),
  endsAt: v.optional(v.nullable(DateTimeInputSchema)),
  location: v.optional(v.nullable(text(500))),
  description: v.optional(v.nullable(text(5000))),
  operatorNotes: v.optional(v.nullable(text(5000))),
  bookingId: v.optional(v.nullable(id)),
});
export type UpdateItineraryItemInput = v.InferOutput<typeof UpdateItineraryItemSchema>;

/** What the traveller sees: no ids, no operator notes, no other customer's data. */
export const PublicItinerarySchema = v.object({
  title: v.string(),
  travellerName: v.string(),
  startsOn: DateSchema,
  endsOn: DateSchema,
  items: v.array(
    v.object({
      type: v.picklist(ITINERARY_ITEM_TYPES),
      title: v.string(),
      startsAt: DateTimeSchema,
      endsAt: v.nullable(DateTimeSchema),
      location: v.nullable(v.string()),
      description: v.nullable(v.string()),
      /** The linked booking's status, when the item is a booked tour. */
      bookingStatus: v.nullable(v.string()),
    }),
  ),
});
export type PublicItinerary = v.InferOutput<typeof PublicItinerarySchema>;
