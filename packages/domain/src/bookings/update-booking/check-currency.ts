import type { Tour } from '../../catalog/index.js';
import { unprocessable } from '../../shared/errors.js';
import { fail, ok, type Result } from '../../shared/result.js';
import type { BookingRecord } from '../ports.js';

/** A booking moving to another tour takes that tour's currency, only while nothing has been paid. */
export function checkCurrency(
  booking: Pick<BookingRecord, 'currency' | 'amountPaid'>,
  tour: Pick<Tour, 'currency'> | null,
  changingTour: boolean,
): Result<true> {
  if (!changingTour || !tour || tour.currency === booking.currency || booking.amountPaid <= 0)
    return ok(true);
  return fail(
    unprocessable(
      `The booking was paid in ${booking.currency}; that tour sells in ${tour.currency}.`,
      'availabilityId',
      'currency_differs',
    ),
  );
}
