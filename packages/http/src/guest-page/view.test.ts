import type { PublicBooking } from '@travelops/domain/guests';
import { describe, expect, it } from 'vitest';
import { localeOf } from './format.js';
import { bookingPage, checkoutRedirectPage, guestPagePolicy, notFoundPage } from './view.js';

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
  participants: [
    {
      id: 'ptc_1',
      name: '<script>alert(1)</script>',
      ageBand: 'ADULT',
      ticketTypeId: null,
      ticketTypeName: null,
      price: 2500,
      waiverSigned: false,
      checkedInAt: null,
      dietaryNotes: null,
      accessibilityNotes: null,
      emergencyContactHint: null,
    },
    {
      id: 'ptc_2',
      name: 'Bo "the kid"',
      ageBand: 'CHILD',
      ticketTypeId: null,
      ticketTypeName: null,
      price: 2500,
      waiverSigned: true,
      checkedInAt: null,
      dietaryNotes: null,
      accessibilityNotes: null,
      emergencyContactHint: null,
    },
  ],
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

const now = new Date('2031-02-01T12:00:00.000Z');
const render = (b: PublicBooking, extra: Partial<Parameters<typeof bookingPage>[1]> = {}) =>
  bookingPage(b, { locale: 'en-GB', now, ...extra });

describe('the booking page', () => {
  it('escapes everything a guest or an operator typed', () => {
    const html = render(booking());
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('Bo &quot;the kid&quot;');
    expect(html).toContain('Night Walk, by the river; &quot;lanterns&quot;');
  });

  it('dates in the tour time zone, money in its currency and the guest locale', () => {
    const html = render(booking());
    // 18:30Z is 19:30 in Berlin in March (CET).
    expect(html).toContain('Friday, 14 March 2031 at 19:30 CET');
    expect(html).toContain('€50.00');
    expect(render(booking(), { locale: 'de-DE' })).toContain('50,00');
    // The minor unit is the service's table (ISO 4217), not the runtime's CLDR (which shows HUF without).
    expect(render(booking({ currency: 'HUF' }), { locale: 'en-US' })).toMatch(/HUF\s50\.00/);
  });

  it('a waiver form for each participant who has not signed, none for one who has', () => {
    const html = render(booking());
    expect(html.match(/action="\/b\/tok\/waiver"/g)).toHaveLength(1);
    expect(html).toContain('name="participantId" value="ptc_1"');
    expect(html).not.toContain('value="ptc_2"');
  });

  it('shows the policy and the refund when cancellable, and the cutoff when not', () => {
    const open = render(
      booking({
        cancellationPolicy: { cutoffHours: 24, refund: 'PARTIAL', refundPercent: 50 },
        cancellationRefund: 2500,
      }),
    );
    expect(open).toContain('50 % of what you paid is refunded');
    expect(open).toContain('If you cancel now, you get €25.00 back.');
    expect(open).toContain('action="/b/tok/cancel"');
    const late = render(booking({ cancellable: false, cancellationRefund: 0 }));
    expect(late).not.toContain('action="/b/tok/cancel"');
    expect(late).toMatch(/The time to cancel online has passed: it ended on \w+day, /);
    // The deadline reads as passed, never as one still ahead.
    expect(late).not.toContain('until');
  });

  it('only known notices; errors in words, never the raw message', () => {
    expect(render(booking(), { notice: '<b>owned</b>' })).not.toContain('owned');
    expect(render(booking(), { notice: 'waiver' })).toContain('the waiver is signed');
    for (const name of Object.getOwnPropertyNames(Object.prototype)) {
      expect(render(booking(), { notice: name })).not.toContain('role="status"');
      const failed = render(booking(), { error: { details: [{ field: name, issue: name }] } });
      expect(failed).toContain('Something went wrong');
    }
    const failed = render(booking(), {
      error: {
        details: [
          { field: 'signedName', issue: 'too_long' },
          { field: 'x', issue: 'y' },
        ],
      },
    });
    expect(failed).toContain('role="alert"');
    expect(failed).toContain('Type the full name of the person signing.');
    expect(failed).toContain('Something went wrong');
  });

  it('pay buttons: a held booking pays now, a confirmed one its balance, a paid one nothing', () => {
    const held = booking({
      status: 'PENDING',
      paymentStatus: 'UNPAID',
      amountPaid: 0,
      expiresAt: '2031-02-01T12:15:00.000Z',
    });
    expect(render(held)).toContain('>Pay now</button>');
    expect(render(booking({ paymentStatus: 'PENDING', amountPaid: 1000 }))).toContain(
      'Pay the balance of €40.00',
    );
    expect(render(booking())).not.toContain('action="/b/tok/pay"');
    const lapsed = { ...held, expiresAt: '2031-02-01T11:00:00.000Z' };
    expect(render(lapsed)).not.toContain('action="/b/tok/pay"');
  });
});

it('the policy allows no script at all and forms only to this origin', () => {
  const policy = guestPagePolicy(false);
  expect(policy).toContain("script-src 'none'");
  expect(policy).toContain("form-action 'self'");
  expect(policy).toContain("frame-ancestors 'none'");
  expect(policy).not.toContain('unsafe');
  expect(policy).toMatch(/style-src 'sha256-[A-Za-z0-9+/=]+'/);
});

it('the not-found page names nothing; the checkout page escapes its URL', () => {
  expect(notFoundPage()).toContain('Booking not found');
  const page = checkoutRedirectPage('https://pay.example/x?a=1&b="2"');
  expect(page).toContain('content="0;url=https://pay.example/x?a=1&amp;b=&quot;2&quot;"');
});

it.each([
  [undefined, 'en'],
  ['', 'en'],
  ['de-DE,de;q=0.9,en;q=0.8', 'de-DE'],
  ['*', 'en'],
  ['not a tag!!, fr', 'fr'],
])('localeOf(%j) = %j', (header, locale) => {
  expect(localeOf(header)).toBe(locale);
});
