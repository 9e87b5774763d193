import { type DomainError, fail, ok, type Result, type TokenRole } from '@travelops/domain/shared';
import type { Principal } from './api-tokens.js';

/** The closed set of permissions route handlers ask for; 'read' covers every GET. */
export const PERMISSIONS = [
  'read',
  'bookings:write',
  'customers:write',
  'availability:write',
  'checkin:write',
  'incidents:write',
  'itineraries:write',
  'crm:write',
  'tours:write',
  'webhooks:manage',
  'members:manage',
  'api-keys:manage',
  /** A customer's personal data: export it whole, erase it (decisions §13). ADMIN only. */
  'personal-data:manage',
  /** The OCTO supplier endpoints (`/octo/*`): sell published tours to a reseller. */
  'octo:sell',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const OPERATIONS_PERMISSIONS = [
  'read',
  'bookings:write',
  'customers:write',
  'availability:write',
  'checkin:write',
  'incidents:write',
  'itineraries:write',
  'crm:write',
] as const satisfies readonly Permission[];

/**
 * The role table: what each role may do. Decisions §6: each member role includes the one
 * before it. RESELLER stands apart (least privilege): it sells through OCTO and reads nothing
 * else, not even with a GET. The one copy: @travelops/client carries it to the console
 * (generated from this, and tested equal).
 */
export const ROLE_PERMISSIONS: Readonly<Record<TokenRole, readonly Permission[]>> = {
  READ_ONLY: ['read'],
  OPERATIONS: OPERATIONS_PERMISSIONS,
  ADMIN: PERMISSIONS,
  RESELLER: ['octo:sell'],
};

export function can(role: TokenRole, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role].includes(permission);
}

const forbidden = (message: string): Result<never> => {
  const error: DomainError = { code: 'FORBIDDEN', message };
  return fail(error);
};

/** Checks the path's workspace first, so a foreign workspace is refused whatever the role. */
export function authorize(
  principal: Principal,
  workspaceId: string,
  permission: Permission,
): Result<Principal> {
  if (principal.workspaceId !== workspaceId) {
    return forbidden('This credential cannot access that workspace.');
  }
  if (!can(principal.role, permission)) {
    return forbidden(`This credential's role (${principal.role}) lacks the '${permission}' permission.`);
  }
  return ok(principal);
}
