import { describe, expect, it } from 'vitest';
import type { OutboxEvent } from '../../events/index.js';
import { NATIVE_CHANNEL, publicChannel, resellerChannel } from '../channel-policy.js';
import { aBooking, NOW, recordingStores } from '../test-fixtures.js';
import { announceBooking, confirmationWithinCap, createdNotices } from './announce-booking.js';

describe('confirmationWithinCap', () => {
  it.each([
    [1, 5, true],
    [5, 5, true],
    [6, 5, false],
    [60, 5, false],
    [1000, null, true],
  ] as const)('the %ith confirmation to one address this hour, cap %s: sent %s', (sent, cap, allowed) => {
    expect(confirmationWithinCap(sent, cap)).toBe(allowed);
  });
});

describe('createdNotices', () => {
  it.each([
    ['native', NATIVE_CHANNEL, 'PENDING', ['booking.created'], false],
    ['native', NATIVE_CHANNEL, 'CONFIRMED', ['booking.created', 'booking.confirmed'], false],
    ['public', publicChannel(), 'PENDING', ['booking.created'], false],
    ['public', publicChannel(), 'CONFIRMED', ['booking.created', 'booking.confirmed'], true],
    ['reseller', resellerChannel(30), 'PENDING', ['booking.created'], false],
  ] as const)(
    '%s channel, %s booking: events %j, confirmation e-mail %s',
    (_c, policy, status, events, email) => {
      expect(createdNotices(status, policy)).toEqual({ events, emailConfirmation: email });
    },
  );
});

describe('announceBooking', () => {
  it("appends the events, then the guest's e-mail request, each under the booking's id", async () => {
    const { stores, calls } = recordingStores();
    const booking = aBooking({ status: 'CONFIRMED' });
    await announceBooking(stores, { now: () => NOW }, booking, publicChannel());
    const appended = calls.map(({ call, args }) => [call, (args[0] as OutboxEvent).type, args[1]]);
    expect(appended).toEqual([
      ['outbox.append', 'booking.created', 'bkg_1'],
      ['outbox.append', 'booking.confirmed', 'bkg_1'],
      ['outbox.append', 'notification.email_requested', 'bkg_1'],
    ]);
    expect((calls[2]?.args[0] as OutboxEvent | undefined)?.data).toEqual({
      template: 'booking_confirmed',
      bookingId: 'bkg_1',
      customerId: 'cus_1',
    });
  });
});
