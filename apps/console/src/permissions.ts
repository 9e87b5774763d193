import { type Permission, ROLE_PERMISSIONS } from '@travelops/client';
import type { Role, TokenRole } from './api';

// What each role may change (decisions §6), to hide controls a member cannot use: the server's
// own role table, through @travelops/client. The server still decides: a control shown by
// mistake is refused with 403 and the message says why.
const WRITE_PERMISSION = {
  bookings: 'bookings:write',
  customers: 'customers:write',
  departures: 'availability:write',
  checkin: 'checkin:write',
  incidents: 'incidents:write',
  tours: 'tours:write',
  webhooks: 'webhooks:manage',
  members: 'members:manage',
  'api-keys': 'api-keys:manage',
} as const satisfies Record<string, Permission>;
export type WriteArea = keyof typeof WRITE_PERMISSION;

export function canWrite(role: Role | undefined, area: WriteArea): boolean {
  const granted: readonly Permission[] = role ? ROLE_PERMISSIONS[role] : [];
  return granted.includes(WRITE_PERMISSION[area]);
}

export const roleName: Record<TokenRole, string> = {
  READ_ONLY: 'Read-only',
  OPERATIONS: 'Operations',
  ADMIN: 'Admin',
  RESELLER: 'Reseller (OCTO)',
};
