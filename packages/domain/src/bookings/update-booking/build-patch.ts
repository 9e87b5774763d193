import type { Tour } from '../../catalog/index.js';
import { toParticipants } from '../booking-writes.js';
import type { BookingPatch, BookingRecord } from '../ports.js';
import { derivePaymentStatus } from '../rules.js';
import type { UpdateBookingInput } from '../schemas.js';
import type { ChangePlan } from './plan-change.js';
import type { Repriced } from './reprice.js';

type PatchedBooking = Pick<BookingRecord, 'totalAmount' | 'amountPaid' | 'amountRefunded'>;

/** The total after the change: the operator's own figure, else the new participants' price, else as it was. */
export function newTotal(
  booking: Pick<BookingRecord, 'totalAmount'>,
  input: Pick<UpdateBookingInput, 'totalAmount'>,
  repriced: Repriced | null,
): number {
  if (input.totalAmount !== undefined) return input.totalAmount;
  return repriced ? repriced.total : booking.totalAmount;
}

/** The booking's new fields: departure, tour and currency, participants, notes, total and payment status. */
export function buildPatch(
  booking: PatchedBooking,
  plan: Pick<ChangePlan, 'target' | 'moving' | 'changingTour' | 'count'>,
  tour: Pick<Tour, 'id' | 'currency'> | null,
  input: Pick<UpdateBookingInput, 'participants' | 'notes' | 'totalAmount'>,
  repriced: Repriced | null,
): BookingPatch {
  const patch: BookingPatch = {};
  if (plan.moving) {
    patch.availabilityId = plan.target.id;
    patch.startsAt = plan.target.startsAt;
  }
  if (plan.changingTour && tour) {
    patch.tourId = tour.id;
    patch.currency = tour.currency;
  }
  if (input.participants) {
    patch.participants = toParticipants(input.participants, repriced?.seats ?? []);
    patch.participantCount = plan.count;
  }
  if (input.notes !== undefined) patch.notes = input.notes;
  const total = newTotal(booking, input, repriced);
  if (total !== booking.totalAmount) {
    patch.totalAmount = total;
    patch.paymentStatus = derivePaymentStatus(total, booking.amountPaid, booking.amountRefunded);
  }
  return patch;
}
