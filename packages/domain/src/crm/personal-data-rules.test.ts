import { describe, expect, it } from 'vitest';
import type { BookingRecord, Participant } from '../bookings/index.js';
import type { Customer } from './customer-schemas.js';
import {
  ERASED_TEXT,
  erasedEmail,
  erasureTerms,
  jsonScrubber,
  neutralParticipant,
  textScrubber,
  upcomingBookings,
} from './personal-data-rules.js';

const customer = {
  id: 'cus_Ab1',
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  phone: '+351 912 345 678',
} as Customer;

const participant = (name: string, emergencyContact: string | null = null): Participant => ({
  id: `par_${name}`,
  name,
  ageBand: 'ADULT',
  dietaryNotes: 'no nuts',
  accessibilityNotes: 'wheelchair',
  emergencyContact,
  waiverSigned: true,
  checkedInAt: null,
  ticketTypeId: 'tt_adult',
  price: 4500,
});

const booking = (status: BookingRecord['status'], startsAt: string, participants: Participant[] = []) =>
  ({ id: `bkg_${status}_${startsAt}`, status, startsAt, participants }) as unknown as BookingRecord;

describe('erasureTerms (decisions §13)', () => {
  it('takes the name, e-mail, phone and every participant, longest first, without repeats or short values', () => {
    const terms = erasureTerms(customer, [
      booking('CONFIRMED', '2026-01-01T10:00:00.000Z', [
        participant('Ada Lovelace'),
        participant('Bo'),
        participant('Charles Babbage', 'Mary, +44 20 1234'),
      ]),
    ]);
    expect(terms).toEqual([
      'Mary, +44 20 1234',
      '+351 912 345 678',
      'ada@example.com',
      'Charles Babbage',
      'Ada Lovelace',
    ]);
  });
});

describe('scrubbers', () => {
  const terms = ['Charles Babbage', 'ada@example.com', 'Ada Lovelace'];

  it.each([
    ['Call Ada Lovelace back', `Call ${ERASED_TEXT} back`],
    ['mail ADA@EXAMPLE.COM and ada lovelace', `mail ${ERASED_TEXT} and ${ERASED_TEXT}`],
    ['nothing personal', 'nothing personal'],
    ['a (regex) [chars] $1 stay', 'a (regex) [chars] $1 stay'],
  ])('text %j becomes %j', (text, scrubbed) => {
    expect(textScrubber(terms)(text)).toBe(scrubbed);
  });

  it('scrubs every string value of a JSON copy, keeps keys, numbers and booleans', () => {
    const scrub = jsonScrubber(terms);
    expect(
      scrub({
        customer: { name: 'Ada Lovelace', email: 'ada@example.com' },
        participants: [{ name: 'Charles Babbage', price: 4500, waiverSigned: true }],
        note: null,
      }),
    ).toEqual({
      customer: { name: ERASED_TEXT, email: ERASED_TEXT },
      participants: [{ name: ERASED_TEXT, price: 4500, waiverSigned: true }],
      note: null,
    });
  });

  it('with no terms, changes nothing', () => {
    expect(textScrubber([])('Ada')).toBe('Ada');
  });
});

describe('neutral values', () => {
  it('a participant keeps seat, ticket, price, waiver and check-in; loses name, notes and contact', () => {
    expect(neutralParticipant(participant('Ada Lovelace', 'Mary'), 1)).toEqual({
      ...participant('Ada Lovelace'),
      name: 'Participant 2',
      dietaryNotes: null,
      accessibilityNotes: null,
      emergencyContact: null,
    });
  });

  it('the e-mail is unique per customer and undeliverable', () => {
    expect(erasedEmail('cus_Ab1')).toBe('cus_ab1@erased.invalid');
  });
});

describe('upcomingBookings', () => {
  const now = new Date('2026-06-01T12:00:00.000Z');
  it.each<[BookingRecord['status'], string, boolean]>([
    ['CONFIRMED', '2026-06-02T10:00:00.000Z', true],
    ['PENDING', '2026-06-01T12:00:01.000Z', true],
    ['CONFIRMED', '2026-06-01T12:00:00.000Z', false],
    ['CANCELLED', '2026-07-01T10:00:00.000Z', false],
    ['COMPLETED', '2026-05-01T10:00:00.000Z', false],
    ['NO_SHOW', '2026-07-01T10:00:00.000Z', false],
  ])('%s starting %s is upcoming: %s', (status, startsAt, upcoming) => {
    expect(upcomingBookings([booking(status, startsAt)], now).length === 1).toBe(upcoming);
  });
});
