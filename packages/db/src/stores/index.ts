import type { Stores } from '@travelops/domain';
import type { Knex } from 'knex';
import { createApiTokenStore } from './api-tokens.js';
import { createAvailabilityStore } from './availability.js';
import { createCustomerStore } from './customers.js';
import { createMemberStore } from './members.js';
import { createTourStore } from './tours.js';
import { createWorkspaceStore } from './workspaces.js';

/** Every store bound to one handle: the pool, or an open transaction to make them atomic together. */
export function createStores(db: Knex | Knex.Transaction): Stores {
  return {
    tours: createTourStore(db),
    availability: createAvailabilityStore(db),
    customers: createCustomerStore(db),
    workspaces: createWorkspaceStore(db),
    members: createMemberStore(db),
    apiTokens: createApiTokenStore(db),
  };
}
