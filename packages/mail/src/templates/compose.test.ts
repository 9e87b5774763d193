import type { PublicBooking } from '@travelops/domain/guests';
import { GUEST_EMAIL_KINDS, type GuestEmailContext } from '@travelops/domain/notifications';
import { describe, expect, it } from 'vitest';
import { composeGuestEmail } from './compose.js';

const HOSTILE = `<script>alert("x")</script><img src=x onerror=alert(1)> & 'quotes'`;

const booking: PublicBooking = {
  id: 'bkg_0123456789abcdefghijkl',
  publicToken: 'tok_guest_link_0123456789abcdef',
  status: 'CONFIRMED',
  paymentStatus: 'PENDING',
  paymentMode: 'DEPOSIT',
  totalAmount: 12500,
  amountPaid: 2500,
  amountRefunded: 0,
  currency: 'EUR',
  startsAt: '2031-07-14T16:30:00.000Z',
  tour: {
    id: 'tour_1',
    name: 'Fjord kayak',
    meetingPoint: 'Pier 3, Bergen',
    durationMinutes: 150,
    timeZone: 'Europe/Oslo',
  },
  participantCount: 2,
  participants: [
    {
      id: 'ptc_1',
      name: 'Ada Lovelace',
      ageBand: 'ADULT',
      ticketTypeId: null,
      ticketTypeName: null,
      price: 6250,
      waiverSigned: false,
      checkedInAt: null,
      dietaryNotes: null,
      accessibilityNotes: null,
      emergencyContactHint: null,
    },
    {
      id: 'ptc_2',
      name: 'Charles Babbage',
      ageBand: 'ADULT',
      ticketTypeId: null,
      ticketTypeName: null,
      price: 6250,
      waiverSigned: false,
      checkedInAt: null,
      dietaryNotes: null,
      accessibilityNotes: null,
      emergencyContactHint: null,
    },
  ],
  addOns: [],
  expiresAt: null,
  confirmedAt: '2031-07-01T10:00:00.000Z',
  cancelledAt: null,
  cancellationReason: null,
  cancellationPolicy: { cutoffHours: 24, refund: 'FULL', refundPercent: null },
  cancellationCutoffAt: '2031-07-13T16:30:00.000Z',
  cancellable: true,
  cancellationRefund: 2500,
  createdAt: '2031-07-01T09:50:00.000Z',
  updatedAt: '2031-07-01T10:00:00.000Z',
};

const links = {
  bookingPage: 'https://tours.example/b/tok_guest_link_0123456789abcdef',
  calendarFile: 'https://tours.example/b/tok_guest_link_0123456789abcdef/booking.ics',
  unsubscribe: null,
};

const context = (overrides: Partial<GuestEmailContext> = {}): GuestEmailContext => ({
  kind: 'booking_confirmed',
  request: { template: 'booking_confirmed' },
  booking,
  customerName: 'Ada Lovelace',
  workspaceName: 'Fjord Tours',
  replyTo: 'hello@fjord.example',
  links,
  now: new Date('2031-07-01T10:00:01.000Z'),
  ...overrides,
});

describe('composeGuestEmail', () => {
  it('invites a reply only when the workspace set a reply-to (else the reply would reach nobody)', () => {
    const withReplyTo = composeGuestEmail(context());
    expect(withReplyTo.text).toContain(
      'You receive this e-mail because of your booking with Fjord Tours. Reply to this e-mail to reach them.',
    );
    const without = composeGuestEmail(context({ replyTo: null }));
    expect(without.text).toContain('You receive this e-mail because of your booking with Fjord Tours.');
    for (const part of [without.text, without.html]) expect(part).not.toMatch(/reply/i);
  });

  it('the confirmation: local time of the tour (Oslo, summer), meeting point, participants, amounts, the link', () => {
    const email = composeGuestEmail(context());
    expect(email.subject).toBe('Booking confirmed: Fjord kayak, Mon 14 Jul, 18:30');
    for (const part of [email.text, email.html]) {
      expect(part).toContain('Monday, 14 July 2031 at 18:30 CEST');
      expect(part).toContain('Pier 3, Bergen');
      expect(part).toContain('Ada Lovelace');
      expect(part).toContain('Charles Babbage');
      expect(part).toContain('€125.00');
      expect(part).toContain('€25.00');
      expect(part).toContain('€100.00');
      expect(part).toContain(links.bookingPage);
      expect(part).toContain('booking.ics');
    }
    expect(email.html).toMatch(/^<!doctype html>/);
  });

  it('escapes whatever a guest, an operator or a tour name holds in the HTML part, and keeps it readable in the text', () => {
    const hostile = context({
      customerName: HOSTILE,
      workspaceName: HOSTILE,
      booking: {
        ...booking,
        tour: booking.tour && { ...booking.tour, name: HOSTILE, meetingPoint: HOSTILE },
        participants: booking.participants.map((p) => ({ ...p, name: HOSTILE })),
      },
    });
    for (const kind of GUEST_EMAIL_KINDS) {
      const email = composeGuestEmail({ ...hostile, kind, request: null });
      expect(email.html).not.toContain('<script>');
      expect(email.html).not.toContain('<img');
      expect(email.html).not.toMatch(/<[^>]*onerror/);
      expect(email.html).toContain('&lt;script&gt;');
      expect(email.text).toContain(HOSTILE);
      expect(email.subject).not.toMatch(/[\r\n]/);
    }
  });

  it('a subject never carries a line break (no header injection through a tour name)', () => {
    const email = composeGuestEmail(
      context({
        booking: {
          ...booking,
          tour: booking.tour && { ...booking.tour, name: 'Kayak\r\nBcc: eve@evil.example' },
        },
      }),
    );
    expect(email.subject).toBe('Booking confirmed: Kayak Bcc: eve@evil.example, Mon 14 Jul, 18:30');
  });

  it.each([
    [
      'payment_received',
      { template: 'payment_received', paymentId: 'pay_1', amount: 2500, currency: 'EUR' },
      'Payment received: €25.00 for Fjord kayak',
    ],
    [
      'booking_changed',
      {
        template: 'booking_changed',
        previousStartsAt: '2031-07-10T16:30:00.000Z',
        previousParticipantCount: 3,
      },
      'Booking changed: Fjord kayak, Mon 14 Jul, 18:30',
    ],
    [
      'booking_cancelled',
      { template: 'booking_cancelled', refundAmount: 2500, reason: 'Storm warning' },
      'Booking cancelled: Fjord kayak, Mon 14 Jul, 18:30',
    ],
    [
      'booking_status_changed',
      { template: 'booking_status_changed', status: 'COMPLETED', reason: null },
      'Thank you for travelling with Fjord Tours',
    ],
    ['departure_reminder', null, 'Reminder: Fjord kayak, Mon 14 Jul, 18:30'],
  ] as const)('%s: %s', (kind, request, subject) => {
    const email = composeGuestEmail(context({ kind, request }));
    expect(email.subject).toBe(subject);
    expect(email.text).toContain('Hello Ada Lovelace,');
    expect(email.text).toContain('Fjord Tours');
  });

  it('the change says where it was, the cancellation what it refunds', () => {
    const changed = composeGuestEmail(
      context({
        kind: 'booking_changed',
        request: {
          template: 'booking_changed',
          previousStartsAt: '2031-07-10T16:30:00.000Z',
          previousParticipantCount: 3,
        },
      }),
    );
    expect(changed.text).toContain('Thursday, 10 July 2031 at 18:30 CEST');
    expect(changed.text).toContain('It is now for 2, no longer 3.');
    const cancelled = composeGuestEmail(
      context({
        kind: 'booking_cancelled',
        booking: { ...booking, status: 'CANCELLED', amountRefunded: 2500 },
        request: { template: 'booking_cancelled', refundAmount: 2500, reason: 'Storm warning' },
      }),
    );
    expect(cancelled.text).toContain('We are refunding €25.00');
    expect(cancelled.text).toContain('Storm warning');
  });

  it('the hold warning links the booking page to pay, the reminder its opt-out', () => {
    const hold = composeGuestEmail(
      context({
        kind: 'hold_expiring',
        request: null,
        booking: { ...booking, status: 'PENDING', amountPaid: 0, expiresAt: '2031-07-01T10:15:00.000Z' },
      }),
    );
    expect(hold.subject).toBe('Your seats on Fjord kayak are held until Tuesday, 1 July 2031 at 12:15 CEST');
    expect(hold.html).toContain(`href="${links.bookingPage}"`);
    expect(hold.text).toContain('Pay on your booking page');
    const reminder = composeGuestEmail(
      context({
        kind: 'departure_reminder',
        request: null,
        links: { ...links, unsubscribe: 'https://tours.example/mail/unsubscribe/tok' },
      }),
    );
    expect(reminder.html).toContain('href="https://tours.example/mail/unsubscribe/tok"');
  });

  it('a currency without minor units (JPY) and one with three (BHD)', () => {
    expect(
      composeGuestEmail(context({ booking: { ...booking, currency: 'JPY', totalAmount: 12500 } })).text,
    ).toContain('¥12,500');
    expect(
      composeGuestEmail(context({ booking: { ...booking, currency: 'BHD', totalAmount: 12500 } })).text,
    ).toMatch(/BHD\s12\.500/);
    // ISO 4217's three digits (the service's table), where the runtime's CLDR shows none.
    expect(
      composeGuestEmail(context({ booking: { ...booking, currency: 'IQD', totalAmount: 12500 } })).text,
    ).toMatch(/IQD\s12\.500/);
  });
});
