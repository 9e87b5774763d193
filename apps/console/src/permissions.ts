import type { Role, TokenRole } from './api';

// What each role may change (decisions §6), to hide controls a member cannot use. The server
// still decides: a control shown by mistake is refused with 403 and the message says why.
const OPERATIONS = ['bookings', 'customers', 'departures', 'checkin', 'incidents'] as const;
const ADMIN = ['tours', 'webhooks', 'members', 'api-keys'] as const;
export type WriteArea = (typeof OPERATIONS)[number] | (typeof ADMIN)[number];

export function canWrite(role: Role | undefined, area: WriteArea): boolean {
  if (role === 'ADMIN') return true;
  if (role === 'OPERATIONS') return (OPERATIONS as readonly string[]).includes(area);
  return false;
}

export const roleName: Record<TokenRole, string> = {
  READ_ONLY: 'Read-only',
  OPERATIONS: 'Operations',
  ADMIN: 'Admin',
  RESELLER: 'Reseller (OCTO)',
};
