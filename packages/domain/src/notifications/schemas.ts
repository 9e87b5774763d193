import * as v from 'valibot';
import { BookingStatusSchema } from '../bookings/index.js';

/** Every e-mail the service writes to a booking's guest. */
export const GUEST_EMAIL_KINDS = [
  'booking_confirmed',
  'payment_received',
  'booking_changed',
  'booking_cancelled',
  'booking_status_changed',
  'hold_expiring',
  'departure_reminder',
] as const;
export type GuestEmailKind = (typeof GUEST_EMAIL_KINDS)[number];

/**
 * PENDING: to be sent (again); SENT: the SMTP server took it; FAILED: refused for good or past
 * the retry window; KEPT: written without SMTP (`SMTP_URL` unset), shown at `/dev/mail` only.
 */
const GUEST_EMAIL_STATUSES = ['PENDING', 'SENT', 'FAILED', 'KEPT'] as const;
type GuestEmailStatus = (typeof GUEST_EMAIL_STATUSES)[number];

const minor = v.pipe(v.number(), v.integer());

/**
 * What a use case asks for, in the data of a `notification.email_requested` event written in
 * the same transaction as the change (with `bookingId` and `customerId`). The kinds driven by
 * the clock (hold expiring, reminder) are found by the worker and never requested.
 */
export const GuestEmailRequestSchema = v.variant('template', [
  v.object({ template: v.literal('booking_confirmed') }),
  v.object({
    template: v.literal('payment_received'),
    paymentId: v.string(),
    amount: minor,
    currency: v.string(),
  }),
  v.object({
    template: v.literal('booking_changed'),
    /** The departure's start before a move; null when it did not move. */
    previousStartsAt: v.nullable(v.string()),
    /** The participant count before the list was replaced; null when it was not. */
    previousParticipantCount: v.nullable(v.number()),
  }),
  v.object({
    template: v.literal('booking_cancelled'),
    /** What this cancellation refunded (minor units); 0 when nothing. */
    refundAmount: minor,
    reason: v.nullable(v.string()),
  }),
  v.object({
    template: v.literal('booking_status_changed'),
    status: BookingStatusSchema,
    reason: v.nullable(v.string()),
  }),
]);
export type GuestEmailRequest = v.InferOutput<typeof GuestEmailRequestSchema>;

/** A file sent with the message (the `.ics` of a confirmation). */
export interface EmailAttachment {
  filename: string;
  contentType: string;
  content: string;
}

/** One message to one guest, as written: its text is final, the sender only sends it. */
export interface GuestEmail {
  id: string;
  workspaceId: string;
  bookingId: string;
  kind: GuestEmailKind;
  /** With the recipient, unique: the event id, or the reminder's or hold warning's own key. */
  dedupeKey: string;
  recipient: string;
  status: GuestEmailStatus;
  /** The workspace's name: the sender's display name (the address is the deployment's `MAIL_FROM`). */
  fromName: string;
  replyTo: string | null;
  subject: string;
  text: string;
  html: string;
  /** Extra headers (`List-Unsubscribe` on reminders). */
  headers: Record<string, string>;
  attachments: EmailAttachment[];
  attempts: number;
  nextAttemptAt: string | null;
  lastAttemptAt: string | null;
  lastError: string | null;
  sentAt: string | null;
  createdAt: string;
}

export type NewGuestEmail = Pick<
  GuestEmail,
  | 'id'
  | 'workspaceId'
  | 'bookingId'
  | 'kind'
  | 'dedupeKey'
  | 'recipient'
  | 'status'
  | 'fromName'
  | 'replyTo'
  | 'subject'
  | 'text'
  | 'html'
  | 'headers'
  | 'attachments'
>;
