import { describe, expect, it } from 'vitest';
import type { BookingRecord, Participant } from '../bookings/index.js';
import type { DepartureView, TicketType } from '../catalog/index.js';
import type { Customer } from '../crm/index.js';
import { buildManifest, countTicketTypes, manifestTable } from './manifest.js';

const type = (id: string, name: string): TicketType => ({
  id,
  name,
  ageBand: 'ADULT',
  price: 1000,
  minAge: null,
  maxAge: null,
  minPerBooking: null,
  maxPerBooking: null,
  requiresAdult: false,
});
const adult = type('tt_adult', 'Adult');
const child = type('tt_child', 'Child');
const held = (...ids: Array<string | null>) => ids.map((ticketTypeId) => ({ ticketTypeId }));

describe('countTicketTypes', () => {
  it.each([
    [
      "the tour's types in its order, zero included",
      [adult, child],
      held('tt_child', 'tt_adult', 'tt_child'),
      [
        { ticketTypeId: 'tt_adult', name: 'Adult', count: 1 },
        { ticketTypeId: 'tt_child', name: 'Child', count: 2 },
      ],
    ],
    [
      'nobody yet: every type at zero',
      [adult, child],
      [],
      [
        { ticketTypeId: 'tt_adult', name: 'Adult', count: 0 },
        { ticketTypeId: 'tt_child', name: 'Child', count: 0 },
      ],
    ],
    [
      'a tour without types counts everyone as Standard (null)',
      [],
      held(null, null),
      [{ ticketTypeId: null, name: 'Standard', count: 2 }],
    ],
    [
      'a tour without types and nobody: Standard at zero',
      [],
      [],
      [{ ticketTypeId: null, name: 'Standard', count: 0 }],
    ],
    [
      'bookings from before ticket types count as Standard, after the types',
      [adult],
      held(null, 'tt_adult'),
      [
        { ticketTypeId: 'tt_adult', name: 'Adult', count: 1 },
        { ticketTypeId: null, name: 'Standard', count: 1 },
      ],
    ],
    [
      'a type the tour no longer sells is named by its id',
      [adult],
      held('tt_gone', 'tt_gone'),
      [
        { ticketTypeId: 'tt_adult', name: 'Adult', count: 0 },
        { ticketTypeId: 'tt_gone', name: 'tt_gone', count: 2 },
      ],
    ],
  ])('%s', (_name, ticketTypes, participants, counts) => {
    expect(countTicketTypes({ ticketTypes }, participants)).toEqual(counts);
  });
});

const participant = (id: string, overrides: Partial<Participant> = {}): Participant => ({
  id,
  name: `Guest ${id}`,
  ageBand: 'ADULT',
  dietaryNotes: null,
  accessibilityNotes: null,
  emergencyContact: null,
  waiverSigned: false,
  checkedInAt: null,
  ticketTypeId: 'tt_adult',
  price: 1000,
  ...overrides,
});

const customer = (id: string, name: string, phone: string | null): Customer =>
  ({ id, name, email: `${id}@example.com`, phone }) as Customer;

const booking = (id: string, customerId: string, participants: Participant[]): BookingRecord =>
  ({
    id,
    customerId,
    status: 'CONFIRMED',
    paymentStatus: 'PAID',
    externalReference: null,
    notes: null,
    participants,
  }) as BookingRecord;

const departure = { id: 'avl_1', salesStatus: 'AVAILABLE' } as DepartureView;
const tour = {
  id: 'tour_1',
  slug: 'walk',
  name: 'Walk',
  timeZone: 'Europe/Berlin',
  meetingPoint: null,
  ticketTypes: [adult, child],
};

describe('buildManifest', () => {
  const manifest = buildManifest(
    departure,
    tour,
    [
      booking('bkg_1', 'cus_1', [
        participant('p1', { checkedInAt: '2030-01-01T09:00:00.000Z', waiverSigned: true }),
        participant('p2', { ticketTypeId: 'tt_child', ageBand: 'CHILD', dietaryNotes: 'vegan' }),
      ]),
      booking('bkg_2', 'cus_2', [participant('p3', { ticketTypeId: null, emergencyContact: 'Mum +1 555' })]),
    ],
    [customer('cus_2', 'Bo', null), customer('cus_1', 'Ada', '+44 1')],
  );

  it("joins each booking's customer contact and names each participant's ticket type", () => {
    expect(manifest.bookings.map((b) => [b.id, b.customer.name, b.customer.phone])).toEqual([
      ['bkg_1', 'Ada', '+44 1'],
      ['bkg_2', 'Bo', null],
    ]);
    expect(manifest.bookings.flatMap((b) => b.participants.map((p) => p.ticketTypeName))).toEqual([
      'Adult',
      'Child',
      'Standard',
    ]);
  });

  it('counts types, bookings, participants and check-ins', () => {
    expect(manifest.counts.map((c) => [c.ticketTypeId, c.count])).toEqual([
      ['tt_adult', 1],
      ['tt_child', 1],
      [null, 1],
    ]);
    expect(manifest.totals).toEqual({ bookings: 2, participants: 3, checkedIn: 1 });
    expect(manifest.tour).toEqual({
      id: 'tour_1',
      slug: 'walk',
      name: 'Walk',
      timeZone: 'Europe/Berlin',
      meetingPoint: null,
    });
  });

  it('as a table: a header, then one row per participant with its booking and customer, nulls empty', () => {
    const [header, ...rows] = manifestTable(manifest);
    expect(header?.slice(0, 3)).toEqual(['bookingId', 'bookingStatus', 'paymentStatus']);
    expect(rows).toHaveLength(3);
    const cell = (row: number, column: string) => rows[row]?.[header?.indexOf(column) ?? -1];
    expect(cell(0, 'customerEmail')).toBe('cus_1@example.com');
    expect(cell(0, 'waiverSigned')).toBe('true');
    expect(cell(0, 'checkedInAt')).toBe('2030-01-01T09:00:00.000Z');
    expect(cell(1, 'dietaryNotes')).toBe('vegan');
    expect(cell(1, 'ticketType')).toBe('Child');
    expect(cell(2, 'customerPhone')).toBe('');
    expect(cell(2, 'ticketTypeId')).toBe('');
    expect(cell(2, 'emergencyContact')).toBe('Mum +1 555');
    expect(rows.every((row) => row.length === header?.length)).toBe(true);
  });

  it('a booking whose customer is missing is a bug: it throws', () => {
    expect(() => buildManifest(departure, tour, [booking('bkg_3', 'cus_x', [])], [])).toThrow(/cus_x/);
  });
});
