import { memberCreate } from '../../src/cli/commands.js';
import type { TestWorkspace } from './fixtures.js';
import type { TestApi, TestResponse } from './harness.js';

let counter = 0;

export const opsPath = (ws: TestWorkspace, suffix: string) => `/workspaces/${ws.workspaceId}${suffix}`;

export function must<T = any>(what: string, res: TestResponse, status: number): T {
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data as T;
}

/** A workspace member (through the operator CLI), not yet a guide. */
export async function newMember(t: TestApi, ws: TestWorkspace): Promise<string> {
  const created = await memberCreate(t.commandDeps, {
    workspace: ws.workspaceId,
    email: `guide.${process.pid}.${counter++}@example.com`,
    password: 'correct horse battery staple',
    role: 'OPERATIONS',
  });
  if (!created.ok) throw new Error(created.error.message);
  return created.value.memberId;
}

/** A member with an active guide profile. */
export async function newGuide(t: TestApi, ws: TestWorkspace, displayName = 'Giulia'): Promise<string> {
  const memberId = await newMember(t, ws);
  must(
    'create guide',
    await t.request('POST', opsPath(ws, '/guides'), {
      token: ws.token,
      body: { memberId, displayName, languages: ['en', 'it'] },
    }),
    201,
  );
  return memberId;
}

export async function newVehicle(t: TestApi, ws: TestWorkspace, overrides: Record<string, unknown> = {}) {
  return must(
    'create vehicle',
    await t.request('POST', opsPath(ws, '/vehicles'), {
      token: ws.token,
      body: { name: `Van ${counter++}`, seats: 12, ...overrides },
    }),
    201,
  );
}

export const assign = (
  t: TestApi,
  ws: TestWorkspace,
  availabilityId: string,
  body: Record<string, unknown>,
) => t.request('PATCH', opsPath(ws, `/availability/${availabilityId}`), { token: ws.token, body });
