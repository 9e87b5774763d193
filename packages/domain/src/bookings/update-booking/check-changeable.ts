import { conflict, unprocessable } from '../../shared/errors.js';
import { fail, ok, type Result } from '../../shared/result.js';
import type { BookingRecord } from '../ports.js';

/** Decisions §4: the version the caller read, if it names one (If-Match), and only PENDING or CONFIRMED bookings change. */
export function checkChangeable(
  booking: Pick<BookingRecord, 'version' | 'status'>,
  ifMatchVersion: number | undefined,
): Result<true> {
  if (ifMatchVersion !== undefined && ifMatchVersion !== booking.version) {
    return fail(conflict('The booking changed since you read it (If-Match).', 'If-Match', 'stale'));
  }
  if (booking.status !== 'PENDING' && booking.status !== 'CONFIRMED') {
    return fail(unprocessable(`A ${booking.status} booking cannot change.`, 'status', 'invalid_state'));
  }
  return ok(true);
}
