import type { DepartureForBooking } from '../../catalog/index.js';
import { type NewPaymentSession, newPaymentSession } from '../../payments/index.js';
import type { PaymentMode } from '../../shared/enums.js';
import { newId } from '../../shared/ids.js';
import { newPublicToken, statusEntry, toParticipants } from '../booking-writes.js';
import type { BookingChannelPolicy } from '../channel-policy.js';
import type { BookingContext, FirstBookingWrites, NewBooking } from '../ports.js';
import { derivePaymentStatus } from '../rules.js';
import type { BookingCreateInput } from '../schemas.js';
import type { HoldDecision } from './decide-hold.js';
import type { Sale } from './decide-sale.js';
import type { BookingCustomer } from './find-customer.js';

/** The booking to write, what it starts with (written in its statement), and its payment page. */
export interface BookingDraft {
  booking: NewBooking;
  first: FirstBookingWrites;
  session: NewPaymentSession | null;
}

export interface DraftFacts {
  ctx: BookingContext;
  input: Pick<BookingCreateInput, 'participants' | 'notes'>;
  read: Pick<DepartureForBooking, 'departure' | 'tour'>;
  sale: Sale;
  customer: BookingCustomer;
  mode: PaymentMode;
  hold: HoldDecision;
  now: Date;
}

/** The payment page the booking opens with, open as long as its hold. */
function firstSession(
  booking: Pick<NewBooking, 'id' | 'workspaceId' | 'currency'>,
  hold: HoldDecision,
  ctx: BookingContext,
): NewPaymentSession | null {
  if (!hold.payment || !hold.expiresAt) return null;
  // A guest booking for themselves returns to their booking page; an operator's link may be sent to anyone.
  const openedBy = ctx.actor.type === 'guest' ? 'guest' : 'operator';
  return newPaymentSession(booking, hold.payment.amount, hold.payment.purpose, hold.expiresAt, openedBy);
}

/** The new booking, written once: its payment page is chosen first, so the booking names it. */
export function buildBooking(
  facts: DraftFacts,
  policy: Pick<BookingChannelPolicy, 'holder' | 'notesBy'>,
): BookingDraft {
  const { ctx, input, read, sale, customer, mode, hold, now } = facts;
  const { departure, tour } = read;
  const { workspaceId } = ctx;
  const id = newId('booking');
  const session = firstSession({ id, workspaceId, currency: tour.currency }, hold, ctx);
  const words = input.notes ?? null;
  const booking: NewBooking = {
    id,
    workspaceId,
    status: hold.status,
    paymentStatus: derivePaymentStatus(sale.total, 0, 0),
    paymentMode: mode,
    totalAmount: sale.total,
    currency: tour.currency,
    availabilityId: departure.id,
    tourId: tour.id,
    startsAt: departure.startsAt,
    customerId: customer.id,
    participantCount: input.participants.length,
    participants: toParticipants(input.participants, sale.seats),
    addOns: sale.addOns,
    amountPaid: 0,
    amountRefunded: 0,
    paymentIntentId: session?.id ?? null,
    publicToken: newPublicToken(),
    notes: policy.notesBy === 'operator' ? words : null,
    expiresAt: hold.expiresAt?.toISOString() ?? null,
    confirmedAt: hold.status === 'CONFIRMED' ? now.toISOString() : null,
    cancelledAt: null,
    cancellationReason: null,
    externalReference: null,
    guestMessage: policy.notesBy === 'guest' ? words : null,
    holderKey: policy.holder?.key ?? null,
    // The guest agrees to the tour's policy as it is now; later edits of the tour leave it.
    cancellationPolicy: tour.cancellationPolicy,
  };
  const first: FirstBookingWrites = {
    history: statusEntry({ id, workspaceId, status: hold.status }, null, ctx.actor, null),
    ...(session && { paymentSession: session }),
    // A customer made just now is this transaction's alone: its stats go in with the booking.
    refreshCustomerStats: customer.isNew,
  };
  return { booking, first, session };
}
