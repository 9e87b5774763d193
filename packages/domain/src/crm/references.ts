import { type DomainError, unprocessable } from '../shared/errors.js';
import type { CrmStores } from './ports.js';

/** Only the keys the client sent: PATCH leaves the others alone. */
export function sent<T extends object>(input: T): Partial<T> {
  return Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined)) as Partial<T>;
}

export const deleted = (id: string) => ({ id, deleted: true as const });

export type Reference = 'company' | 'customer' | 'lead' | 'booking' | 'member';

/** Each id the client named must be a record of this workspace: 422 on the exact field otherwise. */
export async function checkReferences(
  stores: Pick<CrmStores, 'companies' | 'customers' | 'leads' | 'bookings' | 'members'>,
  workspaceId: string,
  refs: ReadonlyArray<readonly [field: string, kind: Reference, id: string | null | undefined]>,
): Promise<DomainError | null> {
  const finders: Record<Reference, (id: string) => Promise<unknown>> = {
    company: (id) => stores.companies.findById(workspaceId, id),
    customer: (id) => stores.customers.findById(workspaceId, id),
    lead: (id) => stores.leads.findById(workspaceId, id),
    booking: (id) => stores.bookings.findById(workspaceId, id),
    member: (id) => stores.members.findById(workspaceId, id),
  };
  for (const [field, kind, id] of refs) {
    if (id && !(await finders[kind](id))) {
      return unprocessable(`No such ${kind} in this workspace.`, field, 'not_found');
    }
  }
  return null;
}
