import type { DepartureForBooking } from '../../catalog/index.js';
import type { Clock } from '../../shared/ports.js';
import { fail, ok, type Result } from '../../shared/result.js';
import { releaseExpiredHolds } from '../booking-writes.js';
import type { BookingStores } from '../ports.js';
import type { BookingCreateInput } from '../schemas.js';
import { decideSale, type Sale } from './decide-sale.js';
import { NO_SUCH_DEPARTURE } from './find-departure.js';

/** Whether the departure has a PENDING booking past its hold: seats that are taken but not sold. */
export const hasExpiredHolds = async (
  stores: Pick<BookingStores, 'bookings'>,
  now: Date,
  workspaceId: string,
  availabilityId: string,
) => (await stores.bookings.findExpiredHolds(now, { workspaceId, availabilityId, limit: 1 })).length > 0;

/** A decided sale and the read it was decided on (the version the seats are taken at). */
export interface DecidedSale {
  read: DepartureForBooking;
  sale: Sale;
}

/**
 * Decides the sale on the departure as read. Full as read, with expired holds on it: those
 * are released under the departure's lock (the worker would, later) and the sale is decided
 * again on a fresh read, so a lapsed hold never makes a 409.
 */
export async function decideSaleFreeingExpiredHolds(
  stores: BookingStores,
  clock: Clock,
  workspaceId: string,
  first: DepartureForBooking,
  input: Pick<BookingCreateInput, 'participants' | 'addOns'>,
  now: Date,
): Promise<Result<DecidedSale>> {
  const sale = decideSale(first, input, now);
  if (sale.ok) return ok({ read: first, sale: sale.value });
  const departureId = first.departure.id;
  if (sale.error.code !== 'CONFLICT' || !(await hasExpiredHolds(stores, now, workspaceId, departureId))) {
    return sale;
  }
  await stores.departures.lock(workspaceId, departureId);
  await releaseExpiredHolds(stores, clock, workspaceId, departureId);
  const read = await stores.departures.findForBooking(workspaceId, departureId);
  if (!read) return fail(NO_SUCH_DEPARTURE);
  const again = decideSale(read, input, now);
  return again.ok ? ok({ read, sale: again.value }) : again;
}
