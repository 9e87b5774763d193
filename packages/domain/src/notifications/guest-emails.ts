import type { BookingStore } from '../bookings/index.js';
import { notFound } from '../shared/errors.js';
import type { UnitOfWork } from '../shared/ports.js';
import { fail, ok, type Result } from '../shared/result.js';
import type { GuestEmailStore } from './ports.js';
import type { GuestEmail } from './schemas.js';

type Deps<K extends 'guestEmails' | 'bookings'> = {
  uow: UnitOfWork<Pick<{ guestEmails: GuestEmailStore; bookings: BookingStore }, K>>;
};

/** The newest messages written (`/dev/mail`, development only). */
export function listGuestEmails(deps: Deps<'guestEmails'>, limit: number): Promise<GuestEmail[]> {
  return deps.uow.stores.guestEmails.listRecent(limit);
}

export async function getGuestEmail(deps: Deps<'guestEmails'>, id: string): Promise<Result<GuestEmail>> {
  const email = await deps.uow.stores.guestEmails.findById(id);
  return email ? ok(email) : fail(notFound('e-mail'));
}

/**
 * A reminder's `List-Unsubscribe`: the guest with the booking's token gets no more reminders
 * for that booking (confirmations, receipts and changes still come: they are the booking's).
 */
export async function unsubscribeFromReminders(
  deps: Deps<'guestEmails' | 'bookings'>,
  publicToken: string,
): Promise<Result<{ bookingId: string }>> {
  const booking = await deps.uow.stores.bookings.findByPublicToken(publicToken);
  if (!booking) return fail(notFound('booking'));
  await deps.uow.stores.guestEmails.optOutOfReminders(booking.workspaceId, booking.id);
  return ok({ bookingId: booking.id });
}
