import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createTravelOpsClient } from '@travelops/client';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createDeparture, createTour, type TestWorkspace } from '../support/fixtures.js';
import { startTestApi, type TestApi } from '../support/harness.js';

const root = join(import.meta.dirname, '..', '..', '..', '..');
let t: TestApi;
let ws: TestWorkspace;
beforeAll(async () => {
  t = await startTestApi();
  ws = await t.createWorkspace('ADMIN');
});
afterAll(() => t.close());

it('the generated types of @travelops/client are those of the /openapi.json this API serves', async () => {
  const script = join(root, 'packages', 'client', 'scripts', 'generate.mjs');
  const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(process.execPath, [script, `${t.baseUrl}/openapi.json`, '--check']);
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (exit) => resolve({ code: exit, output }));
  });
  expect(code, output).toBe(0);
}, 60_000);

it('books through the typed client, and reads an error as the envelope', async () => {
  const tour = await createTour(t, ws, { capacity: 10 });
  const departure = await createDeparture(t, ws, tour.id, { capacity: 10 });
  const api = createTravelOpsClient({ baseUrl: t.baseUrl, token: ws.token });
  const workspaceId = ws.workspaceId;

  const created = await api.POST('/workspaces/{workspaceId}/bookings', {
    params: { path: { workspaceId }, header: { 'Idempotency-Key': crypto.randomUUID() } },
    body: {
      availabilityId: departure.id,
      customer: { name: 'Ada Lovelace', email: 'ada@example.com' },
      participants: [{ name: 'Ada Lovelace' }, { name: 'Charles Babbage', ageBand: 'SENIOR' }],
    },
  });
  expect(created.response.status).toBe(201);
  expect(created.data?.data).toMatchObject({ status: 'PENDING', participantCount: 2 });

  const listed = await api.GET('/workspaces/{workspaceId}/bookings', {
    params: { path: { workspaceId }, query: { limit: 1 } },
  });
  expect(listed.data?.data.map((booking) => booking.id)).toEqual([created.data?.data.id]);

  const missing = await api.GET('/workspaces/{workspaceId}/bookings/{bookingId}', {
    params: { path: { workspaceId, bookingId: 'bkg_0000000000000000000000' } },
  });
  expect(missing.response.status).toBe(404);
  expect(missing.error?.error.code).toBe('NOT_FOUND');
});
