import { notFound, validationError } from '../shared/errors.js';
import type { PageRequest, UnitOfWork } from '../shared/ports.js';
import { fail, ok } from '../shared/result.js';
import type { BookingFilter, BookingStores } from './ports.js';
import type { BookingSort } from './schemas.js';

export interface BookingReadDeps {
  uow: UnitOfWork<Pick<BookingStores, 'bookings' | 'bookingHistory'>>;
}

export async function getBooking(deps: BookingReadDeps, workspaceId: string, bookingId: string) {
  const booking = await deps.uow.stores.bookings.findById(workspaceId, bookingId);
  return booking ? ok(booking) : fail(notFound('booking'));
}

export function listBookings(
  deps: BookingReadDeps,
  workspaceId: string,
  filter: BookingFilter,
  sort: BookingSort,
  page: PageRequest,
) {
  return deps.uow.stores.bookings.list(workspaceId, filter, sort, page);
}

/**
 * Partner sync (`updatedSince`): changes oldest first, by `updatedAt` then id; the order is the
 * feed's own, so a `sort` other than `updatedAt` is 400 rather than silently ignored.
 */
export async function listBookingChanges(
  deps: BookingReadDeps,
  workspaceId: string,
  filter: BookingFilter,
  query: { updatedSince: string; sort?: BookingSort | undefined },
  page: PageRequest,
) {
  if (query.sort !== undefined && query.sort !== 'updatedAt') {
    return fail(
      validationError('With updatedSince, bookings come oldest change first: omit sort or use updatedAt.', [
        { field: 'sort', issue: 'conflicts_with_updated_since' },
      ]),
    );
  }
  return ok(await deps.uow.stores.bookings.listChanges(workspaceId, filter, query.updatedSince, page));
}

export async function listBookingHistory(
  deps: BookingReadDeps,
  workspaceId: string,
  bookingId: string,
  page: PageRequest,
) {
  const booking = await deps.uow.stores.bookings.findById(workspaceId, bookingId);
  if (!booking) return fail(notFound('booking'));
  return ok(await deps.uow.stores.bookingHistory.list(workspaceId, bookingId, page));
}
