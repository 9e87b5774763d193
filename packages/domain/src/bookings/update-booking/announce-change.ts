import { type GuestEmailRequest, requestGuestEmail } from '../../notifications/index.js';
import type { Clock } from '../../shared/ports.js';
import { emitBookingEvent } from '../booking-writes.js';
import type { BookingRecord, BookingStores } from '../ports.js';
import type { UpdateBookingInput } from '../schemas.js';

/**
 * What the guest would notice (another day, other people) is e-mailed, with what it was,
 * unless the operator says not to; other changes are not.
 */
export function changeEmail(
  before: Pick<BookingRecord, 'startsAt' | 'participantCount'>,
  input: Pick<UpdateBookingInput, 'participants' | 'notifyCustomer'>,
  moving: boolean,
): GuestEmailRequest | null {
  if ((!moving && !input.participants) || input.notifyCustomer === false) return null;
  return {
    template: 'booking_changed',
    previousStartsAt: moving ? before.startsAt : null,
    previousParticipantCount: input.participants ? before.participantCount : null,
  };
}

/** Appends `booking.updated` and, when the guest would notice, its e-mail request. */
export async function announceChange(
  stores: Pick<BookingStores, 'outbox'>,
  clock: Clock,
  before: Pick<BookingRecord, 'startsAt' | 'participantCount'>,
  updated: BookingRecord,
  input: Pick<UpdateBookingInput, 'participants' | 'notifyCustomer'>,
  moving: boolean,
): Promise<void> {
  await emitBookingEvent(stores, clock, 'booking.updated', updated);
  const email = changeEmail(before, input, moving);
  if (email) await requestGuestEmail(stores, clock, updated, email);
}
