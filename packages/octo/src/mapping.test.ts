import type { BookingRecord } from '@travelops/domain/bookings';
import { localIsoDateTime } from '@travelops/domain/catalog';
import { describe, expect, it } from 'vitest';
import { toOctoAvailability, toOctoCalendar } from './availability-mapping.js';
import {
  contactName,
  customerOf,
  derivedUuid,
  isOctoCancellable,
  octoStatusOf,
  participantsOf,
  toOctoContact,
} from './booking-mapping.js';
import { localStartTimes, pricingOf, resolveUnits, toOctoUnits, utcSeconds } from './product-mapping.js';

// The mappers of product-mapping.ts, availability-mapping.ts and booking-mapping.ts, over
// shared fixtures.

import { booking, departure, NOW, person, tour } from './testing/fixtures.js';

describe('times as OCTO shows them', () => {
  it('UTC to the second', () => {
    expect(utcSeconds('2031-03-14T18:30:00.999Z')).toBe('2031-03-14T18:30:00Z');
  });

  it.each([
    ['winter in Berlin', '2031-01-14T18:30:00.000Z', 'Europe/Berlin', '2031-01-14T19:30:00+01:00'],
    ['summer in Berlin', '2031-07-14T18:30:00.000Z', 'Europe/Berlin', '2031-07-14T20:30:00+02:00'],
    [
      'New York, the day before in UTC terms',
      '2031-01-15T03:30:00.000Z',
      'America/New_York',
      '2031-01-14T22:30:00-05:00',
    ],
    ['UTC', '2031-01-14T18:30:00.000Z', 'UTC', '2031-01-14T18:30:00+00:00'],
    ['a half-hour zone', '2031-01-14T18:30:00.000Z', 'Asia/Kolkata', '2031-01-15T00:00:00+05:30'],
  ])('local with the offset: %s', (_label, instant, zone, expected) => {
    expect(localIsoDateTime(instant, zone)).toBe(expected);
    expect(Date.parse(expected)).toBe(Date.parse(instant));
  });

  it('start times: the schedules and the departures, local, sorted, once each', () => {
    expect(
      localStartTimes(
        ['09:00', '14:30'],
        ['2031-01-14T08:00:00.000Z', '2031-07-14T07:00:00.000Z', '2031-01-15T17:15:00.000Z'],
        'Europe/Berlin',
      ),
    ).toEqual(['09:00', '14:30', '18:15']);
  });
});

describe('units', () => {
  it('ticket types: type from the band, ages defaulted, accompaniedBy the adult bands', () => {
    const units = toOctoUnits(tour(), true);
    expect(units.map((u) => [u.id, u.type, u.restrictions.minAge, u.restrictions.maxAge])).toEqual([
      ['tt_a', 'ADULT', 18, 120],
      ['tt_s', 'SENIOR', 65, 120],
      ['tt_c', 'CHILD', 4, 12],
    ]);
    expect(units[2]?.restrictions).toMatchObject({
      minQuantity: 1,
      maxQuantity: 4,
      accompaniedBy: ['tt_a', 'tt_s'],
    });
    expect(units[2]?.pricingFrom).toEqual([
      { original: 1500, retail: 1500, net: null, currency: 'EUR', currencyPrecision: 2, includedTaxes: [] },
    ]);
  });

  it('a tour without ticket types sells one ADULT unit at its base price', () => {
    const units = toOctoUnits(tour({ ticketTypes: [] }), true);
    expect(units).toHaveLength(1);
    expect(units[0]).toMatchObject({
      id: 'adult',
      type: 'ADULT',
      pricingFrom: [expect.objectContaining({ retail: 2500 })],
    });
    expect(resolveUnits(tour({ ticketTypes: [] }), ['adult'])).toEqual({
      ok: true,
      value: [{ unitId: 'adult', ageBand: 'ADULT', name: 'Adult' }],
    });
  });

  it('an unknown unit is INVALID_UNIT_ID with its id', () => {
    expect(resolveUnits(tour(), ['tt_a', 'nope'])).toMatchObject({
      ok: false,
      error: { code: 'INVALID_UNIT_ID', unitId: 'nope' },
    });
  });

  it.each([
    ['EUR', 2],
    ['JPY', 0],
    ['KWD', 3],
    // ISO's minor unit, as everywhere in the service, where CLDR (Intl) would say 0.
    ['IQD', 3],
    ['IDR', 2],
    ['HUF', 2],
  ])('%s has %i digits after the point', (currency, digits) => {
    expect(pricingOf(1500, currency).currencyPrecision).toBe(digits);
  });
});

describe('availability', () => {
  it.each([
    ['AVAILABLE', 6, true],
    ['LIMITED', 2, true],
    ['SOLD_OUT', 0, false],
    ['CLOSED', 6, false],
  ] as const)('%s with %i seats left: available %s', (salesStatus, seatsRemaining, available) => {
    const view = toOctoAvailability(departure({ salesStatus, seatsRemaining }), tour(), { pricing: false });
    expect(view).toMatchObject({ status: salesStatus, vacancies: seatsRemaining, available, allDay: false });
    expect(view).not.toHaveProperty('unitPricing');
  });

  it('local start and end in the tour zone, the cutoff (or start) in UTC', () => {
    const view = toOctoAvailability(departure({ bookingCutoffAt: '2031-03-14T12:00:00.000Z' }), tour(), {
      pricing: false,
    });
    expect(view).toMatchObject({
      id: 'avl_1',
      localDateTimeStart: '2031-03-14T19:30:00+01:00',
      localDateTimeEnd: '2031-03-14T21:00:00+01:00',
      utcCutoffAt: '2031-03-14T12:00:00Z',
    });
    expect(toOctoAvailability(departure(), tour(), { pricing: false }).utcCutoffAt).toBe(
      '2031-03-14T18:30:00Z',
    );
  });

  it('more seats asked than are left: not available; unit prices with the departure overrides', () => {
    const view = toOctoAvailability(
      departure({ seatsRemaining: 2, prices: [{ ticketTypeId: 'tt_c', price: 900 }] }),
      tour(),
      {
        pricing: true,
        seats: 3,
      },
    );
    expect(view.available).toBe(false);
    expect(view.unitPricing?.map((p) => [p.unitId, p.retail])).toEqual([
      ['tt_a', 3000],
      ['tt_s', 2000],
      ['tt_c', 900],
    ]);
  });

  it('the calendar: every local day, the best open departure, closed days CLOSED', () => {
    const days = toOctoCalendar(
      { from: '2031-03-14', to: '2031-03-16' },
      [
        departure({ id: 'a', seatsRemaining: 2, salesStatus: 'LIMITED' }),
        departure({
          id: 'b',
          seatsRemaining: 7,
          salesStatus: 'AVAILABLE',
          prices: [{ ticketTypeId: 'tt_a', price: 2800 }],
        }),
        // 23:30 in Berlin on the 15th is already the 15th at 22:30Z.
        departure({
          id: 'c',
          startsAt: '2031-03-15T22:30:00.000Z',
          seatsRemaining: 0,
          salesStatus: 'SOLD_OUT',
        }),
        departure({ id: 'd', startsAt: '2031-03-16T10:00:00.000Z', salesStatus: 'CLOSED' }),
      ],
      tour(),
      { pricing: true },
    );
    expect(days.map((d) => [d.localDate, d.status, d.available, d.vacancies, d.capacity])).toEqual([
      ['2031-03-14', 'AVAILABLE', true, 7, 10],
      ['2031-03-15', 'SOLD_OUT', false, 0, 10],
      ['2031-03-16', 'CLOSED', false, 0, 0],
    ]);
    expect(days[0]?.unitPricingFrom?.map((p) => p.retail)).toEqual([2800, 2000, 1500]);
    expect(days[1]?.unitPricingFrom).toEqual([]);
  });
});

describe('booking status', () => {
  it.each([
    ['a live hold', { status: 'PENDING' }, 'ON_HOLD', true],
    [
      'a hold past its expiry (not yet released)',
      { status: 'PENDING', expiresAt: '2031-03-10T11:59:59.000Z' },
      'EXPIRED',
      false,
    ],
    ['PENDING without a hold', { status: 'PENDING', expiresAt: null }, 'PENDING', false],
    [
      'released by the worker',
      { status: 'CANCELLED', cancellationReason: 'EXPIRED', expiresAt: null },
      'EXPIRED',
      false,
    ],
    ['cancelled', { status: 'CANCELLED', cancellationReason: 'Ill', expiresAt: null }, 'CANCELLED', false],
    ['confirmed, before the cutoff', { status: 'CONFIRMED', expiresAt: null }, 'CONFIRMED', true],
    [
      'confirmed, past the cutoff',
      { status: 'CONFIRMED', expiresAt: null, startsAt: '2031-03-11T06:00:00.000Z' },
      'CONFIRMED',
      false,
    ],
    [
      'confirmed, everyone checked in',
      {
        status: 'CONFIRMED',
        expiresAt: null,
        participants: [person({ checkedInAt: '2031-03-10T11:00:00.000Z' })],
      },
      'REDEEMED',
      false,
    ],
    [
      'confirmed, one of two checked in',
      {
        status: 'CONFIRMED',
        expiresAt: null,
        participants: [person({ checkedInAt: '2031-03-10T11:00:00.000Z' }), person()],
      },
      'CONFIRMED',
      true,
    ],
    ['completed', { status: 'COMPLETED', expiresAt: null }, 'REDEEMED', false],
    ['a no-show', { status: 'NO_SHOW', expiresAt: null }, 'CONFIRMED', false],
  ] as const)('%s is %s (cancellable: %s)', (_label, fields, status, cancellable) => {
    const record = booking(fields as Partial<BookingRecord>);
    expect(octoStatusOf(record, NOW)).toBe(status);
    expect(isOctoCancellable(record, NOW)).toBe(cancellable);
  });
});

describe('contacts and participants', () => {
  it('a contact as answered has every field, null when not sent', () => {
    expect(toOctoContact({ firstName: 'Ada' })).toEqual({
      fullName: null,
      firstName: 'Ada',
      lastName: null,
      emailAddress: null,
      phoneNumber: null,
      locales: [],
      postalCode: null,
      country: null,
      notes: null,
    });
  });

  it.each([
    [{ fullName: ' Ada Lovelace ' }, 'Ada Lovelace'],
    [{ firstName: 'Ada', lastName: 'Lovelace' }, 'Ada Lovelace'],
    [{ lastName: 'Lovelace' }, 'Lovelace'],
    [{ emailAddress: 'a@example.com' }, null],
  ])('the name of %j is %s', (input, name) => {
    expect(contactName(toOctoContact(input))).toBe(name);
  });

  it('a customer only from a valid e-mail; a phone only when it is one', () => {
    expect(
      customerOf(
        toOctoContact({ fullName: 'Ada', emailAddress: 'ada@example.com', phoneNumber: '+44 20 7946 0000' }),
      ),
    ).toEqual({
      name: 'Ada',
      email: 'ada@example.com',
      phone: '+44 20 7946 0000',
    });
    expect(customerOf(toOctoContact({ emailAddress: 'ada@example.com', phoneNumber: 'call me' }))).toEqual({
      name: 'ada@example.com',
      email: 'ada@example.com',
    });
    expect(customerOf(toOctoContact({ fullName: 'Ada', emailAddress: 'not an e-mail' }))).toBeNull();
    expect(customerOf(null)).toBeNull();
  });

  it("participants are named after their unit item's contact, else the booking's, else their unit", () => {
    const adult = { unitId: 'tt_a', ticketTypeId: 'tt_a', ageBand: 'ADULT', name: 'Adult' } as const;
    const planned = [
      { unit: adult, input: { unitId: 'tt_a', contact: { fullName: 'Own Name' } }, uuid: 'u1' },
      { unit: adult, input: { unitId: 'tt_a' }, uuid: 'u2', existing: person({ dietaryNotes: 'vegan' }) },
    ];
    expect(participantsOf(planned, toOctoContact({ firstName: 'Lead' }))).toEqual([
      { name: 'Own Name', ageBand: 'ADULT', ticketTypeId: 'tt_a' },
      { name: 'Lead', ageBand: 'ADULT', ticketTypeId: 'tt_a', dietaryNotes: 'vegan' },
    ]);
    expect(participantsOf(planned, null).map((p) => p.name)).toEqual(['Own Name', 'Adult 2']);
  });

  it('a participant no unit item names gets a stable uuid of its own', () => {
    const uuid = derivedUuid('ptc_0123456789ABCDEFGHIJab');
    expect(uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(derivedUuid('ptc_0123456789ABCDEFGHIJab')).toBe(uuid);
    expect(derivedUuid('ptc_0123456789ABCDEFGHIJac')).not.toBe(uuid);
  });
});
