import { describe, expect, it } from 'vitest';
import {
  guestLinks,
  holdWarningDue,
  recipientOf,
  reminderDue,
  reminderKey,
  requestForStatusChange,
  unsubscribeHeaders,
} from './rules.js';

const at = (iso: string) => new Date(iso);
const START = '2031-03-14T18:00:00.000Z';

describe('reminderDue (24 h before a start at 18:00Z on the 14th)', () => {
  const confirmedLongAgo = {
    status: 'CONFIRMED' as const,
    startsAt: START,
    confirmedAt: '2031-03-01T00:00:00.000Z',
  };
  it.each([
    ['a day and a minute before: not yet', confirmedLongAgo, 24, '2031-03-13T17:59:00.000Z', false],
    ['exactly a day before: due', confirmedLongAgo, 24, '2031-03-13T18:00:00.000Z', true],
    ['an hour before: still due', confirmedLongAgo, 24, '2031-03-14T17:00:00.000Z', true],
    ['at the start: too late', confirmedLongAgo, 24, START, false],
    ['the tour sends none (null)', confirmedLongAgo, null, '2031-03-14T17:00:00.000Z', false],
    ['a 2 h reminder, 3 h before: not yet', confirmedLongAgo, 2, '2031-03-14T15:00:00.000Z', false],
    [
      'confirmed inside the window (the confirmation just went): none',
      { ...confirmedLongAgo, confirmedAt: '2031-03-14T08:00:00.000Z' },
      24,
      '2031-03-14T09:00:00.000Z',
      false,
    ],
    [
      'a PENDING booking: none',
      { ...confirmedLongAgo, status: 'PENDING' as const },
      24,
      '2031-03-14T09:00:00.000Z',
      false,
    ],
    [
      'a CANCELLED booking: none',
      { ...confirmedLongAgo, status: 'CANCELLED' as const },
      24,
      '2031-03-14T09:00:00.000Z',
      false,
    ],
  ])('%s', (_name, booking, hours, now, expected) => {
    expect(reminderDue(booking, hours, at(now))).toBe(expected);
  });
});

describe('holdWarningDue (5 minutes)', () => {
  const hold = {
    status: 'PENDING' as const,
    holderKey: 'hmac',
    createdAt: '2031-03-01T10:00:00.000Z',
    expiresAt: '2031-03-01T10:15:00.000Z',
  };
  it.each([
    ['10 minutes left: not yet', hold, '2031-03-01T10:05:00.000Z', false],
    ['5 minutes left: due', hold, '2031-03-01T10:10:00.000Z', true],
    ['1 second left: due', hold, '2031-03-01T10:14:59.000Z', true],
    ['expired: too late', hold, '2031-03-01T10:15:00.000Z', false],
    ['an API hold (no holder): never', { ...hold, holderKey: null }, '2031-03-01T10:12:00.000Z', false],
    ['paid (CONFIRMED): never', { ...hold, status: 'CONFIRMED' as const }, '2031-03-01T10:12:00.000Z', false],
    ['no expiry (MANUAL): never', { ...hold, expiresAt: null }, '2031-03-01T10:12:00.000Z', false],
    [
      'a 5-minute hold made a minute ago: the guest is still at the checkout',
      { ...hold, expiresAt: '2031-03-01T10:05:00.000Z' },
      '2031-03-01T10:01:00.000Z',
      false,
    ],
  ])('%s', (_name, booking, now, expected) => {
    expect(holdWarningDue(booking, 5, at(now))).toBe(expected);
  });
});

describe('requestForStatusChange', () => {
  it.each([
    ['CONFIRMED', { template: 'booking_confirmed' }],
    ['CANCELLED', { template: 'booking_cancelled', refundAmount: 500, reason: 'storm' }],
    ['COMPLETED', { template: 'booking_status_changed', status: 'COMPLETED', reason: 'storm' }],
    ['NO_SHOW', { template: 'booking_status_changed', status: 'NO_SHOW', reason: 'storm' }],
  ] as const)('%s', (status, expected) => {
    expect(requestForStatusChange(status, { refundAmount: 500, reason: 'storm' })).toEqual(expected);
  });
});

describe('recipientOf', () => {
  it.each([
    ['ada@example.com', 'ada@example.com'],
    ['  ada@example.com ', 'ada@example.com'],
    ['ada@example.com>, eve@evil.example', null],
    ['ada@example.com\r\nBcc: eve@evil.example', null],
    ['no-at-sign', null],
  ])('%j -> %j', (email, expected) => {
    expect(recipientOf({ email })).toBe(expected);
  });
});

describe('links', () => {
  it('the booking page, its .ics, and an opt-out on reminders only', () => {
    expect(guestLinks('https://t.example', 'tok123', 'booking_confirmed')).toEqual({
      bookingPage: 'https://t.example/b/tok123',
      calendarFile: 'https://t.example/b/tok123/booking.ics',
      unsubscribe: null,
    });
    const reminder = guestLinks('https://t.example', 'tok123', 'departure_reminder');
    expect(reminder.unsubscribe).toBe('https://t.example/mail/unsubscribe/tok123');
    expect(unsubscribeHeaders(reminder)).toEqual({
      'List-Unsubscribe': '<https://t.example/mail/unsubscribe/tok123>',
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
    expect(guestLinks('https://t.example', null, 'departure_reminder').bookingPage).toBeNull();
  });

  it('a reminder key names the booking and its start', () => {
    expect(reminderKey('bkg_1', START)).toBe(`reminder:bkg_1:${Date.parse(START)}`);
  });
});
