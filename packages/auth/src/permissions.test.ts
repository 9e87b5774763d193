import { TOKEN_ROLES, type TokenRole } from '@travelops/domain/shared';
import { describe, expect, it } from 'vitest';
import type { Principal } from './api-tokens.js';
import { authorize, can, PERMISSIONS, type Permission } from './permissions.js';

const OPERATIONS_WRITES: Permission[] = [
  'bookings:write',
  'customers:write',
  'availability:write',
  'checkin:write',
  'incidents:write',
  'itineraries:write',
  'crm:write',
];
const ADMIN_ONLY: Permission[] = [
  'tours:write',
  'webhooks:manage',
  'members:manage',
  'api-keys:manage',
  'personal-data:manage',
];
/** OCTO selling: RESELLER's only permission (and ADMIN's, who holds every one). */
const RESELLER_ONLY: Permission[] = ['octo:sell'];

/** Decisions §6 written out as the expected table; RESELLER sells through OCTO and nothing else. */
function expected(role: TokenRole, permission: Permission): boolean {
  if (RESELLER_ONLY.includes(permission)) return role === 'RESELLER' || role === 'ADMIN';
  if (role === 'RESELLER') return false;
  if (permission === 'read') return true;
  if (OPERATIONS_WRITES.includes(permission)) return role !== 'READ_ONLY';
  return role === 'ADMIN';
}

const principal = (role: TokenRole): Principal => ({
  kind: 'api_token',
  tokenId: 'tok_1',
  workspaceId: 'ws_1',
  role,
});

const matrix = TOKEN_ROLES.flatMap((role) =>
  PERMISSIONS.map((permission) => ({ role, permission, allowed: expected(role, permission) })),
);

describe('the permission table', () => {
  it('covers every permission exactly once in one of the expected groups', () => {
    expect([...PERMISSIONS].sort()).toEqual(
      ['read', ...OPERATIONS_WRITES, ...ADMIN_ONLY, ...RESELLER_ONLY].sort(),
    );
  });

  it.each(matrix)('$role may $permission: $allowed', ({ role, permission, allowed }) => {
    expect(can(role, permission)).toBe(allowed);
  });
});

describe('authorize', () => {
  it.each(matrix.filter((cell) => cell.allowed))(
    '$role in its own workspace may $permission',
    ({ role, permission }) => {
      expect(authorize(principal(role), 'ws_1', permission)).toEqual({ ok: true, value: principal(role) });
    },
  );

  it.each(matrix.filter((cell) => !cell.allowed))(
    '$role lacking $permission is FORBIDDEN, naming the permission',
    ({ role, permission }) => {
      const result = authorize(principal(role), 'ws_1', permission);
      expect(result).toEqual({
        ok: false,
        error: { code: 'FORBIDDEN', message: expect.stringContaining(permission) },
      });
    },
  );

  it.each(matrix)('$role in another workspace is FORBIDDEN even for $permission', ({ role, permission }) => {
    expect(authorize(principal(role), 'ws_2', permission)).toEqual({
      ok: false,
      error: { code: 'FORBIDDEN', message: 'This credential cannot access that workspace.' },
    });
  });
});
