import type { PublicBooking } from '@travelops/domain';
import { describe, expect, it } from 'vitest';
import { bookingCalendar, escapeIcsText, foldLine, icsUtc } from './ics.js';

describe('escapeIcsText (RFC 5545 §3.3.11)', () => {
  it.each([
    ['Old Bridge', 'Old Bridge'],
    ['Pier 4; gate B, left', 'Pier 4\\; gate B\\, left'],
    ['C:\\tours', 'C:\\\\tours'],
    ['line one\nline two\r\nthree\rfour', 'line one\\nline two\\nthree\\nfour'],
    ['bell\u0007 and tab\t', 'bell and tab\t'],
    ['END:VEVENT\r\nBEGIN:VEVENT', 'END:VEVENT\\nBEGIN:VEVENT'],
  ])('%j -> %j', (text, escaped) => {
    expect(escapeIcsText(text)).toBe(escaped);
  });
});

it('icsUtc writes a UTC DATE-TIME', () => {
  expect(icsUtc('2031-03-14T18:30:00.000Z')).toBe('20310314T183000Z');
});

describe('foldLine (§3.1)', () => {
  it('leaves a line of 75 octets alone and folds a longer one with CRLF and a space', () => {
    expect(foldLine('x'.repeat(75))).toBe('x'.repeat(75));
    const folded = foldLine(`SUMMARY:${'y'.repeat(200)}`);
    const lines = folded.split('\r\n');
    expect(lines.length).toBe(3);
    for (const line of lines) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    expect(lines.slice(1).every((line) => line.startsWith(' '))).toBe(true);
    expect(lines.map((line, i) => (i === 0 ? line : line.slice(1))).join('')).toBe(
      `SUMMARY:${'y'.repeat(200)}`,
    );
  });

  it('never splits a UTF-8 character', () => {
    const text = `SUMMARY:${'Ærø 🚲 '.repeat(20)}`;
    const lines = foldLine(text).split('\r\n');
    for (const line of lines) {
      expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
      expect(line).not.toContain('\uFFFD');
    }
    expect(lines.map((line, i) => (i === 0 ? line : line.slice(1))).join('')).toBe(text);
  });
});

const booking = (overrides: Partial<PublicBooking> = {}): PublicBooking => ({
  id: 'bkg_1',
  publicToken: 'tok',
  status: 'CONFIRMED',
  paymentStatus: 'PAID',
  paymentMode: 'CHECKOUT',
  totalAmount: 5000,
  amountPaid: 5000,
  amountRefunded: 0,
  currency: 'EUR',
  startsAt: '2031-03-14T18:30:00.000Z',
  tour: {
    id: 'tour_1',
    name: 'Night Walk, by the river; "lanterns"',
    meetingPoint: 'Old Bridge\nnorth side',
    durationMinutes: 90,
    timeZone: 'Europe/Berlin',
  },
  participantCount: 2,
  participants: [],
  addOns: [],
  expiresAt: null,
  confirmedAt: null,
  cancelledAt: null,
  cancellationReason: null,
  cancellationPolicy: { cutoffHours: 24, refund: 'FULL', refundPercent: null },
  cancellationCutoffAt: '2031-03-13T18:30:00.000Z',
  cancellable: true,
  cancellationRefund: 5000,
  createdAt: '2031-01-01T00:00:00.000Z',
  updatedAt: '2031-01-02T00:00:00.000Z',
  ...overrides,
});

describe('bookingCalendar', () => {
  const now = new Date('2031-02-01T12:00:00.000Z');

  it('one VEVENT in UTC, start plus the duration, escaped text, CRLF line ends', () => {
    const ics = bookingCalendar(booking(), { uidDomain: 'api.example.com', now });
    expect(ics.endsWith('\r\n')).toBe(true);
    expect(ics.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    const lines = ics.split('\r\n');
    expect(lines.slice(0, 2)).toEqual(['BEGIN:VCALENDAR', 'VERSION:2.0']);
    expect(lines).toContain('UID:bkg_1@api.example.com');
    expect(lines).toContain('DTSTAMP:20310201T120000Z');
    expect(lines).toContain('DTSTART:20310314T183000Z');
    expect(lines).toContain('DTEND:20310314T200000Z');
    expect(lines).toContain('SUMMARY:Night Walk\\, by the river\\; "lanterns"');
    expect(lines).toContain('LOCATION:Old Bridge\\nnorth side');
    expect(lines).toContain('STATUS:CONFIRMED');
    expect(lines.filter((line) => line === 'BEGIN:VEVENT')).toHaveLength(1);
  });

  it('an unpaid booking is TENTATIVE, a cancelled one CANCELLED; the token is never written', () => {
    expect(bookingCalendar(booking({ status: 'PENDING' }), { uidDomain: 'x', now })).toContain(
      'STATUS:TENTATIVE',
    );
    const cancelled = bookingCalendar(booking({ status: 'CANCELLED', publicToken: 'secret-token' }), {
      uidDomain: 'x',
      now,
    });
    expect(cancelled).toContain('STATUS:CANCELLED');
    expect(cancelled).not.toContain('secret-token');
  });
});
