import { describe, expect, it } from 'vitest';
import type { PlannedUnitItem } from '../booking-mapping.js';
import { bookingPatchOf } from './booking-patch.js';

const booking = { availabilityId: 'avl_1' };
const planned: PlannedUnitItem[] = [
  {
    unit: { unitId: 'tt_a', ticketTypeId: 'tt_a', ageBand: 'ADULT', name: 'Adult' },
    input: { unitId: 'tt_a' },
    uuid: 'u-1',
  },
];

describe('bookingPatchOf', () => {
  it('is null when nothing of the booking itself changes', () => {
    expect(
      bookingPatchOf({ booking, target: null, planned: null, contact: null, notes: undefined }),
    ).toBeNull();
    expect(
      bookingPatchOf({ booking, target: { id: 'avl_1' }, planned: null, contact: null, notes: undefined }),
    ).toBeNull();
  });

  it('moves the booking to another departure', () => {
    expect(
      bookingPatchOf({ booking, target: { id: 'avl_2' }, planned: null, contact: null, notes: undefined }),
    ).toEqual({ availabilityId: 'avl_2' });
  });

  it('writes the participants of planned unit items and the notes, null notes included', () => {
    const patch = bookingPatchOf({ booking, target: null, planned, contact: null, notes: null });
    expect(patch).toEqual({
      participants: [{ name: 'Adult 1', ageBand: 'ADULT', ticketTypeId: 'tt_a' }],
      notes: null,
    });
  });
});
