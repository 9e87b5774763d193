import { describe, expect, it } from 'vitest';
import { guestBookingEvent } from './booking-event.js';
import { toIcs } from './calendar-file.js';
import type { PublicBooking } from './guest-view.js';

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

describe('guestBookingEvent through toIcs (the guest page and the confirmation share the file)', () => {
  const now = new Date('2031-02-01T12:00:00.000Z');

  it('one VEVENT in UTC, start plus the duration, escaped text, CRLF line ends', () => {
    const ics = toIcs(guestBookingEvent(booking(), { uidDomain: 'api.example.com', now }));
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
    expect(toIcs(guestBookingEvent(booking({ status: 'PENDING' }), { uidDomain: 'x', now }))).toContain(
      'STATUS:TENTATIVE',
    );
    const cancelled = toIcs(
      guestBookingEvent(booking({ status: 'CANCELLED', publicToken: 'secret-token' }), {
        uidDomain: 'x',
        now,
      }),
    );
    expect(cancelled).toContain('STATUS:CANCELLED');
    expect(cancelled).not.toContain('secret-token');
  });
});
