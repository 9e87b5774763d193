import type { BookingRecord, ResellerContact, UpdateBookingInput } from '@travelops/domain/bookings';
import type { Departure } from '@travelops/domain/catalog';
import { type PlannedUnitItem, participantsOf } from '../booking-mapping.js';

/**
 * What the native `updateBooking` must change, or null when nothing of the booking itself does:
 * another departure, the participants of new unit items, the notes.
 */
export function bookingPatchOf(args: {
  booking: Pick<BookingRecord, 'availabilityId'>;
  target: Pick<Departure, 'id'> | null;
  planned: readonly PlannedUnitItem[] | null;
  contact: ResellerContact | null;
  notes: string | null | undefined;
}): UpdateBookingInput | null {
  const { booking, target, planned, contact, notes } = args;
  const moving = target !== null && target.id !== booking.availabilityId;
  if (!moving && !planned && notes === undefined) return null;
  return {
    ...(moving && { availabilityId: target.id }),
    ...(planned && { participants: participantsOf(planned, contact) }),
    ...(notes !== undefined && { notes }),
  };
}
