import type { BookingRecord } from '../bookings/index.js';
import type { PublicBooking } from '../guests/index.js';
import { guestBookingEvent, toIcs } from '../guests/index.js';
import type { BookingStatus } from '../shared/enums.js';
import type { GuestLinks } from './ports.js';
import type { EmailAttachment, GuestEmailKind, GuestEmailRequest } from './schemas.js';

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

/**
 * The e-mail an operator's status change sends when `notifyCustomer` is true: confirming and
 * cancelling send the same message a payment or a guest's cancel would; the end states a short
 * note. (A move to PENDING does not exist.)
 */
export function requestForStatusChange(
  status: BookingStatus,
  details: { refundAmount: number; reason: string | null },
): GuestEmailRequest {
  switch (status) {
    case 'CONFIRMED':
      return { template: 'booking_confirmed' };
    case 'CANCELLED':
      return { template: 'booking_cancelled', refundAmount: details.refundAmount, reason: details.reason };
    default:
      return { template: 'booking_status_changed', status, reason: details.reason };
  }
}

/**
 * The reminder of a CONFIRMED booking is due from `reminderHoursBefore` before the start until
 * the start, when the booking was confirmed before that window opened (one confirmed inside it
 * has just had its confirmation). Null hours: the tour sends none.
 */
export function reminderDue(
  booking: Pick<BookingRecord, 'status' | 'startsAt' | 'confirmedAt'>,
  hoursBefore: number | null,
  now: Date,
): boolean {
  if (hoursBefore === null || booking.status !== 'CONFIRMED' || booking.confirmedAt === null) return false;
  const start = Date.parse(booking.startsAt);
  const opens = start - hoursBefore * HOUR_MS;
  return now.getTime() >= opens && now.getTime() < start && Date.parse(booking.confirmedAt) < opens;
}

/**
 * An unpaid public hold is warned once it has `withinMinutes` or less to live, if it has held
 * that long already: a guest who booked a moment ago is still at the checkout.
 */
export function holdWarningDue(
  booking: Pick<BookingRecord, 'status' | 'holderKey' | 'expiresAt' | 'createdAt'>,
  withinMinutes: number,
  now: Date,
): boolean {
  if (booking.status !== 'PENDING' || booking.holderKey === null || booking.expiresAt === null) return false;
  const left = Date.parse(booking.expiresAt) - now.getTime();
  const held = now.getTime() - Date.parse(booking.createdAt);
  return left > 0 && left <= withinMinutes * MINUTE_MS && held >= withinMinutes * MINUTE_MS;
}

/** One reminder per booking and start: a booking moved to another day is reminded again. */
export const reminderKey = (bookingId: string, startsAt: string): string =>
  `reminder:${bookingId}:${Date.parse(startsAt)}`;

/** One hold warning per booking, however often its hold is extended. */
export const holdWarningKey = (bookingId: string): string => `hold_expiring:${bookingId}`;

/**
 * Where the message goes: the booking's customer's address and nowhere else; null when it
 * cannot be one (no `@`, white space or angle brackets: it would not survive an SMTP envelope).
 */
export function recipientOf(customer: { email: string }): string | null {
  const email = customer.email.trim();
  return /^[^\s@<>,;"]+@[^\s@<>,;"]+$/.test(email) ? email : null;
}

/** The guest's pages (served beside the API) and the reminders' opt-out. */
export function guestLinks(
  publicBaseUrl: string,
  publicToken: string | null,
  kind: GuestEmailKind,
): GuestLinks {
  if (!publicToken) return { bookingPage: null, calendarFile: null, unsubscribe: null };
  const page = `${publicBaseUrl}/b/${encodeURIComponent(publicToken)}`;
  return {
    bookingPage: page,
    calendarFile: `${page}/booking.ics`,
    unsubscribe:
      kind === 'departure_reminder'
        ? `${publicBaseUrl}/mail/unsubscribe/${encodeURIComponent(publicToken)}`
        : null,
  };
}

/** `List-Unsubscribe` (RFC 2369) with one-click (RFC 8058): a POST to the link stops reminders. */
export function unsubscribeHeaders(links: GuestLinks): Record<string, string> {
  if (!links.unsubscribe) return {};
  return {
    'List-Unsubscribe': `<${links.unsubscribe}>`,
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  };
}

const WITH_CALENDAR: ReadonlySet<GuestEmailKind> = new Set(['booking_confirmed', 'booking_changed']);

/**
 * The confirmation and a change of a confirmed booking carry the departure as an `.ics`: the
 * same UID every time (with the booking's version as SEQUENCE), so a calendar updates its
 * entry. No link in it: calendars are shared, and the guest link is the booking's key.
 */
export function calendarAttachment(
  kind: GuestEmailKind,
  booking: PublicBooking & { version: number },
  options: { uidDomain: string; now: Date },
): EmailAttachment | null {
  if (!WITH_CALENDAR.has(kind) || booking.status !== 'CONFIRMED') return null;
  const content = toIcs(
    guestBookingEvent(booking, { uidDomain: options.uidDomain, now: options.now, sequence: booking.version }),
  );
  return { filename: 'booking.ics', contentType: 'text/calendar; charset=utf-8; method=PUBLISH', content };
}
