import type { BookingAddOn, BookingRecord, Participant } from '@travelops/domain/bookings';
import type { CancellationPolicy } from '@travelops/domain/catalog';
import type { BookingStatus, PaymentMode, PaymentStatus } from '@travelops/domain/shared';
import { type DbBigint, type DbTimestamp, toIso, toIsoOrNull, toNumber } from './columns.js';

export interface BookingRow {
  id: string;
  workspace_id: string;
  customer_id: string;
  availability_id: string;
  tour_id: string;
  starts_at: DbTimestamp;
  status: BookingStatus;
  payment_status: PaymentStatus;
  payment_mode: PaymentMode;
  total_amount: DbBigint;
  currency: string;
  participant_count: number;
  participants: Participant[];
  add_ons: BookingAddOn[];
  amount_paid: DbBigint;
  amount_refunded: DbBigint;
  payment_intent_id: string | null;
  public_token: string | null;
  notes: string | null;
  expires_at: DbTimestamp | null;
  confirmed_at: DbTimestamp | null;
  cancelled_at: DbTimestamp | null;
  cancellation_reason: string | null;
  external_reference: string | null;
  guest_message: string | null;
  holder_key: string | null;
  cancellation_policy: CancellationPolicy;
  version: number;
  created_at: DbTimestamp;
  updated_at: DbTimestamp;
}

export function toBooking(row: BookingRow): BookingRecord {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    status: row.status,
    paymentStatus: row.payment_status,
    paymentMode: row.payment_mode,
    totalAmount: toNumber(row.total_amount),
    currency: row.currency,
    availabilityId: row.availability_id,
    customerId: row.customer_id,
    tourId: row.tour_id,
    startsAt: toIso(row.starts_at),
    participantCount: row.participant_count,
    participants: row.participants,
    addOns: row.add_ons,
    amountPaid: toNumber(row.amount_paid),
    amountRefunded: toNumber(row.amount_refunded),
    paymentIntentId: row.payment_intent_id,
    publicToken: row.public_token,
    notes: row.notes,
    expiresAt: toIsoOrNull(row.expires_at),
    confirmedAt: toIsoOrNull(row.confirmed_at),
    cancelledAt: toIsoOrNull(row.cancelled_at),
    cancellationReason: row.cancellation_reason,
    externalReference: row.external_reference,
    guestMessage: row.guest_message,
    holderKey: row.holder_key,
    cancellationPolicy: row.cancellation_policy,
    version: row.version,
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
}
