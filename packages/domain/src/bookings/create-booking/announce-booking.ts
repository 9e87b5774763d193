import { requestGuestEmail } from '../../notifications/index.js';
import type { Clock } from '../../shared/ports.js';
import { emitBookingEvent } from '../booking-writes.js';
import type { BookingChannelPolicy } from '../channel-policy.js';
import type { BookingRecord, BookingStores } from '../ports.js';

/** What a new booking tells: its events, in order, and whether the guest is e-mailed its confirmation. */
export interface CreatedNotices {
  events: Array<'booking.created' | 'booking.confirmed'>;
  emailConfirmation: boolean;
}

export function createdNotices(
  status: BookingRecord['status'],
  policy: Pick<BookingChannelPolicy, 'emailsConfirmation'>,
): CreatedNotices {
  const confirmed = status === 'CONFIRMED';
  return {
    events: confirmed ? ['booking.created', 'booking.confirmed'] : ['booking.created'],
    emailConfirmation: confirmed && policy.emailsConfirmation,
  };
}

/** Appends the new booking's events (and e-mail request) to the outbox, in its transaction. */
export async function announceBooking(
  stores: Pick<BookingStores, 'outbox'>,
  clock: Clock,
  booking: BookingRecord,
  policy: Pick<BookingChannelPolicy, 'emailsConfirmation'>,
): Promise<void> {
  const notices = createdNotices(booking.status, policy);
  for (const event of notices.events) await emitBookingEvent(stores, clock, event, booking);
  if (notices.emailConfirmation) {
    await requestGuestEmail(stores, clock, booking, { template: 'booking_confirmed' });
  }
}
