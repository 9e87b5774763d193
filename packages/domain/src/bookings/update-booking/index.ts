import type { Clock, UnitOfWork } from '../../shared/ports.js';
import type { Result } from '../../shared/result.js';
import { type BookingChannelPolicy, NATIVE_CHANNEL } from '../channel-policy.js';
import type { BookingContext, BookingRecord, BookingStores } from '../ports.js';
import type { UpdateBookingInput } from '../schemas.js';
import { announceChange } from './announce-change.js';
import { buildPatch } from './build-patch.js';
import { checkChangeable } from './check-changeable.js';
import { checkCurrency } from './check-currency.js';
import { checkRoom } from './check-room.js';
import { moveSeats } from './move-seats.js';
import { planChange } from './plan-change.js';
import { reprice } from './reprice.js';
import { saveChange } from './save-change.js';

export interface UpdateBookingDeps {
  uow: UnitOfWork<
    Pick<BookingStores, 'bookings' | 'departures' | 'blackoutDates' | 'tours' | 'payments' | 'outbox'>
  >;
  clock: Clock;
}

/**
 * Decisions §4: PATCH moves seats atomically; only PENDING or CONFIRMED bookings change. The
 * booking and its departures are locked first (always in one order), then the change is
 * planned, priced and checked before any seat moves. Whether a booking may change tour is
 * the channel `policy`'s.
 */
export function updateBooking(
  deps: UpdateBookingDeps,
  ctx: BookingContext,
  bookingId: string,
  input: UpdateBookingInput,
  ifMatchVersion?: number,
  policy: Pick<BookingChannelPolicy, 'changesTour'> = NATIVE_CHANNEL,
): Promise<Result<BookingRecord>> {
  return deps.uow.transaction(async ({ stores }) => {
    const { workspaceId } = ctx;
    const locked = await stores.bookings.lockWithDepartures(workspaceId, bookingId, input.availabilityId);
    if (!locked.ok) return locked;
    const { booking, departures } = locked.value;
    const changeable = checkChangeable(booking, ifMatchVersion);
    if (!changeable.ok) return changeable;
    const now = deps.clock.now();
    const plan = planChange(booking, departures, input, policy);
    if (!plan.ok) return plan;
    const { target, changingTour, moving } = plan.value;
    const tour = plan.value.needsTour ? await stores.tours.findById(workspaceId, target.tourId) : null;
    const currency = checkCurrency(booking, tour, changingTour);
    if (!currency.ok) return currency;
    const repriced = reprice(booking, tour, target, input.participants, changingTour);
    if (!repriced.ok) return repriced;
    const room = await checkRoom(stores, workspaceId, booking, plan.value, tour, now);
    if (!room.ok) return room;
    const seats = await moveSeats(stores, workspaceId, booking, plan.value);
    if (!seats.ok) return seats;
    const patch = buildPatch(booking, plan.value, tour, input, repriced.value);
    const saved = await saveChange(stores, workspaceId, booking, patch, input.externalReference);
    if (!saved.ok) return saved;
    await announceChange(stores, deps.clock, booking, saved.value, input, moving);
    return saved;
  });
}
