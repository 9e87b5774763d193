import { describe, expect, it } from 'vitest';
import { NATIVE_CHANNEL, resellerChannel } from '../channel-policy.js';
import { aBooking, aDeparture } from '../test-fixtures.js';
import { planChange } from './plan-change.js';

const here = aDeparture({ id: 'avl_here' });
const later = aDeparture({ id: 'avl_later' });
const elsewhere = aDeparture({ id: 'avl_other_tour', tourId: 'tour_2' });
const departures = new Map([here, later, elsewhere].map((d) => [d.id, d]));
const booking = aBooking({ availabilityId: 'avl_here', tourId: 'tour_1', participantCount: 2 });
const people = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `P${i}` }));

describe('planChange', () => {
  it.each([
    // case, input -> target, moving, count, takesSeats, needsTour
    ['notes only', {}, 'avl_here', false, 2, false, false],
    ['fewer participants', { participants: people(1) }, 'avl_here', false, 1, false, true],
    ['as many participants', { participants: people(2) }, 'avl_here', false, 2, false, true],
    ['more participants', { participants: people(3) }, 'avl_here', false, 3, true, true],
    ['another departure', { availabilityId: 'avl_later' }, 'avl_later', true, 2, true, true],
    ['the same departure named', { availabilityId: 'avl_here' }, 'avl_here', false, 2, false, false],
  ])('%s', (_case, input, target, moving, count, takesSeats, needsTour) => {
    const plan = planChange(booking, departures, input, NATIVE_CHANNEL);
    expect(
      plan.ok && { ...plan.value, target: plan.value.target.id, current: plan.value.current.id },
    ).toEqual({
      target,
      current: 'avl_here',
      moving,
      changingTour: false,
      count,
      takesSeats,
      needsTour,
    });
  });

  it.each([
    ['an unknown departure', { availabilityId: 'avl_gone' }, NATIVE_CHANNEL, 'availabilityId', 'not_found'],
    [
      'another tour, on the native API',
      { availabilityId: 'avl_other_tour', participants: people(2) },
      NATIVE_CHANNEL,
      'availabilityId',
      'different_tour',
    ],
    [
      'another tour without participants',
      { availabilityId: 'avl_other_tour' },
      resellerChannel(30),
      'participants',
      'required',
    ],
  ])('%s: 422 %s %s', (_case, input, policy, field, issue) => {
    const plan = planChange(booking, departures, input, policy);
    expect(plan.ok ? null : plan.error).toMatchObject({ code: 'UNPROCESSABLE', details: [{ field, issue }] });
  });
});

describe('planChange across tours', () => {
  it('another tour, where the channel allows it, with its participants', () => {
    const plan = planChange(
      booking,
      departures,
      { availabilityId: 'avl_other_tour', participants: people(2) },
      resellerChannel(30),
    );
    expect(plan.ok && plan.value).toMatchObject({ changingTour: true, moving: true, takesSeats: true });
  });

  it("a booking whose own departure is not locked is not found (the store's answer is trusted)", () => {
    const plan = planChange(
      booking,
      new Map([[later.id, later]]),
      { availabilityId: 'avl_later' },
      NATIVE_CHANNEL,
    );
    expect(plan.ok).toBe(false);
  });
});
