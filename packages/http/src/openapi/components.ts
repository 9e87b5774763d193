import {
  AvailabilitySchema,
  BookingCreateSchema,
  BookingHistoryEntrySchema,
  BookingSchema,
  CheckInSchema,
  CreateAvailabilitySchema,
  CreateCustomerSchema,
  CreateTourSchema,
  CustomerSchema,
  PaginationSchema,
  ParticipantInputSchema,
  ParticipantSchema,
  PaymentLinkSchema,
  RefundCreateSchema,
  SetBookingStatusSchema,
  TourSchema,
  UpdateAvailabilitySchema,
  UpdateBookingSchema,
  UpdateTourSchema,
  WaiverSchema,
} from '@travelops/domain';
import * as v from 'valibot';

export const ErrorSchema = v.object({
  code: v.picklist([
    'VALIDATION_ERROR',
    'UNAUTHENTICATED',
    'FORBIDDEN',
    'NOT_FOUND',
    'CONFLICT',
    'UNPROCESSABLE',
    'RATE_LIMITED',
    'INTERNAL_ERROR',
  ]),
  message: v.string(),
  details: v.optional(v.array(v.object({ field: v.string(), issue: v.string() }))),
  requestId: v.optional(v.string()),
});

export const ErrorEnvelopeSchema = v.object({ error: ErrorSchema });

/** Schemas published under `components/schemas`, by name; routes that use them get a `$ref`. */
export const COMPONENT_SCHEMAS: Record<string, v.GenericSchema> = {
  Tour: TourSchema,
  TourCreate: CreateTourSchema,
  TourUpdate: UpdateTourSchema,
  Availability: AvailabilitySchema,
  AvailabilityCreate: CreateAvailabilitySchema,
  AvailabilityUpdate: UpdateAvailabilitySchema,
  Customer: CustomerSchema,
  CustomerCreate: CreateCustomerSchema,
  Booking: BookingSchema,
  BookingCreate: BookingCreateSchema,
  BookingUpdate: UpdateBookingSchema,
  BookingStatusChange: SetBookingStatusSchema,
  BookingHistoryEntry: BookingHistoryEntrySchema,
  Participant: ParticipantSchema,
  ParticipantInput: ParticipantInputSchema,
  PaymentLink: PaymentLinkSchema,
  CheckIn: CheckInSchema,
  RefundCreate: RefundCreateSchema,
  Waiver: WaiverSchema,
  Pagination: PaginationSchema,
  Error: ErrorSchema,
  ErrorEnvelope: ErrorEnvelopeSchema,
};
