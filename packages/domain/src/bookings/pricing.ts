import type { DeparturePrice, TicketType, Tour } from '../catalog/index.js';
import type { AgeBand } from '../shared/enums.js';
import { type DomainError, validationError } from '../shared/errors.js';
import { fail, ok, type Result } from '../shared/result.js';

/** What one participant asked for: a ticket type, or an age band that picks one. */
export interface TicketRequest {
  ticketTypeId?: string | undefined;
  ageBand?: AgeBand | undefined;
}

/** The seat a participant was sold: its type (null on a tour without types) and its price. */
export interface PricedSeat {
  ticketTypeId: string | null;
  price: number;
}

const ADULT_BANDS: ReadonlySet<AgeBand> = new Set(['ADULT', 'SENIOR']);

const refuse = (index: number, issue: string, message: string): Result<never> =>
  fail<DomainError>(validationError(message, [{ field: `participants[${index}].ticketTypeId`, issue }]));

/** The type a participant gets: its `ticketTypeId`, else its band's type, else the ADULT type. */
function resolve(types: readonly TicketType[], request: TicketRequest): TicketType | undefined {
  if (request.ticketTypeId !== undefined) return types.find((t) => t.id === request.ticketTypeId);
  const band = request.ageBand ?? 'ADULT';
  return types.find((t) => t.ageBand === band);
}

/**
 * Prices each participant's seat (issue: ticket types). A tour without ticket types sells
 * every seat at `basePrice`, as before. Otherwise each participant resolves to a type, whose
 * price is the departure's override or the type's own; then the per-booking rules hold: at
 * least `minPerBooking` and at most `maxPerBooking` of a type, and a type that
 * `requiresAdult` needs an ADULT or SENIOR on the booking. Refusals name the participant.
 */
export function priceSeats(
  tour: Pick<Tour, 'basePrice' | 'ticketTypes'>,
  overrides: readonly DeparturePrice[],
  requests: readonly TicketRequest[],
): Result<PricedSeat[]> {
  if (tour.ticketTypes.length === 0) {
    const named = requests.findIndex((r) => r.ticketTypeId !== undefined);
    if (named >= 0) return refuse(named, 'not_sold', 'This tour sells no ticket types.');
    return ok(requests.map(() => ({ ticketTypeId: null, price: tour.basePrice })));
  }
  const types: TicketType[] = [];
  for (const [index, request] of requests.entries()) {
    const type = resolve(tour.ticketTypes, request);
    if (!type) return refuse(index, 'not_sold', 'The tour does not sell this ticket type.');
    types.push(type);
  }
  for (const type of tour.ticketTypes) {
    const holders = types.flatMap((t, index) => (t.id === type.id ? [index] : []));
    const [first] = holders;
    if (first === undefined) continue;
    if (type.minPerBooking !== null && holders.length < type.minPerBooking) {
      return refuse(first, 'below_minimum', `${type.name}: at least ${type.minPerBooking} per booking.`);
    }
    const over = type.maxPerBooking === null ? undefined : holders[type.maxPerBooking];
    if (over !== undefined) {
      return refuse(over, 'above_maximum', `${type.name}: at most ${type.maxPerBooking} per booking.`);
    }
    if (type.requiresAdult && !types.some((t) => ADULT_BANDS.has(t.ageBand))) {
      return refuse(first, 'adult_required', `${type.name} needs an adult or senior on the booking.`);
    }
  }
  return ok(
    types.map((type) => ({
      ticketTypeId: type.id,
      price: overrides.find((o) => o.ticketTypeId === type.id)?.price ?? type.price,
    })),
  );
}
