import { conflict, type DomainError, fail, type Result, type UnitOfWork } from '@travelops/domain/shared';
import type { Knex } from 'knex';
import { isSeatsRefused } from './commit-statements.js';
import { signalIfAppended } from './outbox-notify.js';
import { createApiTokenStore } from './stores/api-tokens.js';
import { createBlackoutDateStore } from './stores/blackout-dates.js';
import { createBookingHistoryStore } from './stores/booking-history.js';
import { createBookingStore } from './stores/bookings.js';
import { createCompanyStore } from './stores/companies.js';
import { createCrmTaskStore } from './stores/crm-tasks.js';
import { createCustomerNoteStore } from './stores/customer-notes.js';
import { createCustomerTimelineStore } from './stores/customer-timeline.js';
import { createCustomerStore } from './stores/customers.js';
import { createDepartureHistoryStore } from './stores/departure-history.js';
import { createDepartureStore } from './stores/departures.js';
import { createGuestEmailStore } from './stores/guest-emails.js';
import { createGuideStore, createTimeOffStore } from './stores/guides.js';
import { createIdempotencyStore } from './stores/idempotency.js';
import { createIncidentStore } from './stores/incidents.js';
import { createItineraryStore } from './stores/itineraries.js';
import { createLeadStore } from './stores/leads.js';
import { createMemberStore } from './stores/members.js';
import { createOutboxStore } from './stores/outbox.js';
import { createPaymentStore } from './stores/payments.js';
import { createPersonalDataStore } from './stores/personal-data.js';
import { createProviderEventStore } from './stores/provider-events.js';
import { createResellerBookingStore } from './stores/reseller-bookings.js';
import { createResourceStore } from './stores/resources.js';
import { createScheduleStore } from './stores/schedules.js';
import { createSessionStore } from './stores/sessions.js';
import { createTourStore } from './stores/tours.js';
import { createTwoFactorStore } from './stores/two-factor.js';
import { createVehicleStore, createVendorStore } from './stores/vehicles.js';
import { createWebhookDeliveryStore } from './stores/webhook-deliveries.js';
import { createWebhookEndpointStore } from './stores/webhook-endpoints.js';
import { createWorkspaceStore } from './stores/workspaces.js';

/** Thrown only to make knex roll back; `transaction` turns it back into the failure it carries. */
class RollbackSignal extends Error {
  constructor(readonly failure: Result<never, unknown>) {
    super('Rolled back: the work returned a failure.');
  }
}

const FACTORIES = {
  tours: createTourStore,
  departures: createDepartureStore,
  departureHistory: createDepartureHistoryStore,
  customers: createCustomerStore,
  workspaces: createWorkspaceStore,
  members: createMemberStore,
  apiTokens: createApiTokenStore,
  sessions: createSessionStore,
  twoFactor: createTwoFactorStore,
  bookings: createBookingStore,
  bookingHistory: createBookingHistoryStore,
  payments: createPaymentStore,
  providerEvents: createProviderEventStore,
  outbox: createOutboxStore,
  idempotency: createIdempotencyStore,
  webhookEndpoints: createWebhookEndpointStore,
  webhookDeliveries: createWebhookDeliveryStore,
  guestEmails: createGuestEmailStore,
  companies: createCompanyStore,
  leads: createLeadStore,
  crmTasks: createCrmTaskStore,
  customerNotes: createCustomerNoteStore,
  customerTimeline: createCustomerTimelineStore,
  personalData: createPersonalDataStore,
  blackoutDates: createBlackoutDateStore,
  guides: createGuideStore,
  timeOff: createTimeOffStore,
  vehicles: createVehicleStore,
  resources: createResourceStore,
  vendors: createVendorStore,
  incidents: createIncidentStore,
  itineraries: createItineraryStore,
  schedules: createScheduleStore,
  resellerBookings: createResellerBookingStore,
} as const;

/** Every repository of this package, each implementing the domain port of the same name. */
export type Repositories = { readonly [K in keyof typeof FACTORIES]: ReturnType<(typeof FACTORIES)[K]> };

/**
 * Every repository bound to one handle: the pool, or an open transaction. Each is made on
 * first use, so a request that touches three stores builds three.
 */
export function createStores(db: Knex | Knex.Transaction): Repositories {
  const made: Partial<Record<keyof Repositories, unknown>> = {};
  const stores = {} as Repositories;
  for (const name of Object.keys(FACTORIES) as (keyof Repositories)[]) {
    Object.defineProperty(stores, name, {
      enumerable: true,
      get: () => {
        made[name] ??= FACTORIES[name](db);
        return made[name];
      },
    });
  }
  return stores;
}

/**
 * The unit of work of the domain over these repositories. On the pool, `transaction` opens
 * a transaction (committed when the work returns ok, rolled back on a failure or a throw).
 * On an open transaction it joins it: no savepoint; the owner commits or rolls back.
 */
export function createUnitOfWork(db: Knex | Knex.Transaction): UnitOfWork<Repositories> {
  const stores = createStores(db);
  if (db.isTransaction) {
    const joined: UnitOfWork<Repositories> = { stores, transaction: (work) => work(joined) };
    return joined;
  }
  return {
    stores,
    async transaction<T, E>(
      work: (tx: UnitOfWork<Repositories>) => Promise<Result<T, E>>,
    ): Promise<Result<T, E>> {
      // A failure marked retryable is a race lost on locks: everything rolls back and runs again.
      for (let attempt = 1; ; attempt++) {
        const result = await runOnce(db as Knex, work);
        if (result.ok || !isRetryable(result.error) || attempt >= MAX_ATTEMPTS) return result;
      }
    },
  };
}

const SEATS_GONE: DomainError = {
  ...conflict('The departure changed while this booking was made; try again.'),
  retryable: true,
};

/** How often a transaction that lost a race on its locks is run again before its failure stands. */
const MAX_ATTEMPTS = 5;

const isRetryable = (error: unknown) =>
  typeof error === 'object' && error !== null && (error as { retryable?: unknown }).retryable === true;

async function runOnce<T, E>(
  db: Knex,
  work: (tx: UnitOfWork<Repositories>) => Promise<Result<T, E>>,
): Promise<Result<T, E>> {
  let signal: RollbackSignal | undefined;
  let committed: Knex.Transaction | undefined;
  try {
    const result = await db.transaction(async (trx) => {
      const outcome = await work(createUnitOfWork(trx));
      if (outcome.ok) {
        committed = trx;
        return outcome;
      }
      signal = new RollbackSignal(outcome);
      throw signal;
    });
    // Resolved: committed. Its outbox events, if any, wake the workers now.
    if (committed) signalIfAppended(db, committed);
    return result;
  } catch (error) {
    if (signal && error === signal) return signal.failure as Result<T, E>;
    // A booking's seats went with the commit and were not there: everything rolled back, and
    // the whole work runs again on fresh reads (commit-statements.ts).
    if (isSeatsRefused(error)) return fail(SEATS_GONE) as Result<T, E>;
    throw error;
  }
}
