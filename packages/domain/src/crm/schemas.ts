import * as v from 'valibot';
import {
  AmountSchema,
  CurrencySchema,
  DateSchema,
  DateTimeInputSchema,
  DateTimeSchema,
  EmailSchema,
  PageQuerySchema,
  PhoneSchema,
  requiredText,
  text,
} from '../shared/schemas.js';

const Tag = v.pipe(text(50), v.minLength(1));
const Tags = v.pipe(v.array(Tag), v.maxLength(50));
/** A reference to another record; its existence in the workspace is the use case's check (422). */
const RefId = v.pipe(text(100), v.minLength(1));
const Notes = text(5000);
const DomainName = v.pipe(
  v.string(),
  v.maxLength(253),
  v.regex(/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i, 'invalid_domain'),
);
const CountryCode = v.pipe(v.string(), v.regex(/^[A-Z]{2}$/, 'invalid_country'));

// Companies: B2B accounts (agencies, schools, corporate clients) that customers belong to.

const companyEntries = {
  name: v.string(),
  domain: v.nullable(v.string()),
  phone: v.nullable(v.string()),
  addressLine1: v.nullable(v.string()),
  addressLine2: v.nullable(v.string()),
  city: v.nullable(v.string()),
  region: v.nullable(v.string()),
  postalCode: v.nullable(v.string()),
  /** ISO 3166-1 alpha-2. */
  country: v.nullable(v.string()),
  tags: v.array(v.string()),
  notes: v.nullable(v.string()),
};

export const CompanySchema = v.object({
  id: v.string(),
  ...companyEntries,
  createdAt: DateTimeSchema,
  updatedAt: DateTimeSchema,
});
export type Company = v.InferOutput<typeof CompanySchema>;

const companyInput = {
  domain: v.optional(v.nullable(DomainName)),
  phone: v.optional(v.nullable(PhoneSchema)),
  addressLine1: v.optional(v.nullable(text(200))),
  addressLine2: v.optional(v.nullable(text(200))),
  city: v.optional(v.nullable(text(100))),
  region: v.optional(v.nullable(text(100))),
  postalCode: v.optional(v.nullable(text(20))),
  country: v.optional(v.nullable(CountryCode)),
  tags: v.optional(Tags),
  notes: v.optional(v.nullable(Notes)),
};

export const CreateCompanySchema = v.strictObject({ name: requiredText(200), ...companyInput });
export type CreateCompanyInput = v.InferOutput<typeof CreateCompanySchema>;

export const UpdateCompanySchema = v.strictObject({ name: v.optional(requiredText(200)), ...companyInput });
export type UpdateCompanyInput = v.InferOutput<typeof UpdateCompanySchema>;

export const ListCompaniesQuerySchema = v.object({
  ...PageQuerySchema.entries,
  q: v.optional(text(200)),
});

// Leads: prospects not yet customers.

const LEAD_STATUSES = ['NEW', 'CONTACTED', 'QUALIFIED', 'CONVERTED', 'LOST'] as const;
export type LeadStatus = (typeof LEAD_STATUSES)[number];
const LEAD_SOURCES = [
  'WEBSITE',
  'EMAIL',
  'PHONE',
  'WALK_IN',
  'REFERRAL',
  'PARTNER',
  'SOCIAL',
  'EVENT',
  'OTHER',
] as const;

export const LeadSchema = v.object({
  id: v.string(),
  name: v.string(),
  email: v.nullable(v.string()),
  phone: v.nullable(v.string()),
  companyId: v.nullable(v.string()),
  source: v.picklist(LEAD_SOURCES),
  status: v.picklist(LEAD_STATUSES),
  /** Expected revenue in minor units, with its currency. */
  estimatedValue: v.nullable(v.number()),
  currency: v.nullable(v.string()),
  notes: v.nullable(v.string()),
  /** The member who owns the lead. */
  ownerId: v.nullable(v.string()),
  /** Set by the convert operation. */
  convertedCustomerId: v.nullable(v.string()),
  convertedAt: v.nullable(DateTimeSchema),
  createdAt: DateTimeSchema,
  updatedAt: DateTimeSchema,
});
export type Lead = v.InferOutput<typeof LeadSchema>;

const leadInput = {
  email: v.optional(v.nullable(EmailSchema)),
  phone: v.optional(v.nullable(PhoneSchema)),
  companyId: v.optional(v.nullable(RefId)),
  source: v.optional(v.picklist(LEAD_SOURCES)),
  estimatedValue: v.optional(v.nullable(AmountSchema)),
  currency: v.optional(v.nullable(CurrencySchema)),
  notes: v.optional(v.nullable(Notes)),
  ownerId: v.optional(v.nullable(RefId)),
};

export const CreateLeadSchema = v.strictObject({
  name: requiredText(200),
  ...leadInput,
  /** CONVERTED is reached only through the convert operation. */
  status: v.optional(v.picklist(['NEW', 'CONTACTED', 'QUALIFIED', 'LOST'] as const)),
});
export type CreateLeadInput = v.InferOutput<typeof CreateLeadSchema>;

export const UpdateLeadSchema = v.strictObject({
  name: v.optional(requiredText(200)),
  ...leadInput,
  status: v.optional(v.picklist(LEAD_STATUSES)),
});
export type UpdateLeadInput = v.InferOutput<typeof UpdateLeadSchema>;

export const ListLeadsQuerySchema = v.object({
  ...PageQuerySchema.entries,
  status: v.optional(v.picklist(LEAD_STATUSES)),
  q: v.optional(text(200)),
});

export const ConvertLeadSchema = v.strictObject({
  /** Copied to a customer the conversion creates; an existing customer keeps theirs. */
  marketingConsent: v.optional(v.boolean()),
  tags: v.optional(Tags),
});
export type ConvertLeadInput = v.InferOutput<typeof ConvertLeadSchema>;

// CRM tasks: follow-ups with a due time, linked to the records they are about.

const CRM_TASK_STATUSES = ['OPEN', 'DONE', 'CANCELLED'] as const;
const CRM_TASK_PRIORITIES = ['LOW', 'NORMAL', 'HIGH'] as const;

const taskLinks = {
  customerId: v.nullable(v.string()),
  leadId: v.nullable(v.string()),
  bookingId: v.nullable(v.string()),
  companyId: v.nullable(v.string()),
};

export const CrmTaskSchema = v.object({
  id: v.string(),
  title: v.string(),
  description: v.nullable(v.string()),
  dueAt: v.nullable(DateTimeSchema),
  status: v.picklist(CRM_TASK_STATUSES),
  priority: v.picklist(CRM_TASK_PRIORITIES),
  /** The member it is assigned to. */
  assigneeId: v.nullable(v.string()),
  ...taskLinks,
  /** When it was last marked DONE; null otherwise. */
  completedAt: v.nullable(DateTimeSchema),
  createdAt: DateTimeSchema,
  updatedAt: DateTimeSchema,
});
export type CrmTask = v.InferOutput<typeof CrmTaskSchema>;

const taskInput = {
  description: v.optional(v.nullable(Notes)),
  dueAt: v.optional(v.nullable(DateTimeInputSchema)),
  status: v.optional(v.picklist(CRM_TASK_STATUSES)),
  priority: v.optional(v.picklist(CRM_TASK_PRIORITIES)),
  assigneeId: v.optional(v.nullable(RefId)),
  customerId: v.optional(v.nullable(RefId)),
  leadId: v.optional(v.nullable(RefId)),
  bookingId: v.optional(v.nullable(RefId)),
  companyId: v.optional(v.nullable(RefId)),
};

export const CreateCrmTaskSchema = v.strictObject({ title: requiredText(200), ...taskInput });
export type CreateCrmTaskInput = v.InferOutput<typeof CreateCrmTaskSchema>;

export const UpdateCrmTaskSchema = v.strictObject({ title: v.optional(requiredText(200)), ...taskInput });
export type UpdateCrmTaskInput = v.InferOutput<typeof UpdateCrmTaskSchema>;

export const ListCrmTasksQuerySchema = v.object({
  ...PageQuerySchema.entries,
  status: v.optional(v.picklist(CRM_TASK_STATUSES)),
  customerId: v.optional(text(100)),
  leadId: v.optional(text(100)),
  /** Inclusive UTC calendar dates of `dueAt`; tasks without a due time are left out when either is set. */
  from: v.optional(DateSchema),
  to: v.optional(DateSchema),
});

// Customer notes and the customer timeline.

export const CustomerNoteSchema = v.object({
  id: v.string(),
  customerId: v.string(),
  body: v.string(),
  author: v.object({
    type: v.picklist(['api_token', 'member', 'guest', 'system']),
    id: v.nullable(v.string()),
  }),
  createdAt: DateTimeSchema,
});
export type CustomerNote = v.InferOutput<typeof CustomerNoteSchema>;

export const CreateCustomerNoteSchema = v.strictObject({ body: requiredText(5000) });

const TIMELINE_ENTRY_TYPES = [
  'booking.created',
  'booking.status_changed',
  'payment.succeeded',
  'payment.refunded',
  'note',
  'crm_task',
  'incident',
] as const;
export type TimelineEntryType = (typeof TIMELINE_ENTRY_TYPES)[number];

export const TimelineEntrySchema = v.object({
  /** The id of the record behind the entry (booking, history entry, payment, note, task). */
  id: v.string(),
  type: v.picklist(TIMELINE_ENTRY_TYPES),
  occurredAt: DateTimeSchema,
  /** One human-readable line. */
  summary: v.string(),
  bookingId: v.nullable(v.string()),
  /** The type's own fields (see the docs); clients ignore keys they do not know. */
  data: v.record(v.string(), v.unknown()),
});
export type TimelineEntry = v.InferOutput<typeof TimelineEntrySchema>;
