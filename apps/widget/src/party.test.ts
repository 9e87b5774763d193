import { describe, expect, it } from 'vitest';
import {
  canAdd,
  maxPartySize,
  participantsOf,
  partyProblems,
  partyTotal,
  type TicketRow,
  ticketRows,
} from './party.js';

const type = (id: string, ageBand: string, price: number, extra: Record<string, unknown> = {}) => ({
  id,
  name: id,
  ageBand: ageBand as 'ADULT',
  price,
  minAge: null,
  maxAge: null,
  minPerBooking: null,
  maxPerBooking: null,
  requiresAdult: false,
  ...extra,
});

const family = {
  basePrice: 9_999,
  ticketTypes: [
    type('adult', 'ADULT', 4_000),
    type('child', 'CHILD', 2_000, { requiresAdult: true, maxPerBooking: 4 }),
    type('infant', 'INFANT', 0, { requiresAdult: true }),
  ],
};

describe('ticket rows and the live price', () => {
  it("prices each type at the departure's override, else its own price", () => {
    const rows = ticketRows(family, { prices: [{ ticketTypeId: 'child', price: 1_500 }] }, 'Guests');
    expect(rows.map((r) => [r.ticketTypeId, r.price])).toEqual([
      ['adult', 4_000],
      ['child', 1_500],
      ['infant', 0],
    ]);
    // Two adults, a child and an infant.
    expect(partyTotal(rows, [2, 1, 1])).toBe(9_500);
  });

  it('a tour without ticket types sells one kind of seat at basePrice, sent without a type', () => {
    const rows = ticketRows({ basePrice: 2_500, ticketTypes: [] }, { prices: [] }, 'Guests');
    expect(rows).toMatchObject([{ ticketTypeId: null, name: 'Guests', price: 2_500 }]);
    expect(participantsOf(rows, [2], ['Ada', ' Bo '])).toEqual([{ name: 'Ada' }, { name: 'Bo' }]);
  });
});

describe('limits', () => {
  const rows = ticketRows(family, { prices: [] }, 'Guests');

  it('the party holds at most the seats left and the tour limit per public booking', () => {
    expect(maxPartySize({ maxSeatsPerPublicBooking: 10 }, { seatsRemaining: 3 })).toBe(3);
    expect(maxPartySize({ maxSeatsPerPublicBooking: 4 }, { seatsRemaining: 30 })).toBe(4);
    expect(canAdd(rows, [2, 1, 0], 0, 3)).toBe(false);
    expect(canAdd(rows, [1, 1, 0], 0, 3)).toBe(true);
  });

  it("a type's maxPerBooking stops its own row only", () => {
    expect(canAdd(rows, [0, 4, 0], 1, 10)).toBe(false);
    expect(canAdd(rows, [0, 4, 0], 0, 10)).toBe(true);
  });

  it.each<[string, number[], unknown[]]>([
    ['nobody', [0, 0, 0], [{ kind: 'empty' }]],
    ['a child alone', [0, 1, 0], [{ kind: 'needs_adult', row: 1 }]],
    ['an adult with a child and an infant', [1, 1, 1], []],
  ])('problems: %s', (_name, party, problems) => {
    expect(partyProblems(rows, party)).toEqual(problems);
  });

  it('below a minimum per booking', () => {
    const group: TicketRow[] = ticketRows(
      { basePrice: 0, ticketTypes: [type('group', 'ADULT', 1_000, { minPerBooking: 4 })] },
      { prices: [] },
      'Guests',
    );
    expect(partyProblems(group, [2])).toEqual([{ kind: 'below_minimum', row: 0, min: 4 }]);
  });
});

it('participants follow the rows, each with its ticket type and trimmed name', () => {
  const rows = ticketRows(family, { prices: [] }, 'Guests');
  expect(participantsOf(rows, [2, 1, 1], ['Ada', 'Ben', 'Cleo ', 'Dot'])).toEqual([
    { name: 'Ada', ticketTypeId: 'adult', ageBand: 'ADULT' },
    { name: 'Ben', ticketTypeId: 'adult', ageBand: 'ADULT' },
    { name: 'Cleo', ticketTypeId: 'child', ageBand: 'CHILD' },
    { name: 'Dot', ticketTypeId: 'infant', ageBand: 'INFANT' },
  ]);
});
