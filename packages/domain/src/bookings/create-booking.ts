import type { DepartureForBooking, SeatRefusal, Tour } from '../catalog/index.js';
import { requestGuestEmail } from '../notifications/index.js';
import { newPaymentSession, type PaymentProvider } from '../payments/index.js';
import type { PaymentMode } from '../shared/enums.js';
import { conflict, type DomainError, rateLimitedError, unprocessable } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import type { Clock, UnitOfWork } from '../shared/ports.js';
import { fail, ok, type Result } from '../shared/result.js';
import {
  emitBookingEvent,
  newPublicToken,
  releaseExpiredHolds,
  statusEntry,
  toParticipants,
} from './booking-writes.js';
import type { BookingContext, BookingRecord, BookingStores } from './ports.js';
import { type PricedSeat, priceSeats } from './pricing.js';
import {
  checkSeats,
  derivePaymentStatus,
  firstPaymentAmount,
  holdExpiry,
  priceBooking,
  soldOut,
} from './rules.js';
import type { BookingAddOn, BookingCreateInput } from './schemas.js';
import type { BookingLinks } from './view.js';

export interface CreateBookingDeps {
  uow: UnitOfWork<BookingStores>;
  clock: Clock;
  payments: PaymentProvider;
}

export interface CreateBookingOptions {
  /**
   * Guests book only published tours and pay online (CHECKOUT or DEPOSIT). Resellers (OCTO)
   * book only published tours too, in MANUAL mode (the reseller pays the operator, so no
   * payment page), and their booking holds its seats for `holdMinutes` until they confirm it.
   */
  channel: 'api' | 'public' | 'reseller';
  /**
   * Guests only: who holds (an opaque key of the client) and how many unpaid holds one client
   * may have on one departure at once (issue: holds that cannot be hoarded).
   */
  holder?: { key: string; maxLiveHolds: number };
  /** Resellers only: how long the reservation holds its seats (required for that channel). */
  holdMinutes?: number;
  /**
   * When the seats are taken: `atCommit` (the default) with the transaction's COMMIT, so a hot
   * departure's row is locked the shortest time; `now`, before this returns, for a caller that
   * reads the departure's seats later in the same transaction (OCTO's reservation answers with
   * the departure's vacancies).
   */
  seats?: 'atCommit' | 'now';
}

/** The public channel's brakes: seats per booking, and unpaid holds per client and departure. */
async function checkPublicHold(
  stores: Pick<BookingStores, 'bookings'>,
  tour: Pick<Tour, 'maxSeatsPerPublicBooking'>,
  departureId: string,
  count: number,
  holder: CreateBookingOptions['holder'],
  now: Date,
): Promise<Result<true>> {
  if (count > tour.maxSeatsPerPublicBooking) {
    return fail(
      unprocessable(
        `Book at most ${tour.maxSeatsPerPublicBooking} seats online; contact the operator for a group.`,
        'participants',
        'too_many_for_public_booking',
      ),
    );
  }
  if (!holder) return ok(true);
  // One client's concurrent holds queue on this pair (others' bookings do not): the count sees them all.
  await stores.bookings.lockHolder(departureId, holder.key);
  const held = await stores.bookings.liveHoldsOf(departureId, holder.key, now);
  if (held.count < holder.maxLiveHolds) return ok(true);
  const wait = held.earliestExpiry ? (held.earliestExpiry.getTime() - now.getTime()) / 1000 : 60;
  return fail(
    rateLimitedError(
      `This device already holds ${held.count} unpaid bookings on this departure: pay or wait for one to lapse.`,
      wait,
    ),
  );
}

/**
 * Decisions §3's hold, the tour's shorter `publicHoldMinutes` for a guest's unpaid booking, or
 * the reservation's own for a reseller.
 */
function holdUntil(mode: PaymentMode, now: Date, options: CreateBookingOptions, tour: Tour) {
  if (options.channel === 'public') return new Date(now.getTime() + tour.publicHoldMinutes * 60_000);
  if (options.channel === 'reseller') return new Date(now.getTime() + (options.holdMinutes ?? 0) * 60_000);
  return holdExpiry(mode, now);
}

/** What the booking sells, decided on the departure as read: seats priced, the total, room left. */
interface Sale {
  seats: PricedSeat[];
  total: number;
  addOns: BookingAddOn[];
}

function decideSale(read: DepartureForBooking, input: BookingCreateInput, now: Date): Result<Sale> {
  const seats = priceSeats(read.tour, read.departure.prices, input.participants);
  if (!seats.ok) return seats;
  const price = priceBooking(
    read.tour,
    seats.value.map((seat) => seat.price),
    input.addOns ?? [],
  );
  if (!price.ok) return price;
  const room = checkSeats(read.departure, input.participants.length, now, read.blackouts, read.tour.timeZone);
  if (!room.ok) return room;
  return ok({ seats: seats.value, ...price.value });
}

/** The owner of the transaction rolls it back and runs the whole booking again, on fresh reads. */
const DECIDE_AGAIN: DomainError = {
  ...conflict('The departure changed while this booking was made; try again.'),
  retryable: true,
};

const hasExpiredHolds = async (
  stores: Pick<BookingStores, 'bookings'>,
  now: Date,
  workspaceId: string,
  availabilityId: string,
) => (await stores.bookings.findExpiredHolds(now, { workspaceId, availabilityId, limit: 1 })).length > 0;

/** Why no seat was taken, as the answer: 409 only when the departure as validated is full. */
async function refusal(
  stores: Pick<BookingStores, 'bookings'>,
  now: Date,
  workspaceId: string,
  availabilityId: string,
  refused: SeatRefusal,
): Promise<DomainError> {
  if (refused.reason === 'stale') return DECIDE_AGAIN;
  // Stale holds never cause a 409: the next run finds it full as read and releases them first.
  if (await hasExpiredHolds(stores, now, workspaceId, availabilityId)) return DECIDE_AGAIN;
  return soldOut(refused);
}

/**
 * Decisions §2-§3: price, hold, open the payment, emit `booking.created`, and reserve the seats
 * atomically. The departure is read without a lock and its seats are taken with the commit
 * (`takeSeatsAtCommit`: in the same round trip, after whatever the caller writes; only an
 * existing customer's stats follow), by a conditional update at the version validated, so a
 * hot departure's row is locked only while the commit happens. A departure edited or filled
 * meanwhile makes the whole transaction run again; one full by then is 409 and nothing of the
 * booking stays. The answer is ok before the seats are taken: it stands only if the commit does.
 */
export function createBooking(
  deps: CreateBookingDeps,
  ctx: BookingContext,
  input: BookingCreateInput,
  options: CreateBookingOptions = { channel: 'api' },
): Promise<Result<{ booking: BookingRecord; links: BookingLinks }>> {
  const mode = input.paymentMode ?? 'CHECKOUT';
  if (options.channel === 'public' && mode !== 'CHECKOUT' && mode !== 'DEPOSIT') {
    return Promise.resolve(
      fail(unprocessable('Guests pay online: use CHECKOUT or DEPOSIT.', 'paymentMode', 'not_allowed')),
    );
  }
  if (options.channel === 'reseller' && (mode !== 'MANUAL' || !options.holdMinutes)) {
    throw new Error('A reseller books in MANUAL mode, with a hold of some minutes.');
  }
  return deps.uow.transaction(async ({ stores }) => {
    const now = deps.clock.now();
    const { workspaceId } = ctx;
    const count = input.participants.length;
    let read = await stores.availability.findForBooking(workspaceId, input.availabilityId);
    if (!read || (options.channel !== 'api' && !read.tour.isPublic)) {
      return fail(unprocessable('No such departure.', 'availabilityId', 'not_found'));
    }
    if (options.channel === 'public') {
      const allowed = await checkPublicHold(stores, read.tour, read.departure.id, count, options.holder, now);
      if (!allowed.ok) return allowed;
    }
    let sale = decideSale(read, input, now);
    // Full as read, with expired holds on it: release them under the departure's lock, read again.
    if (
      !sale.ok &&
      sale.error.code === 'CONFLICT' &&
      (await hasExpiredHolds(stores, now, workspaceId, read.departure.id))
    ) {
      await stores.availability.lock(workspaceId, read.departure.id);
      await releaseExpiredHolds(stores, deps.clock, workspaceId, read.departure.id);
      read = await stores.availability.findForBooking(workspaceId, read.departure.id);
      if (!read) return fail(unprocessable('No such departure.', 'availabilityId', 'not_found'));
      sale = decideSale(read, input, now);
    }
    if (!sale.ok) return sale;
    const { departure, tour, version } = read;

    const customerId = newId('customer');
    const customer = await stores.customers.findOrCreateByEmail(workspaceId, {
      id: customerId,
      name: input.customer.name,
      email: input.customer.email,
      phone: input.customer.phone ?? null,
      tags: [],
      marketingConsent: false,
    });
    const { total } = sale.value;
    const settled = total === 0;
    // A reseller's reservation holds until it is confirmed, whatever it costs.
    const holds = !settled || options.channel === 'reseller';
    const expiresAt = holds ? holdUntil(mode, now, options, tour) : null;
    const status = settled && mode !== 'MANUAL' ? 'CONFIRMED' : 'PENDING';
    const id = newId('booking');
    // The payment page is chosen first, so the booking is written once, already naming it.
    const session =
      mode !== 'MANUAL' && !settled && expiresAt
        ? newPaymentSession(
            { id, workspaceId, currency: tour.currency },
            firstPaymentAmount(mode, total, tour.depositPercent),
            mode === 'DEPOSIT' ? 'DEPOSIT' : 'FULL',
            expiresAt,
          )
        : null;
    const inserted = await stores.bookings.insert(
      {
        id,
        workspaceId,
        status,
        paymentStatus: derivePaymentStatus(total, 0, 0),
        paymentMode: mode,
        totalAmount: total,
        currency: tour.currency,
        availabilityId: departure.id,
        tourId: tour.id,
        startsAt: departure.startsAt,
        customerId: customer.id,
        participantCount: count,
        participants: toParticipants(input.participants, sale.value.seats),
        addOns: sale.value.addOns,
        amountPaid: 0,
        amountRefunded: 0,
        paymentIntentId: session?.id ?? null,
        publicToken: newPublicToken(),
        notes: input.notes ?? null,
        expiresAt: expiresAt?.toISOString() ?? null,
        confirmedAt: status === 'CONFIRMED' ? now.toISOString() : null,
        cancelledAt: null,
        cancellationReason: null,
        externalReference: null,
        holderKey: options.channel === 'public' ? (options.holder?.key ?? null) : null,
        // The guest agrees to the tour's policy as it is now; later edits of the tour leave it.
        cancellationPolicy: tour.cancellationPolicy,
      },
      {
        history: statusEntry({ id, workspaceId, status }, null, ctx.actor, null),
        ...(session && { paymentSession: session }),
        // A customer made just now is this transaction's alone: its stats go in with the booking.
        refreshCustomerStats: customer.id === customerId,
      },
    );
    if (!inserted.ok) return inserted;
    let booking = inserted.value;
    if (input.externalReference !== undefined) {
      const claimed = await stores.bookings.claimExternalReference(
        workspaceId,
        booking.id,
        input.externalReference,
      );
      if (!claimed.ok) return claimed;
      booking = claimed.value;
    }
    const links: BookingLinks = {};
    if (session) {
      const url = deps.payments.checkoutUrl(session);
      if (mode === 'PAYMENT_LINK') links.paymentLinkUrl = url;
      else links.checkoutUrl = url;
    }
    await emitBookingEvent(stores, deps.clock, 'booking.created', booking);
    if (booking.status === 'CONFIRMED')
      await emitBookingEvent(stores, deps.clock, 'booking.confirmed', booking);
    // A guest's free booking is confirmed at once: its confirmation is the guest's only e-mail.
    if (booking.status === 'CONFIRMED' && options.channel === 'public')
      await requestGuestEmail(stores, deps.clock, booking, { template: 'booking_confirmed' });

    // Last: the seats, at the version validated above. With the commit by default: the
    // departure's row is locked only while PostgreSQL commits; refused then, the transaction
    // runs again from a fresh read (DECIDE_AGAIN's path).
    if (options.seats === 'now') {
      const taken = await stores.availability.takeSeats(workspaceId, departure.id, count, version);
      if (!taken.ok) return fail(await refusal(stores, now, workspaceId, departure.id, taken.error));
    } else {
      await stores.availability.takeSeatsAtCommit(workspaceId, departure.id, count, version);
    }
    // Another transaction may lock an existing customer's row, a cancel after its departure's:
    // locked after the seats, it is taken in that same order (never a cycle).
    if (customer.id !== customerId) {
      if (options.seats === 'now') await stores.customers.refreshStats(workspaceId, customer.id);
      else await stores.customers.refreshStatsAtCommit(workspaceId, customer.id);
    }
    return ok({ booking, links });
  });
}
