import { describe, expect, it } from 'vitest';
import { conflict } from '../../shared/errors.js';
import { aBooking, aDeparture, recordingStores } from '../test-fixtures.js';
import { moveSeats, seatDelta } from './move-seats.js';

const booking = aBooking({ participantCount: 3 });
const current = aDeparture({ id: 'avl_here' });
const target = aDeparture({ id: 'avl_there', seatsRemaining: 2 });

describe('seatDelta', () => {
  it.each([
    [false, 3, 0],
    [false, 5, 2],
    [false, 1, -2],
    [true, 3, 3],
    [true, 1, 1],
  ])('moving %s, %i participants after (3 before): %i seats on the target', (moving, count, delta) => {
    expect(seatDelta(booking, { moving, count })).toBe(delta);
  });
});

describe('moveSeats', () => {
  const adjusted = (answer: (id: string) => unknown) =>
    recordingStores({ 'departures.adjustBookedSeats': (_ws: string, id: string) => answer(id) });
  const fine = () => ({ ok: true, value: {} });

  it.each([
    ['staying, as many', { target: current, moving: false, count: 3 }, []],
    ['staying, one fewer', { target: current, moving: false, count: 2 }, [['avl_here', -1]]],
    [
      'moving',
      { target, moving: true, count: 2 },
      [
        ['avl_here', -3],
        ['avl_there', 2],
      ],
    ],
  ])('%s: adjusts %j', async (_case, plan, adjustments) => {
    const { stores, calls } = adjusted(fine);
    expect(await moveSeats(stores, 'ws_1', booking, { current, ...plan })).toEqual({ ok: true, value: true });
    expect(calls.map(({ args }) => args.slice(1))).toEqual(adjustments);
  });

  it('the target refuses: 409 with the seats it has left', async () => {
    const { stores } = adjusted((id) =>
      id === 'avl_there' ? { ok: false, error: conflict('full') } : fine(),
    );
    const result = await moveSeats(stores, 'ws_1', booking, { current, target, moving: true, count: 3 });
    expect(result.ok ? null : result.error).toMatchObject({
      code: 'CONFLICT',
      message: 'Only 2 seats remain on this departure.',
    });
  });

  it('the release refuses: its failure is the answer, and the target is not touched', async () => {
    const refusal = { ok: false, error: conflict('constraint') };
    const { stores, calls } = adjusted(() => refusal);
    expect(await moveSeats(stores, 'ws_1', booking, { current, target, moving: true, count: 3 })).toEqual(
      refusal,
    );
    expect(calls).toHaveLength(1);
  });
});

describe('moveSeats onto a departure with a shared resource', () => {
  it('checks the shared resources after taking the seats: full is 409 resource_full naming it', async () => {
    const boat = aDeparture({ id: 'avl_boat', resourceIds: ['res_boat'] });
    const { stores, names } = recordingStores({
      'departures.adjustBookedSeats': () => ({ ok: true, value: {} }),
      'departures.findFullSharedResource': () => 'res_boat',
    });
    const moved = await moveSeats(stores, 'ws_1', booking, { current, target: boat, moving: true, count: 3 });
    expect(moved).toMatchObject({
      ok: false,
      error: {
        code: 'CONFLICT',
        details: [{ field: 'availabilityId', issue: 'resource_full', resourceId: 'res_boat' }],
      },
    });
    expect(names()).toContain('departures.findFullSharedResource');
  });
});
