import * as v from 'valibot';
import {
  AmountSchema,
  CurrencySchema,
  DateTimeSchema,
  requiredText,
  SlugSchema,
  text,
} from '../shared/schemas.js';

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
});
export type Tour = v.InferOutput<typeof TourSchema>;

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
});
export type UpdateTourInput = v.InferOutput<typeof UpdateTourSchema>;
