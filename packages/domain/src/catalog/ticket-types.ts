import { unprocessable } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import { fail, ok, type Result } from '../shared/result.js';
import type { DeparturePrice } from './availability-schemas.js';
import type { TicketType, TicketTypeInput, Tour } from './tour-schemas.js';

const fromInput = (input: TicketTypeInput, id: string): TicketType => ({
  id,
  name: input.name,
  ageBand: input.ageBand,
  price: input.price,
  minAge: input.minAge ?? null,
  maxAge: input.maxAge ?? null,
  minPerBooking: input.minPerBooking ?? null,
  maxPerBooking: input.maxPerBooking ?? null,
  requiresAdult: input.requiresAdult ?? false,
});

/**
 * The tour's ticket types after a POST or PATCH sent `inputs` (the whole list): an entry
 * with an `id` changes that type, one without is a new type, and a type left out is removed
 * unless a booking still uses it (`inUse`: ids on live bookings).
 */
export function mergeTicketTypes(
  current: readonly TicketType[],
  inputs: readonly TicketTypeInput[],
  inUse: ReadonlySet<string>,
): Result<TicketType[]> {
  const known = new Set(current.map((t) => t.id));
  const next: TicketType[] = [];
  for (const [index, input] of inputs.entries()) {
    if (input.id !== undefined && !known.has(input.id)) {
      return fail(
        unprocessable('The tour has no such ticket type.', `ticketTypes[${index}].id`, 'not_found'),
      );
    }
    next.push(fromInput(input, input.id ?? newId('ticketType')));
  }
  const kept = new Set(next.map((t) => t.id));
  const removed = current.find((t) => !kept.has(t.id) && inUse.has(t.id));
  if (removed) {
    return fail(
      unprocessable(
        `Ticket type ${removed.id} is on bookings and cannot be removed; change its price or name instead.`,
        'ticketTypes',
        'ticket_type_in_use',
      ),
    );
  }
  return ok(next);
}

/** A departure's price overrides must name the tour's ticket types (422 on the entry otherwise). */
export function checkDeparturePrices(
  tour: { ticketTypes: readonly TicketType[] },
  prices: readonly DeparturePrice[],
): Result<DeparturePrice[]> {
  const index = prices.findIndex((p) => !tour.ticketTypes.some((t) => t.id === p.ticketTypeId));
  if (index >= 0) {
    return fail(
      unprocessable('The tour has no such ticket type.', `prices[${index}].ticketTypeId`, 'not_found'),
    );
  }
  return ok(prices.map((p) => ({ ticketTypeId: p.ticketTypeId, price: p.price })));
}

/** The lowest price a guest can pay for one seat of the departure ("from" prices). */
export function fromPrice(
  tour: Pick<Tour, 'basePrice' | 'ticketTypes'>,
  overrides: readonly DeparturePrice[],
): number {
  if (tour.ticketTypes.length === 0) return tour.basePrice;
  return Math.min(
    ...tour.ticketTypes.map((t) => overrides.find((o) => o.ticketTypeId === t.id)?.price ?? t.price),
  );
}
