import { describe, expect, it } from 'vitest';
import { aBooking, aDeparture, aTour } from '../test-fixtures.js';
import { reprice } from './reprice.js';

const lantern = { id: 'lantern', name: 'Lantern', unitPrice: 300, quantity: 2 };
const booking = aBooking({ addOns: [lantern] });
const people = [{ name: 'Ada' }, { name: 'Bob' }];
const target = aDeparture();

describe('reprice', () => {
  it('no participants named: nothing to price', () => {
    expect(reprice(booking, null, target, undefined, false)).toEqual({ ok: true, value: null });
  });

  it("prices each seat on the target, plus the booking's add-ons", () => {
    expect(reprice(booking, aTour({ basePrice: 2000 }), target, people, false)).toEqual({
      ok: true,
      value: {
        seats: [
          { ticketTypeId: null, price: 2000 },
          { ticketTypeId: null, price: 2000 },
        ],
        total: 2 * 2000 + 2 * 300,
      },
    });
  });

  it.each([
    ['its own tour: unpriced, the total stays', false, { ok: true, value: null }],
    ['another tour: refused', true, 'unknown_add_on'],
  ] as const)('an add-on the tour no longer sells, on %s', (_case, changingTour, answer) => {
    const result = reprice(booking, aTour({ addOns: [] }), target, people, changingTour);
    if (typeof answer === 'string') expect(result.ok ? null : result.error.details?.[0]?.issue).toBe(answer);
    else expect(result).toEqual(answer);
  });

  it('a ticket type the tour does not sell is refused on either tour', () => {
    const result = reprice(booking, aTour(), target, [{ name: 'Ada', ticketTypeId: 'tt_x' }], false);
    expect(result.ok ? null : result.error.details).toEqual([
      { field: 'participants[0].ticketTypeId', issue: 'not_sold' },
    ]);
  });

  it('participants without a tour read: 422 not_found', () => {
    const result = reprice(booking, null, target, people, false);
    expect(result.ok ? null : result.error).toMatchObject({
      code: 'UNPROCESSABLE',
      details: [{ field: 'availabilityId', issue: 'not_found' }],
    });
  });
});
