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

const HOUR_MS = 60 * 60 * 1000;

/**
 * Whether one more confirmation may go to a recipient who was sent `sentInHour` in the last
 * hour, this one included: a stranger must not make the operator's name mail anyone unbounded.
 */
export function confirmationWithinCap(sentInHour: number, perHour: number | null): boolean {
  return perHour === null || sentInHour <= perHour;
}

/** How the announcement went: a confirmation over the recipient's hourly cap is withheld. */
export interface Announcement {
  confirmationWithheld: boolean;
}

type AnnouncePolicy = Pick<BookingChannelPolicy, 'emailsConfirmation' | 'confirmationsPerRecipientPerHour'>;

/** Appends the new booking's events (and e-mail request) to the outbox, in its transaction. */
export async function announceBooking(
  stores: Pick<BookingStores, 'outbox' | 'bookings'>,
  clock: Clock,
  booking: BookingRecord,
  policy: AnnouncePolicy,
): Promise<Announcement> {
  const notices = createdNotices(booking.status, policy);
  for (const event of notices.events) await emitBookingEvent(stores, clock, event, booking);
  if (!notices.emailConfirmation) return { confirmationWithheld: false };
  const perHour = policy.confirmationsPerRecipientPerHour;
  if (perHour !== null) {
    // Concurrent bookings to one address queue here, so each count sees every earlier one.
    await stores.bookings.lockRecipient(booking.workspaceId, booking.customerId);
    const since = new Date(clock.now().getTime() - HOUR_MS);
    const sent = await stores.bookings.freePublicBookingsSince(
      booking.workspaceId,
      booking.customerId,
      since,
    );
    if (!confirmationWithinCap(sent, perHour)) return { confirmationWithheld: true };
  }
  await requestGuestEmail(stores, clock, booking, { template: 'booking_confirmed' });
  return { confirmationWithheld: false };
}
