import { describe, expect, it } from 'vitest';
import { aRead, NOW } from '../test-fixtures.js';
import { decideSale } from './decide-sale.js';

const adult = {
  id: 'tt_adult',
  name: 'Adult',
  ageBand: 'ADULT' as const,
  price: 3000,
  minAge: null,
  maxAge: null,
  minPerBooking: null,
  maxPerBooking: null,
  requiresAdult: false,
};

describe('decideSale', () => {
  it('sells each seat at its price plus the add-ons, in the tour currency', () => {
    const read = aRead({ prices: [{ ticketTypeId: 'tt_adult', price: 2800 }] }, { ticketTypes: [adult] });
    const sale = decideSale(
      read,
      { participants: [{ name: 'Ada' }, { name: 'Bob' }], addOns: [{ id: 'lantern', quantity: 2 }] },
      NOW,
    );
    expect(sale).toEqual({
      ok: true,
      value: {
        seats: [
          { ticketTypeId: 'tt_adult', price: 2800 },
          { ticketTypeId: 'tt_adult', price: 2800 },
        ],
        total: 2 * 2800 + 2 * 300,
        addOns: [{ id: 'lantern', name: 'Lantern', unitPrice: 300, quantity: 2 }],
      },
    });
  });

  // The order of the refusals is the order of the answers: the request first, then the room.
  it.each([
    [
      'a ticket type the tour does not sell',
      { participants: [{ name: 'A', ticketTypeId: 'tt_x' }] },
      {},
      'not_sold',
    ],
    [
      'an add-on the tour does not sell',
      { participants: [{ name: 'A' }], addOns: [{ id: 'x', quantity: 1 }] },
      {},
      'unknown_add_on',
    ],
    [
      'a cancelled departure',
      { participants: [{ name: 'A' }] },
      { status: 'CANCELLED' as const },
      'not_bookable',
    ],
    [
      'more than the departure holds',
      { participants: [{ name: 'A' }, { name: 'B' }] },
      { capacity: 1, seatsRemaining: 1 },
      'max_capacity_exceeded',
    ],
    [
      'more than remain',
      { participants: [{ name: 'A' }, { name: 'B' }] },
      { seatsRemaining: 1 },
      'insufficient_seats',
    ],
  ])('%s: refused with %s', (_case, input, departure, issue) => {
    const sale = decideSale(aRead(departure), input, NOW);
    expect(sale.ok ? null : sale.error.details?.[0]?.issue).toBe(issue);
  });
});

describe('decideSale on a full departure', () => {
  it('a full departure is a CONFLICT (the caller may free expired holds and decide again)', () => {
    const sale = decideSale(aRead({ seatsRemaining: 0 }), { participants: [{ name: 'A' }] }, NOW);
    expect(sale.ok ? null : sale.error.code).toBe('CONFLICT');
  });
});

describe('decideSale on a departure with a shared resource', () => {
  const two = { participants: [{ name: 'Ada' }, { name: 'Bob' }] };
  const withBoat = (seatsLeft: number) => ({
    ...aRead({ seatsRemaining: 10, resourceIds: ['res_boat'] }),
    sharedSeats: { resourceId: 'res_boat', seatsLeft },
  });
  it('sells while the boat has room', () => expect(decideSale(withBoat(2), two, NOW).ok).toBe(true));
  it('is 409 resource_full naming the boat when it has fewer seats left than asked', () => {
    const refused = decideSale(withBoat(1), two, NOW);
    expect(refused.ok ? null : refused.error).toMatchObject({
      code: 'CONFLICT',
      details: [{ field: 'availabilityId', issue: 'resource_full', resourceId: 'res_boat' }],
    });
  });
  it('a departure that cannot be booked says so first (422), whatever the boat', () => {
    const closed = { ...withBoat(0), departure: { ...withBoat(0).departure, status: 'CANCELLED' as const } };
    const refused = decideSale(closed, two, NOW);
    expect(refused.ok ? null : refused.error.code).toBe('UNPROCESSABLE');
  });
});
