import * as v from 'valibot';
import {
  DateTimeSchema,
  EmailSchema,
  PageQuerySchema,
  PhoneSchema,
  requiredText,
  text,
} from '../shared/schemas.js';

export const CustomerSchema = v.object({
  id: v.string(),
  name: v.string(),
  email: v.pipe(v.string(), v.email()),
  phone: v.nullable(v.string()),
  companyId: v.nullable(v.string()),
  tags: v.array(v.string()),
  marketingConsent: v.boolean(),
  totalBookings: v.number(),
  lifetimeValue: v.number(),
  createdAt: DateTimeSchema,
  updatedAt: DateTimeSchema,
});
export type Customer = v.InferOutput<typeof CustomerSchema>;

const tag = v.pipe(text(50), v.minLength(1));

export const CreateCustomerSchema = v.strictObject({
  name: requiredText(200),
  email: EmailSchema,
  phone: v.optional(v.nullable(PhoneSchema)),
  tags: v.optional(v.pipe(v.array(tag), v.maxLength(50))),
  marketingConsent: v.optional(v.boolean()),
});
export type CreateCustomerInput = v.InferOutput<typeof CreateCustomerSchema>;

export const ListCustomersQuerySchema = v.object({
  ...PageQuerySchema.entries,
  q: v.optional(text(200)),
});

/** PATCH: the e-mail stays (it is the customer's identity for bookings and lead conversion). */
export const UpdateCustomerSchema = v.strictObject({
  name: v.optional(requiredText(200)),
  phone: v.optional(v.nullable(PhoneSchema)),
  tags: v.optional(v.pipe(v.array(tag), v.maxLength(50))),
  marketingConsent: v.optional(v.boolean()),
  /** A company of the same workspace (422 `not_found` otherwise); null detaches. */
  companyId: v.optional(v.nullable(v.pipe(text(100), v.minLength(1)))),
});
export type UpdateCustomerInput = v.InferOutput<typeof UpdateCustomerSchema>;
