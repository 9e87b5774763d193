import type { BookingRecord, BookingStores } from '../bookings/index.js';
import { appendEvent } from '../events/index.js';
import type { Clock } from '../shared/ports.js';
import type { GuestEmailRequest } from './schemas.js';

/**
 * Asks the worker to e-mail the booking's guest: a `notification.email_requested` event in the
 * caller's transaction, so a change that rolls back asks for nothing and one that commits is
 * never forgotten. The worker writes the message from the booking as it then stands.
 */
export function requestGuestEmail(
  stores: Pick<BookingStores, 'outbox'>,
  clock: Clock,
  booking: BookingRecord,
  request: GuestEmailRequest,
): Promise<void> {
  return appendEvent(
    { outbox: stores.outbox, clock },
    {
      type: 'notification.email_requested',
      workspaceId: booking.workspaceId,
      aggregateId: booking.id,
      data: { ...request, bookingId: booking.id, customerId: booking.customerId },
    },
  );
}
