import { describe, expect, it } from 'vitest';
import { NATIVE_CHANNEL, resellerChannel } from '../channel-policy.js';
import { aBooking, aRead, NOW, recordingStores } from '../test-fixtures.js';
import { DECIDE_AGAIN, seatRefusal, takeSeats } from './take-seats.js';

const read = aRead({}, {}, 7);
const fresh = { id: 'cus_new', isNew: true };
const known = { id: 'cus_old', isNew: false };

describe('takeSeats', () => {
  it.each([
    [
      'atCommit, a new customer',
      NATIVE_CHANNEL,
      fresh,
      [['departures.takeSeatsAtCommit', 'ws_1', 'avl_1', 2, 7]],
    ],
    [
      'atCommit, a known customer: its stats after the seats, with the commit too',
      NATIVE_CHANNEL,
      known,
      [
        ['departures.takeSeatsAtCommit', 'ws_1', 'avl_1', 2, 7],
        ['customers.refreshStatsAtCommit', 'ws_1', 'cus_old'],
      ],
    ],
    ['now, a new customer', resellerChannel(30), fresh, [['departures.takeSeats', 'ws_1', 'avl_1', 2, 7]]],
    [
      'now, a known customer: its stats now, after the seats',
      resellerChannel(30),
      known,
      [
        ['departures.takeSeats', 'ws_1', 'avl_1', 2, 7],
        ['customers.refreshStats', 'ws_1', 'cus_old'],
      ],
    ],
  ] as const)('%s', async (_case, policy, customer, expected) => {
    const { stores, calls } = recordingStores({
      'departures.takeSeats': () => ({ ok: true, value: true }),
    });
    expect(await takeSeats(stores, 'ws_1', read, 2, customer, policy, NOW)).toEqual({
      ok: true,
      value: true,
    });
    expect(calls.map(({ call, args }) => [call, ...args])).toEqual(expected);
  });

  it('refused now: the refusal is the answer, and no customer row is locked', async () => {
    const { stores, names } = recordingStores({
      'departures.takeSeats': () => ({ ok: false, error: { reason: 'stale' } }),
    });
    expect(await takeSeats(stores, 'ws_1', read, 2, known, resellerChannel(30), NOW)).toEqual({
      ok: false,
      error: DECIDE_AGAIN,
    });
    expect(names()).toEqual(['departures.takeSeats']);
  });
});

describe('seatRefusal', () => {
  it.each([
    ['the departure changed since the read', { reason: 'stale' } as const, 0, 'again'],
    ['full, with lapsed holds on it', { reason: 'sold_out', seatsRemaining: 1 } as const, 1, 'again'],
    ['full, no lapsed hold', { reason: 'sold_out', seatsRemaining: 1 } as const, 0, 'sold out'],
  ])('%s: %s', async (_case, refused, lapsed, answer) => {
    const { stores } = recordingStores({
      'bookings.findExpiredHolds': () => Array.from({ length: lapsed }, () => aBooking()),
    });
    const error = await seatRefusal(stores, NOW, 'ws_1', 'avl_1', refused);
    if (answer === 'again') expect(error).toEqual(DECIDE_AGAIN);
    else
      expect(error).toEqual({
        code: 'CONFLICT',
        message: 'Only 1 seats remain on this departure.',
        details: [{ field: 'participants', issue: 'insufficient_seats' }],
      });
  });

  it('a run decided again is a retryable CONFLICT', () => {
    expect(DECIDE_AGAIN).toMatchObject({ code: 'CONFLICT', retryable: true });
  });
});
