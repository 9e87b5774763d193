import type { Result, Stores } from '@travelops/domain';
import type { Knex } from 'knex';
import { createApiTokenStore } from './api-tokens.js';
import { createAvailabilityStore } from './availability.js';
import { createBlackoutDateStore } from './blackout-dates.js';
import { createBookingHistoryStore } from './booking-history.js';
import { createBookingStore } from './bookings.js';
import { createCompanyStore } from './companies.js';
import { createCrmTaskStore } from './crm-tasks.js';
import { createCustomerNoteStore } from './customer-notes.js';
import { createCustomerTimelineStore } from './customer-timeline.js';
import { createCustomerStore } from './customers.js';
import { createGuideStore, createTimeOffStore } from './guides.js';
import { createIdempotencyStore } from './idempotency.js';
import { createIncidentStore } from './incidents.js';
import { createItineraryStore } from './itineraries.js';
import { createLeadStore } from './leads.js';
import { createMemberStore } from './members.js';
import { createOutboxStore } from './outbox.js';
import { createPaymentStore } from './payments.js';
import { createSessionStore } from './sessions.js';
import { createTourStore } from './tours.js';
import { createVehicleStore, createVendorStore } from './vehicles.js';
import { createWebhookDeliveryStore } from './webhook-deliveries.js';
import { createWebhookEndpointStore } from './webhook-endpoints.js';
import { createWorkspaceStore } from './workspaces.js';

/** Thrown only to make knex roll back; `transaction` turns it back into the failure it carries. */
class RollbackSignal extends Error {
  constructor(readonly failure: Result<never>) {
    super('Rolled back: the work returned a failure.');
  }
}

/** Every store bound to one handle: the pool, or an open transaction to make them atomic together. */
export function createStores(db: Knex | Knex.Transaction): Stores {
  return {
    tours: createTourStore(db),
    availability: createAvailabilityStore(db),
    customers: createCustomerStore(db),
    workspaces: createWorkspaceStore(db),
    members: createMemberStore(db),
    apiTokens: createApiTokenStore(db),
    sessions: createSessionStore(db),
    bookings: createBookingStore(db),
    bookingHistory: createBookingHistoryStore(db),
    payments: createPaymentStore(db),
    outbox: createOutboxStore(db),
    idempotency: createIdempotencyStore(db),
    webhookEndpoints: createWebhookEndpointStore(db),
    webhookDeliveries: createWebhookDeliveryStore(db),
    companies: createCompanyStore(db),
    leads: createLeadStore(db),
    crmTasks: createCrmTaskStore(db),
    customerNotes: createCustomerNoteStore(db),
    customerTimeline: createCustomerTimelineStore(db),
    blackoutDates: createBlackoutDateStore(db),
    guides: createGuideStore(db),
    timeOff: createTimeOffStore(db),
    vehicles: createVehicleStore(db),
    vendors: createVendorStore(db),
    incidents: createIncidentStore(db),
    itineraries: createItineraryStore(db),

    async transaction<T>(work: (stores: Stores) => Promise<Result<T>>): Promise<Result<T>> {
      let signal: RollbackSignal | undefined;
      try {
        // On a transaction, knex opens a savepoint: a failure undoes only this work.
        return await db.transaction(async (trx) => {
          const result = await work(createStores(trx));
          if (result.ok) return result;
          signal = new RollbackSignal(result);
          throw signal;
        });
      } catch (error) {
        // Identity, not instanceof: a nested transaction's signal is never mistaken for ours.
        if (signal && error === signal) return signal.failure;
        throw error;
      }
    },
  };
}
