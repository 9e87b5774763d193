import { describe, expect, it } from 'vitest';
import { aBooking, aDeparture } from '../test-fixtures.js';
import { buildPatch, newTotal } from './build-patch.js';

const booking = aBooking({ totalAmount: 5000, amountPaid: 5000, amountRefunded: 0, participantCount: 2 });
const here = aDeparture({ id: 'avl_1' });
const there = aDeparture({ id: 'avl_2', startsAt: '2031-06-09T09:00:00.000Z', tourId: 'tour_2' });
const stay = { target: here, moving: false, changingTour: false, count: 2 };
const seats = (price: number) => ({ seats: [{ ticketTypeId: 'tt_a', price }], total: price });

describe('newTotal', () => {
  it.each([
    ['nothing new', {}, null, 5000],
    ['repriced', {}, seats(4200), 4200],
    ["the operator's figure wins over the price", { totalAmount: 3000 }, seats(4200), 3000],
    ['the operator may make it free', { totalAmount: 0 }, null, 0],
  ])('%s: %i', (_case, input, repriced, total) => {
    expect(newTotal(booking, input, repriced)).toBe(total);
  });
});

describe('buildPatch', () => {
  it('notes only: the notes (null clears them), nothing else', () => {
    expect(buildPatch(booking, stay, null, { notes: null }, null)).toEqual({ notes: null });
    expect(buildPatch(booking, stay, null, {}, null)).toEqual({});
  });

  it('moving to another tour: departure, start, tour and its currency', () => {
    const patch = buildPatch(
      booking,
      { target: there, moving: true, changingTour: true, count: 1 },
      { id: 'tour_2', currency: 'USD' },
      { participants: [{ name: 'Ada' }] },
      seats(5000),
    );
    expect(patch).toMatchObject({
      availabilityId: 'avl_2',
      startsAt: '2031-06-09T09:00:00.000Z',
      tourId: 'tour_2',
      currency: 'USD',
      participantCount: 1,
      participants: [{ name: 'Ada', ticketTypeId: 'tt_a', price: 5000 }],
    });
    expect(patch).not.toHaveProperty('totalAmount');
  });

  it.each([
    ['cheaper: paid in full, and more', 4000, 'PAID'],
    ['dearer: part paid', 6000, 'PENDING'],
  ])('a new total, %s: %s', (_case, total, paymentStatus) => {
    expect(buildPatch(booking, stay, null, { totalAmount: total }, null)).toEqual({
      totalAmount: total,
      paymentStatus,
    });
  });

  it('new participants whose add-ons were not repriced: each seat unpriced, the total as it was', () => {
    const patch = buildPatch(booking, stay, null, { participants: [{ name: 'Ada' }, { name: 'Bob' }] }, null);
    expect(patch.participants?.map((p) => [p.ticketTypeId, p.price])).toEqual([
      [null, 0],
      [null, 0],
    ]);
    expect(patch).not.toHaveProperty('totalAmount');
  });
});
