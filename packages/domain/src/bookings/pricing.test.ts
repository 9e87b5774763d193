import { describe, expect, it } from 'vitest';
import type { TicketType } from '../catalog/index.js';
import { fromPrice } from '../catalog/index.js';
import { priceSeats, type TicketRequest } from './pricing.js';

const type = (
  id: string,
  ageBand: TicketType['ageBand'],
  price: number,
  rules: Partial<TicketType> = {},
): TicketType => ({
  id,
  name: id,
  ageBand,
  price,
  minAge: null,
  maxAge: null,
  minPerBooking: null,
  maxPerBooking: null,
  requiresAdult: false,
  ...rules,
});

const tour = {
  basePrice: 9999,
  ticketTypes: [
    type('tt_adult', 'ADULT', 4000),
    type('tt_child', 'CHILD', 2000, { requiresAdult: true }),
    type('tt_infant', 'INFANT', 0, { maxPerBooking: 1, requiresAdult: true }),
    type('tt_group', 'STUDENT', 1000, { minPerBooking: 2 }),
    type('tt_senior', 'SENIOR', 3000),
  ],
};

describe('priceSeats', () => {
  it.each<[string, TicketRequest[], [string | null, number][]]>([
    ['no type and no band: the ADULT type', [{}], [['tt_adult', 4000]]],
    [
      'a band picks its type',
      [{}, { ageBand: 'CHILD' }],
      [
        ['tt_adult', 4000],
        ['tt_child', 2000],
      ],
    ],
    ['an id wins over a band', [{ ticketTypeId: 'tt_senior', ageBand: 'CHILD' }], [['tt_senior', 3000]]],
    [
      'a senior counts as the adult a child needs',
      [{ ageBand: 'SENIOR' }, { ageBand: 'CHILD' }],
      [
        ['tt_senior', 3000],
        ['tt_child', 2000],
      ],
    ],
    [
      'the minimum met',
      [{ ageBand: 'STUDENT' }, { ageBand: 'STUDENT' }],
      [
        ['tt_group', 1000],
        ['tt_group', 1000],
      ],
    ],
  ])('%s', (_rule, requests, seats) => {
    const priced = priceSeats(tour, [], requests);
    expect(priced).toEqual({
      ok: true,
      value: seats.map(([ticketTypeId, price]) => ({ ticketTypeId, price })),
    });
  });

  it.each<[string, TicketRequest[], number, string]>([
    ['a band the tour does not sell', [{}, { ageBand: 'YOUTH' }], 1, 'not_sold'],
    ['an unknown id', [{ ticketTypeId: 'tt_nope' }], 0, 'not_sold'],
    ['below the minimum', [{}, { ageBand: 'STUDENT' }], 1, 'below_minimum'],
    [
      'above the maximum: the first one too many',
      [{}, { ageBand: 'INFANT' }, { ageBand: 'INFANT' }],
      2,
      'above_maximum',
    ],
    [
      'no adult for a child',
      [{ ageBand: 'CHILD' }, { ageBand: 'STUDENT' }, { ageBand: 'STUDENT' }],
      0,
      'adult_required',
    ],
  ])('refuses %s, naming the participant', (_rule, requests, index, issue) => {
    const priced = priceSeats(tour, [], requests);
    expect(priced.ok ? null : priced.error).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ field: `participants[${index}].ticketTypeId`, issue }],
    });
  });

  it('a departure override replaces the type price, for that type only', () => {
    const priced = priceSeats(tour, [{ ticketTypeId: 'tt_adult', price: 5000 }], [{}, { ageBand: 'SENIOR' }]);
    expect(priced.ok && priced.value.map((seat) => seat.price)).toEqual([5000, 3000]);
  });

  it('a tour without types sells basePrice seats whatever the band, and refuses a named type', () => {
    const plain = { basePrice: 2500, ticketTypes: [] };
    expect(priceSeats(plain, [], [{}, { ageBand: 'CHILD' }])).toEqual({
      ok: true,
      value: [
        { ticketTypeId: null, price: 2500 },
        { ticketTypeId: null, price: 2500 },
      ],
    });
    expect(priceSeats(plain, [], [{ ticketTypeId: 'tt_adult' }]).ok).toBe(false);
  });
});

describe('fromPrice', () => {
  it('is the cheapest seat after overrides, or basePrice without types', () => {
    expect(fromPrice(tour, [])).toBe(0);
    expect(fromPrice({ basePrice: 2500, ticketTypes: [] }, [])).toBe(2500);
    const noInfant = { basePrice: 1, ticketTypes: tour.ticketTypes.filter((t) => t.ageBand !== 'INFANT') };
    expect(fromPrice(noInfant, [{ ticketTypeId: 'tt_group', price: 1500 }])).toBe(1500);
  });
});
