import { describe, expect, it } from 'vitest';
import {
  type BookingChannelPolicy,
  NATIVE_CHANNEL,
  publicChannel,
  resellerChannel,
} from './channel-policy.js';

const holder = { key: 'client-a', maxLiveHolds: 2 };

// The whole difference between the channels, in one table: a change here changes what a channel may do.
const table: Array<[string, BookingChannelPolicy, BookingChannelPolicy]> = [
  [
    'native',
    NATIVE_CHANNEL,
    {
      publishedToursOnly: false,
      paymentModes: null,
      hold: { by: 'paymentMode' },
      holdsWhenFree: false,
      capsSeatsPerBooking: false,
      holder: null,
      emailsConfirmation: false,
      confirmationsPerRecipientPerHour: null,
      notesBy: 'operator',
      seats: 'atCommit',
      changesTour: false,
    },
  ],
  [
    'public',
    publicChannel(holder),
    {
      publishedToursOnly: true,
      paymentModes: {
        allowed: ['CHECKOUT', 'DEPOSIT'],
        refusal: 'Guests pay online: use CHECKOUT or DEPOSIT.',
      },
      hold: { by: 'tour' },
      holdsWhenFree: false,
      capsSeatsPerBooking: true,
      holder,
      emailsConfirmation: true,
      confirmationsPerRecipientPerHour: null,
      notesBy: 'guest',
      seats: 'atCommit',
      changesTour: false,
    },
  ],
  [
    'reseller',
    resellerChannel(45),
    {
      publishedToursOnly: true,
      paymentModes: { allowed: ['MANUAL'], refusal: 'A reseller books in MANUAL mode.' },
      hold: { by: 'minutes', minutes: 45 },
      holdsWhenFree: true,
      capsSeatsPerBooking: false,
      holder: null,
      emailsConfirmation: false,
      confirmationsPerRecipientPerHour: null,
      notesBy: 'operator',
      seats: 'now',
      changesTour: true,
    },
  ],
];

describe('the booking channels, knob by knob', () => {
  it.each(table)('%s', (_channel, policy, knobs) => {
    expect(policy).toEqual(knobs);
  });

  it('a guest without a known client is held for nobody (no live-hold brake)', () => {
    expect(publicChannel().holder).toBeNull();
  });

  it.each([0, -5, Number.NaN])("a reseller's hold of %s minutes is a caller's bug: it throws", (minutes) => {
    expect(() => resellerChannel(minutes)).toThrow('A reseller holds its reservation for some minutes.');
  });
});
