import { newId } from '../../shared/ids.js';
import type { BookingStores } from '../ports.js';
import type { BookingCreateInput } from '../schemas.js';

/** The booking's customer, and whether this transaction made it (then no other can lock its row yet). */
export interface BookingCustomer {
  id: string;
  isNew: boolean;
}

/** The workspace's customer with the booker's e-mail, made from the request if there is none. */
export async function findOrCreateCustomer(
  stores: Pick<BookingStores, 'customers'>,
  workspaceId: string,
  asked: BookingCreateInput['customer'],
): Promise<BookingCustomer> {
  const id = newId('customer');
  const customer = await stores.customers.findOrCreateByEmail(workspaceId, {
    id,
    name: asked.name,
    email: asked.email,
    phone: asked.phone ?? null,
    tags: [],
    marketingConsent: false,
  });
  return { id: customer.id, isNew: customer.id === id };
}
