import { describe, expect, it } from 'vitest';
import { NATIVE_CHANNEL, publicChannel, resellerChannel } from '../channel-policy.js';
import type { BookingStore } from '../ports.js';
import { aRead, aTour, NOW } from '../test-fixtures.js';
import { checkChannelLimits, checkLiveHolds, checkSeatCap } from './check-channel-limits.js';

const tour = aTour({ maxSeatsPerPublicBooking: 4 });

describe('checkSeatCap', () => {
  it.each([
    ['native', NATIVE_CHANNEL, 5, true],
    ['reseller', resellerChannel(30), 5, true],
    ['public', publicChannel(), 4, true],
    ['public', publicChannel(), 5, false],
  ] as const)(
    '%s channel, %i seats on a tour capped at 4: allowed %s',
    (_channel, policy, count, allowed) => {
      const result = checkSeatCap(tour, count, policy);
      expect(result.ok ? true : result.error).toEqual(
        allowed
          ? true
          : {
              code: 'UNPROCESSABLE',
              message: 'Book at most 4 seats online; contact the operator for a group.',
              details: [{ field: 'participants', issue: 'too_many_for_public_booking' }],
            },
      );
    },
  );
});

describe('checkLiveHolds', () => {
  const inSeconds = (seconds: number) => new Date(NOW.getTime() + seconds * 1000);
  it.each([
    ['below the cap', 1, null, null],
    ['at the cap, the earliest lapsing in 90.2 s', 2, inSeconds(90.2), 91],
    ['over the cap, none with an expiry', 3, null, 60],
    ['at the cap, the earliest lapsed already', 2, inSeconds(-5), 1],
  ] as const)('%s: retry after %s s', (_case, count, earliestExpiry, retryAfter) => {
    const result = checkLiveHolds({ count, earliestExpiry }, 2, NOW);
    if (retryAfter === null) expect(result).toEqual({ ok: true, value: true });
    else
      expect(result.ok ? null : result.error).toMatchObject({
        code: 'RATE_LIMITED',
        retryAfterSeconds: retryAfter,
      });
  });
});

describe('checkChannelLimits', () => {
  const storesCounting = (count: number, calls: string[]) => ({
    bookings: {
      lockHolder: async (availabilityId: string, key: string) => {
        calls.push(`lock ${availabilityId} ${key}`);
      },
      liveHoldsOf: async (availabilityId: string, key: string) => {
        calls.push(`count ${availabilityId} ${key}`);
        return { count, earliestExpiry: null };
      },
    } as Partial<BookingStore> as BookingStore,
  });

  it("locks the client's pair before counting its holds, then applies its cap", async () => {
    const calls: string[] = [];
    const policy = publicChannel({ key: 'client-a', maxLiveHolds: 2 });
    const result = await checkChannelLimits(storesCounting(2, calls), aRead(), 1, policy, NOW);
    expect(result.ok ? null : result.error.code).toBe('RATE_LIMITED');
    expect(calls).toEqual(['lock avl_1 client-a', 'count avl_1 client-a']);
  });

  it('reads nothing without a holder, nor when the seat cap already refuses', async () => {
    const calls: string[] = [];
    expect(await checkChannelLimits(storesCounting(9, calls), aRead(), 1, publicChannel(), NOW)).toEqual({
      ok: true,
      value: true,
    });
    expect(await checkChannelLimits(storesCounting(9, calls), aRead(), 1, NATIVE_CHANNEL, NOW)).toEqual({
      ok: true,
      value: true,
    });
    const tooMany = await checkChannelLimits(
      storesCounting(0, calls),
      aRead({}, { maxSeatsPerPublicBooking: 1 }),
      2,
      publicChannel({ key: 'client-a', maxLiveHolds: 2 }),
      NOW,
    );
    expect(tooMany.ok ? null : tooMany.error.code).toBe('UNPROCESSABLE');
    expect(calls).toEqual([]);
  });
});
