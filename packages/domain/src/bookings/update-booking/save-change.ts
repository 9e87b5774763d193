import { ok, type Result } from '../../shared/result.js';
import type { BookingPatch, BookingRecord, BookingStores } from '../ports.js';

/**
 * Writes the patch (a new total first closes the open payment pages: they show the old amount,
 * and a new link or retry asks for the new one), then claims a new external reference: one
 * another booking has is 409 and the transaction rolls back.
 */
export async function saveChange(
  stores: Pick<BookingStores, 'bookings' | 'payments'>,
  workspaceId: string,
  booking: Pick<BookingRecord, 'id' | 'externalReference'>,
  patch: BookingPatch,
  externalReference: string | null | undefined,
): Promise<Result<BookingRecord>> {
  if (patch.totalAmount !== undefined) await stores.payments.expireOpenSessions(booking.id);
  const updated = await stores.bookings.update(workspaceId, booking.id, patch);
  if (externalReference === undefined || externalReference === booking.externalReference) return ok(updated);
  return stores.bookings.claimExternalReference(workspaceId, booking.id, externalReference);
}
