import * as v from 'valibot';
import { BookingSchema } from '../bookings/index.js';
import { DateSchema, DateTimeSchema } from '../shared/schemas.js';
import { CustomerSchema } from './customer-schemas.js';
import { CrmTaskSchema, CustomerNoteSchema, LeadSchema } from './schemas.js';

// Personal data (decisions §13): what an export shows and what an erasure is asked.

export const EraseCustomerSchema = v.strictObject({
  /** Cancel the customer's upcoming bookings first (seats released, no e-mail); default false: 422. */
  cancelUpcoming: v.optional(v.boolean()),
});
export type EraseCustomerInput = v.InferOutput<typeof EraseCustomerSchema>;

/** A guest e-mail as kept: what was sent (or kept for `/dev/mail`) to the person. */
const ExportedGuestEmailSchema = v.object({
  id: v.string(),
  bookingId: v.string(),
  kind: v.string(),
  recipient: v.string(),
  status: v.string(),
  subject: v.string(),
  textBody: v.string(),
  createdAt: DateTimeSchema,
  sentAt: v.nullable(DateTimeSchema),
});
export type ExportedGuestEmail = v.InferOutput<typeof ExportedGuestEmailSchema>;

const ExportedItinerarySchema = v.object({
  id: v.string(),
  title: v.string(),
  startsOn: DateSchema,
  endsOn: DateSchema,
  notes: v.nullable(v.string()),
  createdAt: DateTimeSchema,
});
export type ExportedItinerary = v.InferOutput<typeof ExportedItinerarySchema>;

/** The contact an OCTO reseller sent with a booking (its copy of the person). */
const ExportedResellerContactSchema = v.object({
  bookingId: v.string(),
  resellerReference: v.nullable(v.string()),
  contact: v.record(v.string(), v.unknown()),
});
export type ExportedResellerContact = v.InferOutput<typeof ExportedResellerContactSchema>;

export const CustomerExportSchema = v.object({
  exportedAt: DateTimeSchema,
  customer: CustomerSchema,
  /** When the customer was erased; null while their data is held. */
  erasedAt: v.nullable(DateTimeSchema),
  consents: v.object({
    /** Whether they agreed to marketing e-mails. */
    marketingConsent: v.boolean(),
    /** Bookings whose guest e-mails they turned off, and when. */
    guestEmailOptOuts: v.array(v.object({ bookingId: v.string(), createdAt: DateTimeSchema })),
  }),
  /** Every booking, with its participants (names, notes, emergency contacts, check-ins). */
  bookings: v.array(BookingSchema),
  guestEmails: v.array(ExportedGuestEmailSchema),
  notes: v.array(CustomerNoteSchema),
  tasks: v.array(CrmTaskSchema),
  /** Leads converted into this customer, or with their e-mail (any case). */
  leads: v.array(LeadSchema),
  itineraries: v.array(ExportedItinerarySchema),
  resellerContacts: v.array(ExportedResellerContactSchema),
});
export type CustomerExport = v.InferOutput<typeof CustomerExportSchema>;

export const ErasureReportSchema = v.object({
  customerId: v.string(),
  erasedAt: DateTimeSchema,
  /** True when the customer had been erased before: nothing changed. */
  alreadyErased: v.boolean(),
  /** The upcoming bookings cancelled first (with `cancelUpcoming: true`). */
  cancelledBookingIds: v.array(v.string()),
  /** Rows rewritten, by table. */
  rewritten: v.record(v.string(), v.number()),
});
export type ErasureReport = v.InferOutput<typeof ErasureReportSchema>;
