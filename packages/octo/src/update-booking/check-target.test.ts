import { describe, expect, it } from 'vitest';
import { checkTargetDeparture } from './check-target.js';

describe('checkTargetDeparture', () => {
  it.each([
    ['no departure asked, same product', 'tour_a', undefined, null, true],
    ['no departure asked, another product', 'tour_b', undefined, null, false],
    ['a departure of the target product', 'tour_b', 'avl_1', { tourId: 'tour_b' }, true],
    ['a departure of another product', 'tour_b', 'avl_1', { tourId: 'tour_a' }, false],
    ['a departure that does not exist', 'tour_a', 'avl_x', null, false],
  ] as const)('%s: allowed %s', (_name, tourId, asked, target, allowed) => {
    const result = checkTargetDeparture({
      currentTourId: 'tour_a',
      tour: { id: tourId },
      askedAvailabilityId: asked,
      target,
    });
    expect(result.ok).toBe(allowed);
    if (!result.ok) expect(result.error.code).toBe('INVALID_AVAILABILITY_ID');
  });
});
