import {
  type BookingContext,
  type BookingRecord,
  setBookingStatus,
  toBookingView,
} from '../bookings/index.js';
import { notFound, unprocessable } from '../shared/errors.js';
import type { Clock, UnitOfWork } from '../shared/ports.js';
import { fail, ok, type Result } from '../shared/result.js';
import {
  ERASED_NAME,
  ERASED_TEXT,
  erasedEmail,
  erasureTerms,
  jsonScrubber,
  NEUTRAL_RESELLER_CONTACT,
  neutralParticipant,
  textScrubber,
  upcomingBookings,
} from './personal-data-rules.js';
import type { CustomerExport, EraseCustomerInput, ErasureReport } from './personal-data-schemas.js';
import type { CrmStores, ErasurePlan } from './ports.js';

// Personal data (decisions §13): a customer's export, their erasure, and the retention limit.

type PersonalDataStores = Pick<CrmStores, 'customers' | 'personalData'>;

/** Everything held about one customer, as JSON (GET .../customers/{id}/export). */
export async function exportCustomerData(
  deps: { uow: UnitOfWork<PersonalDataStores>; clock: Clock },
  workspaceId: string,
  customerId: string,
): Promise<Result<CustomerExport>> {
  const { customers, personalData } = deps.uow.stores;
  const customer = await customers.findById(workspaceId, customerId);
  if (!customer) return fail(notFound('customer'));
  const [erasedAt, records] = await Promise.all([
    personalData.erasedAt(workspaceId, customerId),
    personalData.collect(workspaceId, customerId),
  ]);
  const now = deps.clock.now();
  return ok({
    exportedAt: now.toISOString(),
    customer,
    erasedAt: erasedAt ?? null,
    consents: { marketingConsent: customer.marketingConsent, guestEmailOptOuts: records.guestEmailOptOuts },
    bookings: records.bookings.map((booking) => toBookingView(booking, now)),
    guestEmails: records.guestEmails,
    notes: records.notes,
    tasks: records.tasks,
    leads: records.leads,
    itineraries: records.itineraries,
    resellerContacts: records.resellerContacts,
  });
}

type SetStatusDeps = Parameters<typeof setBookingStatus>[0];
type EraseCustomerDeps = Omit<SetStatusDeps, 'uow'> & {
  uow: UnitOfWork<SetStatusDeps['uow']['stores'] & PersonalDataStores>;
};

const upcomingRefused = (upcoming: readonly BookingRecord[]) =>
  unprocessable(
    `The customer has ${upcoming.length} upcoming booking${upcoming.length === 1 ? '' : 's'} ` +
      `(${upcoming.map((booking) => booking.id).join(', ')}): cancel ${upcoming.length === 1 ? 'it' : 'them'} ` +
      'first, or send cancelUpcoming: true.',
    'cancelUpcoming',
    'upcoming_bookings',
  );

/**
 * Replaces the customer's personal data everywhere it is held by neutral values, keeping
 * amounts, dates and seats. Refused (422 naming them) while a booking is still to come,
 * unless `cancelUpcoming`: those are cancelled first (seats released, the guest not e-mailed).
 */
export function eraseCustomer(
  deps: EraseCustomerDeps,
  ctx: BookingContext,
  customerId: string,
  input: EraseCustomerInput,
): Promise<Result<ErasureReport>> {
  return deps.uow.transaction(async (tx) => {
    const { personalData } = tx.stores;
    const erasedAt = await personalData.erasedAt(ctx.workspaceId, customerId);
    if (erasedAt === undefined) return fail(notFound('customer'));
    if (erasedAt) return ok(alreadyErased(customerId, erasedAt));
    const upcoming = upcomingBookings(
      await personalData.bookingsOf(ctx.workspaceId, customerId),
      deps.clock.now(),
    );
    if (upcoming.length > 0 && !input.cancelUpcoming) return fail(upcomingRefused(upcoming));
    // Before the customer's lock: a cancel locks departure, booking, then customer (every seat write's order).
    for (const booking of upcoming) {
      const cancelled = await setBookingStatus({ ...deps, uow: tx }, ctx, booking.id, {
        status: 'CANCELLED',
        reason: 'Customer data erased',
      });
      if (!cancelled.ok) return cancelled;
    }
    return eraseLocked(
      tx.stores,
      deps.clock,
      ctx.workspaceId,
      customerId,
      upcoming.map((booking) => booking.id),
    );
  });
}

const alreadyErased = (customerId: string, erasedAt: string): ErasureReport => ({
  customerId,
  erasedAt,
  alreadyErased: true,
  cancelledBookingIds: [],
  rewritten: {},
});

async function eraseLocked(
  stores: PersonalDataStores,
  clock: Clock,
  workspaceId: string,
  customerId: string,
  cancelledBookingIds: string[],
): Promise<Result<ErasureReport>> {
  const locked = await stores.personalData.lockCustomer(workspaceId, customerId);
  if (!locked) return fail(notFound('customer'));
  if (locked.erasedAt) return ok(alreadyErased(customerId, locked.erasedAt));
  const bookings = await stores.personalData.bookingsOf(workspaceId, customerId);
  // A booking made between the check and the lock: refused like any upcoming one.
  const upcoming = upcomingBookings(bookings, clock.now());
  if (upcoming.length > 0) return fail(upcomingRefused(upcoming));
  const terms = erasureTerms(locked.customer, bookings);
  const erasedAt = clock.now().toISOString();
  const plan: ErasurePlan = {
    erasedAt,
    customer: { name: ERASED_NAME, email: erasedEmail(customerId) },
    terms,
    participant: neutralParticipant,
    text: textScrubber(terms),
    json: jsonScrubber(terms),
    erasedText: ERASED_TEXT,
    resellerContact: NEUTRAL_RESELLER_CONTACT,
  };
  const rewritten = await stores.personalData.erase(workspaceId, customerId, plan);
  return ok({ customerId, erasedAt, alreadyErased: false, cancelledBookingIds, rewritten });
}

/**
 * The retention limit (a workspace's `customerRetentionMonths`): erases, one transaction each,
 * up to `limit` customers whose last departure is older; answers who was erased.
 */
export async function eraseCustomersPastRetention(
  deps: { uow: UnitOfWork<PersonalDataStores>; clock: Clock },
  limit = 100,
): Promise<(ErasureReport & { workspaceId: string })[]> {
  const due = await deps.uow.stores.personalData.findPastRetention(deps.clock.now(), limit);
  const erased: (ErasureReport & { workspaceId: string })[] = [];
  for (const { workspaceId, customerId } of due) {
    const result = await deps.uow.transaction((tx) =>
      eraseLocked(tx.stores, deps.clock, workspaceId, customerId, []),
    );
    // A booking made since the query keeps the customer: the next run looks again.
    if (result.ok && !result.value.alreadyErased) erased.push({ ...result.value, workspaceId });
  }
  return erased;
}
