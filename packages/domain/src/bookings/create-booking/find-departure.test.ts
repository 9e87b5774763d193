import { describe, expect, it } from 'vitest';
import type { DepartureStore } from '../../catalog/index.js';
import { NATIVE_CHANNEL, publicChannel, resellerChannel } from '../channel-policy.js';
import { aRead } from '../test-fixtures.js';
import { findDeparture, NO_SUCH_DEPARTURE, offeredDeparture } from './find-departure.js';

const published = aRead({}, { isPublic: true });
const unpublished = aRead({}, { isPublic: false });

describe('offeredDeparture', () => {
  it.each([
    ['native', NATIVE_CHANNEL, published, true],
    ['native', NATIVE_CHANNEL, unpublished, true],
    ['public', publicChannel(), published, true],
    ['public', publicChannel(), unpublished, false],
    ['reseller', resellerChannel(30), published, true],
    ['reseller', resellerChannel(30), unpublished, false],
  ] as const)('%s channel, tour published %s: offered %s', (_channel, policy, read, offered) => {
    expect(offeredDeparture(read, policy)).toEqual(
      offered ? { ok: true, value: read } : { ok: false, error: NO_SUCH_DEPARTURE },
    );
  });

  it('an unknown departure is 422 not_found on availabilityId for every channel', () => {
    expect(offeredDeparture(null, NATIVE_CHANNEL)).toEqual({ ok: false, error: NO_SUCH_DEPARTURE });
    expect(NO_SUCH_DEPARTURE).toMatchObject({
      code: 'UNPROCESSABLE',
      details: [{ field: 'availabilityId', issue: 'not_found' }],
    });
  });
});

describe('findDeparture', () => {
  it("reads the departure of the caller's workspace", async () => {
    const asked: string[][] = [];
    const availability = {
      findForBooking: async (workspaceId: string, id: string) => {
        asked.push([workspaceId, id]);
        return unpublished;
      },
    } as Partial<DepartureStore> as DepartureStore;
    expect(await findDeparture({ departures: availability }, 'ws_1', 'avl_1', NATIVE_CHANNEL)).toEqual({
      ok: true,
      value: unpublished,
    });
    expect(await findDeparture({ departures: availability }, 'ws_1', 'avl_1', publicChannel())).toEqual({
      ok: false,
      error: NO_SUCH_DEPARTURE,
    });
    expect(asked).toEqual([
      ['ws_1', 'avl_1'],
      ['ws_1', 'avl_1'],
    ]);
  });
});
