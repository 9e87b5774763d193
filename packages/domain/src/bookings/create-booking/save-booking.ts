import type { Result } from '../../shared/result.js';
import type { BookingRecord, BookingStores } from '../ports.js';
import type { BookingDraft } from './build-booking.js';

/**
 * Writes the booking in one statement (history, payment page and a new customer's stats in
 * it), then claims its external reference: a reference another booking has is 409 and the
 * transaction rolls back.
 */
export async function saveBooking(
  stores: Pick<BookingStores, 'bookings'>,
  draft: Pick<BookingDraft, 'booking' | 'first'>,
  externalReference: string | undefined,
): Promise<Result<BookingRecord>> {
  const inserted = await stores.bookings.insert(draft.booking, draft.first);
  if (!inserted.ok || externalReference === undefined) return inserted;
  const { workspaceId, id } = inserted.value;
  return stores.bookings.claimExternalReference(workspaceId, id, externalReference);
}
