import { describe, expect, it } from 'vitest';
import { checkoutDescription } from './start-checkout.js';

describe('checkoutDescription: what the payer reads on the provider page', () => {
  it.each([
    [
      { name: 'Harbour Walk', timeZone: 'UTC' },
      '2030-07-01T08:00:00.000Z',
      'FULL',
      'Harbour Walk, 2030-07-01',
    ],
    [
      { name: 'Night Sky', timeZone: 'Asia/Tokyo' },
      '2030-07-01T20:00:00.000Z',
      'DEPOSIT',
      'Night Sky, 2030-07-02 (deposit)',
    ],
    [
      { name: 'Dawn Ride', timeZone: 'America/New_York' },
      '2030-07-01T02:00:00.000Z',
      'BALANCE',
      'Dawn Ride, 2030-06-30 (balance)',
    ],
    [null, '2030-07-01T08:00:00.000Z', 'FULL', 'Booking, 2030-07-01'],
  ] as const)('%j at %s (%s): %s', (tour, startsAt, purpose, line) => {
    expect(checkoutDescription(tour, startsAt, purpose)).toBe(line);
  });
});
