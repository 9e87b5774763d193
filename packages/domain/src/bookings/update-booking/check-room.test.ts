import { describe, expect, it } from 'vitest';
import { aBooking, aDeparture, NOW, recordingStores, TOMORROW } from '../test-fixtures.js';
import { checkRoom, roomFor } from './check-room.js';

const booking = aBooking({ participantCount: 2 });
const target = aDeparture({ seatsRemaining: 1, capacity: 10 });

describe('roomFor', () => {
  it.each([
    ['staying: its own 2 seats count as free', false, 3],
    ['moving: only what the target has left', true, 1],
  ])('%s', (_case, moving, seatsRemaining) => {
    expect(roomFor(booking, { target, moving }).seatsRemaining).toBe(seatsRemaining);
  });
  it('on a departure with resources, its own seats: the shared ones are checked when the seats move', () => {
    const shared = aDeparture({ capacity: 10, bookedSeats: 4, seatsRemaining: 1, resourceIds: ['res_1'] });
    expect(roomFor(booking, { target: shared, moving: true }).seatsRemaining).toBe(6);
  });
});

describe('checkRoom', () => {
  const check = (
    plan: { moving: boolean; count: number; takesSeats: boolean },
    blackouts: unknown[] = [],
  ) => {
    const recorded = recordingStores({ 'blackoutDates.listApplying': () => blackouts });
    return { recorded, result: checkRoom(recorded.stores, 'ws_1', booking, { target, ...plan }, null, NOW) };
  };

  it.each([
    ['one more on its own departure, one seat left', { moving: false, count: 3, takesSeats: true }, true],
    ['two more on its own departure, one seat left', { moving: false, count: 4, takesSeats: true }, false],
    ['moving 2 to a departure with 1 left', { moving: true, count: 2, takesSeats: true }, false],
    ['moving 1 to a departure with 1 left', { moving: true, count: 1, takesSeats: true }, true],
  ])('%s: allowed %s', async (_case, plan, allowed) => {
    const result = await check(plan).result;
    expect(result.ok ? true : result.error.code).toBe(allowed ? true : 'CONFLICT');
  });

  it('takes no seats: reads nothing, refuses nothing', async () => {
    const { recorded, result } = check({ moving: false, count: 9, takesSeats: false });
    expect(await result).toEqual({ ok: true, value: true });
    expect(recorded.names()).toEqual([]);
  });

  it("a blackout on the target's day closes it (422 blackout_date)", async () => {
    const day = TOMORROW.slice(0, 10);
    const { recorded, result } = check({ moving: true, count: 1, takesSeats: true }, [
      { date: day, tourId: null },
    ]);
    const answer = await result;
    expect(answer.ok ? null : answer.error.details).toEqual([
      { field: 'availabilityId', issue: 'blackout_date' },
    ]);
    expect(recorded.calls[0]?.args.slice(0, 2)).toEqual(['ws_1', 'tour_1']);
  });
});
