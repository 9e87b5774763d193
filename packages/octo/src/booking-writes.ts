// What every reseller write shares: who acts, the native use cases' deps joined to the
// transaction, the hold's length, the customer a contact files the booking under, and why a
// booking cannot change.

import type { Actor, BookingRecord, ResellerContact } from '@travelops/domain/bookings';
import type { UnitOfWork } from '@travelops/domain/shared';
import { newId, type Result } from '@travelops/domain/shared';
import { customerOf, DEFAULT_HOLD_MINUTES, MAX_HOLD_MINUTES, octoStatusOf } from './booking-mapping.js';
import { type OctoError, unprocessableEntity } from './errors.js';
import type { OctoCaller, OctoDeps, OctoStores } from './ports.js';

const actorOf = (caller: OctoCaller): Actor => ({ type: 'api_token', id: caller.connectionId });
export const contextOf = (caller: OctoCaller) => ({
  workspaceId: caller.workspaceId,
  actor: actorOf(caller),
});

/** The deps of the booking use cases, joined to this transaction. */
export const joined = (deps: OctoDeps, tx: UnitOfWork<OctoStores>) => ({
  uow: tx,
  clock: deps.clock,
  payments: deps.payments,
});

export const holdMinutes = (asked: number | undefined) =>
  Math.min(asked ?? DEFAULT_HOLD_MINUTES, MAX_HOLD_MINUTES);

/**
 * Bookings with a contact without an e-mail are filed under the connection's own customer
 * (`octo-<token id>@reseller.invalid`, a domain that never receives mail), named after it.
 */
export async function connectionCustomer(stores: OctoStores, caller: OctoCaller) {
  const token = await stores.apiTokens.findById(caller.connectionId);
  return {
    name: `${token?.name ?? 'OCTO reseller'} (OCTO)`.slice(0, 200),
    email: `octo-${caller.connectionId.toLowerCase()}@reseller.invalid`,
  };
}

/**
 * Files the booking under the contact's customer (found or created by e-mail), when the
 * contact has one and it is another customer than now; both customers' figures follow.
 */
export async function refileCustomer(stores: OctoStores, booking: BookingRecord, contact: ResellerContact) {
  const wanted = customerOf(contact);
  if (!wanted) return booking;
  const customer = await stores.customers.findOrCreateByEmail(booking.workspaceId, {
    id: newId('customer'),
    name: wanted.name,
    email: wanted.email,
    phone: wanted.phone ?? null,
    tags: [],
    marketingConsent: false,
  });
  if (customer.id === booking.customerId) return booking;
  const updated = await stores.bookings.update(booking.workspaceId, booking.id, { customerId: customer.id });
  await stores.customers.refreshStats(booking.workspaceId, booking.customerId);
  await stores.customers.refreshStats(booking.workspaceId, customer.id);
  return updated;
}

/** Why the booking cannot be confirmed or changed, in the reseller's words. */
export function refusal(
  booking: BookingRecord,
  now: Date,
  action: 'confirmed' | 'changed',
): Result<never, OctoError> {
  const status = octoStatusOf(booking, now);
  if (status === 'EXPIRED') return unprocessableEntity('The reservation has expired: reserve again.');
  if (status === 'CONFIRMED' && action === 'changed') {
    return unprocessableEntity('The cancellation cutoff has passed: the booking can no longer change.');
  }
  return unprocessableEntity(`A ${status} booking cannot be ${action}.`);
}
