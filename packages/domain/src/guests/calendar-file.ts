/**
 * An iCalendar file (RFC 5545) of one event: what a guest's calendar imports from the
 * `.ics` attached to a confirmation. Pure text in, text out; no date or I/O library.
 */

/** One event, in UTC; text fields are plain text (this module escapes them). */
export interface CalendarEvent {
  /** Globally unique and stable across updates (`bkg_...@host`): a re-import replaces the event. */
  uid: string;
  /** When this file was made (DTSTAMP). */
  stamp: Date;
  start: Date;
  end: Date;
  summary: string;
  location?: string | null;
  description?: string | null;
  status: 'TENTATIVE' | 'CONFIRMED' | 'CANCELLED';
  /** Grows with every revision (the booking's version), so calendars keep the newest one. */
  sequence?: number;
}

const PRODUCT_ID = '-//TravelOps//Guest e-mails//EN';

/**
 * §3.3.11 TEXT: backslash, semicolon and comma are escaped, line breaks become `\n`, and other
 * control characters (not allowed in a content line, §3.1) are dropped.
 */
export function escapeIcsText(text: string): string {
  return (
    text
      .replace(/\\/g, '\\\\')
      .replace(/;/g, '\\;')
      .replace(/,/g, '\\,')
      .replace(/\r\n|\r|\n/g, '\\n')
      // biome-ignore lint/suspicious/noControlCharactersInRegex: dropping them is the point.
      .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '')
  );
}

/** §3.3.5 form 2: `2031-03-14T18:30:00.000Z` -> `20310314T183000Z`. */
export function icsDateTime(instant: Date): string {
  return instant
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/[-:]/g, '');
}

const encoder = new TextEncoder();
const FIRST_LINE_OCTETS = 75;

/**
 * §3.1: a content line longer than 75 octets is folded (CRLF and one space), never inside a
 * UTF-8 character. The space counts against the continuation line, so it holds 74 octets.
 */
export function foldIcsLine(line: string): string {
  const parts: string[] = [];
  let current = '';
  let octets = 0;
  for (const char of line) {
    const size = encoder.encode(char).length;
    const room = parts.length === 0 ? FIRST_LINE_OCTETS : FIRST_LINE_OCTETS - 1;
    if (octets + size > room) {
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

/** The event as a VCALENDAR (METHOD:PUBLISH): CRLF line ends, escaped text, folded lines. */
export function toIcs(event: CalendarEvent): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:${PRODUCT_ID}`,
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    'BEGIN:VEVENT',
    `UID:${escapeIcsText(event.uid)}`,
    `DTSTAMP:${icsDateTime(event.stamp)}`,
    `DTSTART:${icsDateTime(event.start)}`,
    `DTEND:${icsDateTime(event.end)}`,
    `SEQUENCE:${Math.max(0, Math.trunc(event.sequence ?? 0))}`,
    `SUMMARY:${escapeIcsText(event.summary)}`,
    ...(event.location ? [`LOCATION:${escapeIcsText(event.location)}`] : []),
    ...(event.description ? [`DESCRIPTION:${escapeIcsText(event.description)}`] : []),
    `STATUS:${event.status}`,
    'TRANSP:OPAQUE',
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return `${lines.map(foldIcsLine).join('\r\n')}\r\n`;
}
