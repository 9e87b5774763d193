import type { BookingRecord, Participant, ResellerContact } from '../bookings/index.js';
import type { Customer } from './customer-schemas.js';

// Decisions §13: what an erasure leaves in place of a person's data. Pure: the use case
// decides with these, the store writes what they answer.

/** The name an erased customer keeps (lists and reports still show a row). */
export const ERASED_NAME = 'Erased customer';
/** What replaces a person's value inside free text (notes, reasons, subjects, JSON copies). */
export const ERASED_TEXT = '[erased]';
/** Values shorter than this are not searched for in free text: they would erase ordinary words. */
const MIN_TERM_LENGTH = 3;

/** Unique per customer (e-mails are unique per workspace) and undeliverable (RFC 2606 `.invalid`). */
export const erasedEmail = (customerId: string): string => `${customerId.toLowerCase()}@erased.invalid`;

/** A participant without their person: name numbered, notes and contact gone; seat, price, ticket kept. */
export const neutralParticipant = (participant: Participant, index: number): Participant => ({
  ...participant,
  name: `Participant ${index + 1}`,
  dietaryNotes: null,
  accessibilityNotes: null,
  emergencyContact: null,
});

/** An OCTO reseller's copy of the contact, emptied. */
export const NEUTRAL_RESELLER_CONTACT: ResellerContact = {
  fullName: null,
  firstName: null,
  lastName: null,
  emailAddress: null,
  phoneNumber: null,
  locales: [],
  postalCode: null,
  country: null,
  notes: null,
};

/**
 * The values an erasure searches for in free text and copies: the customer's name, e-mail and
 * phone, and every participant's name and emergency contact, longest first (so that a longer
 * value is replaced before a shorter one inside it).
 */
export function erasureTerms(customer: Customer, bookings: readonly BookingRecord[]): string[] {
  const values = [customer.name, customer.email, customer.phone];
  for (const booking of bookings) {
    for (const participant of booking.participants)
      values.push(participant.name, participant.emergencyContact);
  }
  const terms = new Set<string>();
  for (const value of values) {
    const term = value?.trim();
    if (term && term.length >= MIN_TERM_LENGTH) terms.add(term);
  }
  return [...terms].sort((a, b) => b.length - a.length);
}

const escapeRegExp = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A function that replaces every term, whatever its case, by `[erased]` in a text. */
export function textScrubber(terms: readonly string[]): (text: string) => string {
  if (terms.length === 0) return (text) => text;
  const pattern = new RegExp(terms.map(escapeRegExp).join('|'), 'gi');
  return (text) => text.replace(pattern, ERASED_TEXT);
}

/** The same over a JSON value: every string inside it (values, not keys) scrubbed. */
export function jsonScrubber(terms: readonly string[]): (value: unknown) => unknown {
  const scrub = textScrubber(terms);
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') return scrub(value);
    if (Array.isArray(value)) return value.map(walk);
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, walk(inner)]));
    }
    return value;
  };
  return walk;
}

/** Bookings still to happen: live (PENDING or CONFIRMED) and starting after `now`. */
export const upcomingBookings = (bookings: readonly BookingRecord[], now: Date): BookingRecord[] =>
  bookings.filter(
    (booking) =>
      (booking.status === 'PENDING' || booking.status === 'CONFIRMED') &&
      new Date(booking.startsAt).getTime() > now.getTime(),
  );
