import type { ParticipantInput, PublicDeparture, TicketType, Tour } from './api.js';

/** A line of the "Who is coming?" step: one ticket type at this departure's price. */
export interface TicketRow {
  /** The ticket type's id, or `null` on a tour without ticket types (every seat one ADULT at `basePrice`). */
  ticketTypeId: string | null;
  name: string;
  price: number;
  type: Pick<
    TicketType,
    'ageBand' | 'minAge' | 'maxAge' | 'minPerBooking' | 'maxPerBooking' | 'requiresAdult'
  >;
}

/** How many of each row the guest picked, by row index. */
export type Party = number[];

const ADULT_BANDS = new Set(['ADULT', 'SENIOR']);

/**
 * The rows a guest picks from, priced as the service prices them (the departure's override,
 * else the type's price; a tour without types sells `basePrice` seats).
 */
export function ticketRows(
  tour: Pick<Tour, 'ticketTypes' | 'basePrice'>,
  departure: Pick<PublicDeparture, 'prices'>,
  fallbackName: string,
): TicketRow[] {
  if (tour.ticketTypes.length === 0) {
    return [
      {
        ticketTypeId: null,
        name: fallbackName,
        price: tour.basePrice,
        type: {
          ageBand: 'ADULT',
          minAge: null,
          maxAge: null,
          minPerBooking: null,
          maxPerBooking: null,
          requiresAdult: false,
        },
      },
    ];
  }
  return tour.ticketTypes.map((type) => ({
    ticketTypeId: type.id,
    name: type.name,
    price: departure.prices.find((p) => p.ticketTypeId === type.id)?.price ?? type.price,
    type,
  }));
}

export const partySize = (party: Party): number => party.reduce((sum, n) => sum + n, 0);

/** The live price: each picked seat at its row's price, in minor units. */
export const partyTotal = (rows: readonly TicketRow[], party: Party): number =>
  rows.reduce((sum, row, i) => sum + row.price * (party[i] ?? 0), 0);

/** At most the seats left and the tour's limit for one public booking. */
export const maxPartySize = (
  tour: Pick<Tour, 'maxSeatsPerPublicBooking'>,
  departure: Pick<PublicDeparture, 'seatsRemaining'>,
): number => Math.max(0, Math.min(tour.maxSeatsPerPublicBooking, departure.seatsRemaining));

/** Whether one more of row `i` fits: the party's limit and the type's `maxPerBooking`. */
export function canAdd(rows: readonly TicketRow[], party: Party, i: number, limit: number): boolean {
  const max = rows[i]?.type.maxPerBooking;
  return partySize(party) < limit && (max === null || max === undefined || (party[i] ?? 0) < max);
}

export type PartyProblem =
  | { kind: 'needs_adult'; row: number }
  | { kind: 'below_minimum'; row: number; min: number }
  | { kind: 'empty' };

/** What stops the party from booking, as the service would refuse it (checked again there). */
export function partyProblems(rows: readonly TicketRow[], party: Party): PartyProblem[] {
  if (partySize(party) === 0) return [{ kind: 'empty' }];
  const problems: PartyProblem[] = [];
  const hasAdult = rows.some((row, i) => (party[i] ?? 0) > 0 && ADULT_BANDS.has(row.type.ageBand));
  rows.forEach((row, i) => {
    const count = party[i] ?? 0;
    if (count === 0) return;
    if (row.type.requiresAdult && !hasAdult) problems.push({ kind: 'needs_adult', row: i });
    if (row.type.minPerBooking !== null && count < row.type.minPerBooking) {
      problems.push({ kind: 'below_minimum', row: i, min: row.type.minPerBooking });
    }
  });
  return problems;
}

/** One seat per picked person, in row order: `[row index, n-th of that row]`. */
export const seatsOf = (party: Party): [number, number][] =>
  party.flatMap((count, row) => Array.from({ length: count }, (_, n) => [row, n + 1] as [number, number]));

/** The participants of the booking: each seat's typed name and ticket type. */
export function participantsOf(
  rows: readonly TicketRow[],
  party: Party,
  names: readonly string[],
): ParticipantInput[] {
  return seatsOf(party).map(([row], i) => {
    const ticket = rows[row];
    const name = (names[i] ?? '').trim();
    // The band too, so the booking says who is a child even where the type is not shown.
    return ticket?.ticketTypeId
      ? { name, ticketTypeId: ticket.ticketTypeId, ageBand: ticket.type.ageBand }
      : { name };
  });
}
