import type { PublicBooking } from '@travelops/domain';

/** RFC 5545 §3.3.11: backslash, semicolon and comma are escaped; line breaks become `\n`. */
export const escapeIcsText = (text: string): string =>
  text
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n')
    // Other control characters have no place in a TEXT value (§3.1: CONTROL is not allowed).
    // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point.
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '');

/** `2031-03-14T18:30:00.000Z` -> `20310314T183000Z` (a UTC DATE-TIME, §3.3.5 form 2). */
export const icsUtc = (iso: string): string =>
  new Date(iso)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

/**
 * §3.1: lines longer than 75 octets are folded (CRLF and one space), never inside a UTF-8
 * character.
 */
export function foldLine(line: string): string {
  const parts: string[] = [];
  let current = '';
  let octets = 0;
  for (const char of line) {
    const size = Buffer.byteLength(char, 'utf8');
    // The first line holds 75 octets; continuation lines hold 74 after their leading space.
    if (octets + size > (parts.length === 0 ? 75 : 74)) {
      parts.push(current);
      current = '';
      octets = 0;
    }
    current += char;
    octets += size;
  }
  parts.push(current);
  return parts.join('\r\n ');
}

export interface IcsOptions {
  /** The domain part of the UID (the service's host): unique across calendars. */
  uidDomain: string;
  now: Date;
}

const EVENT_STATUS: Record<PublicBooking['status'], string> = {
  PENDING: 'TENTATIVE',
  CONFIRMED: 'CONFIRMED',
  COMPLETED: 'CONFIRMED',
  NO_SHOW: 'CONFIRMED',
  CANCELLED: 'CANCELLED',
};

/**
 * The booking as one calendar event (RFC 5545): UTC times, escaped text, CRLF lines. It holds
 * no link with the guest's token: calendars are often shared, the token is the booking's key.
 */
export function bookingCalendar(booking: PublicBooking, options: IcsOptions): string {
  const start = Date.parse(booking.startsAt);
  const minutes = booking.tour?.durationMinutes ?? 60;
  const end = new Date(start + minutes * 60_000).toISOString();
  const names = booking.participants.map((p) => p.name).join(', ');
  const description = [
    `Booking ${booking.id}`,
    `${booking.participantCount} ${booking.participantCount === 1 ? 'participant' : 'participants'}: ${names}`,
    ...(booking.tour?.meetingPoint ? [`Meeting point: ${booking.tour.meetingPoint}`] : []),
  ].join('\n');
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//TravelOps//Guest booking//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    'BEGIN:VEVENT',
    `UID:${escapeIcsText(`${booking.id}@${options.uidDomain}`)}`,
    `DTSTAMP:${icsUtc(options.now.toISOString())}`,
    `LAST-MODIFIED:${icsUtc(booking.updatedAt)}`,
    `DTSTART:${icsUtc(booking.startsAt)}`,
    `DTEND:${icsUtc(end)}`,
    `SUMMARY:${escapeIcsText(booking.tour?.name ?? 'Tour')}`,
    ...(booking.tour?.meetingPoint ? [`LOCATION:${escapeIcsText(booking.tour.meetingPoint)}`] : []),
    `DESCRIPTION:${escapeIcsText(description)}`,
    `STATUS:${EVENT_STATUS[booking.status]}`,
    'TRANSP:OPAQUE',
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return `${lines.map(foldLine).join('\r\n')}\r\n`;
}
