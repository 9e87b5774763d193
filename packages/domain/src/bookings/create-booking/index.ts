import type { PaymentProvider } from '../../payments/index.js';
import type { Clock, UnitOfWork } from '../../shared/ports.js';
import { ok, type Result } from '../../shared/result.js';
import { type BookingChannelPolicy, NATIVE_CHANNEL } from '../channel-policy.js';
import type { BookingContext, BookingRecord, BookingStores } from '../ports.js';
import type { BookingCreateInput } from '../schemas.js';
import type { BookingLinks } from '../view.js';
import { type Announcement, announceBooking } from './announce-booking.js';
import { bookingLinks } from './booking-links.js';
import { buildBooking } from './build-booking.js';
import { checkChannelLimits } from './check-channel-limits.js';
import { choosePaymentMode } from './choose-payment-mode.js';
import { decideHold } from './decide-hold.js';
import { findOrCreateCustomer } from './find-customer.js';
import { findDeparture } from './find-departure.js';
import { decideSaleFreeingExpiredHolds } from './free-expired-holds.js';
import { saveBooking } from './save-booking.js';
import { takeSeats } from './take-seats.js';

/** The new booking, its one-time links, and whether its confirmation e-mail was withheld (over the cap). */
export interface CreatedBooking extends Announcement {
  booking: BookingRecord;
  links: BookingLinks;
}

export interface CreateBookingDeps {
  uow: UnitOfWork<BookingStores>;
  clock: Clock;
  payments: PaymentProvider;
}

/**
 * Decisions §2-§3: price, hold, open the payment, emit `booking.created`, and reserve the seats
 * atomically. The departure is read without a lock and its seats are taken with the commit
 * (`takeSeatsAtCommit`: in the same round trip, after whatever the caller writes; only an
 * existing customer's stats follow), by a conditional update at the version validated, so a
 * hot departure's row is locked only while the commit happens. A departure edited or filled
 * meanwhile makes the whole transaction run again; one full by then is 409 and nothing of the
 * booking stays. The answer is ok before the seats are taken: it stands only if the commit does.
 * What differs by channel (native, guest, reseller) is the `policy`'s.
 */
export function createBooking(
  deps: CreateBookingDeps,
  ctx: BookingContext,
  input: BookingCreateInput,
  policy: BookingChannelPolicy = NATIVE_CHANNEL,
): Promise<Result<CreatedBooking>> {
  const mode = choosePaymentMode(input.paymentMode, policy);
  if (!mode.ok) return Promise.resolve(mode);
  return deps.uow.transaction(async ({ stores }) => {
    const now = deps.clock.now();
    const { workspaceId } = ctx;
    const count = input.participants.length;
    const found = await findDeparture(stores, workspaceId, input.availabilityId, policy);
    if (!found.ok) return found;
    const allowed = await checkChannelLimits(stores, found.value, count, policy, now);
    if (!allowed.ok) return allowed;
    const decided = await decideSaleFreeingExpiredHolds(
      stores,
      deps.clock,
      workspaceId,
      found.value,
      input,
      now,
    );
    if (!decided.ok) return decided;
    const { read, sale } = decided.value;
    const customer = await findOrCreateCustomer(stores, workspaceId, input.customer);
    const hold = decideHold(mode.value, sale.total, read.tour, now, policy);
    const draft = buildBooking({ ctx, input, read, sale, customer, mode: mode.value, hold, now }, policy);
    const saved = await saveBooking(stores, draft, input.externalReference);
    if (!saved.ok) return saved;
    const announced = await announceBooking(stores, deps.clock, saved.value, policy);
    const taken = await takeSeats(stores, workspaceId, read, count, customer, policy, now);
    if (!taken.ok) return taken;
    const links = bookingLinks(draft.session, mode.value, deps.payments);
    return ok({ booking: saved.value, links, ...announced });
  });
}
