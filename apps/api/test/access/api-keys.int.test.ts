import { randomUUID } from 'node:crypto';
import type { Database } from '@travelops/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookingInput } from '../support/booking-fixtures.js';
import { createDeparture, createTour, expectError, ISO_MS, type TestWorkspace } from '../support/fixtures.js';
import { startTestApi, type TestApi, type TestSession } from '../support/harness.js';

let t: TestApi;
let ws: TestWorkspace;
let admin: TestSession & { memberId: string };
beforeAll(async () => {
  t = await startTestApi();
  ws = await t.createWorkspace('ADMIN');
  admin = await t.memberSession(ws.workspaceId, 'ADMIN');
});
afterAll(() => t.close());

const keysPath = (workspaceId = ws.workspaceId) => `/workspaces/${workspaceId}/api-keys`;

async function createKey(body: Record<string, unknown> = { name: 'Booking sync', role: 'OPERATIONS' }) {
  const res = await t.request('POST', keysPath(), { session: admin, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res;
}

describe('API-key settings', () => {
  it('creates a key with a role and a name; the secret is shown once and works as a bearer token', async () => {
    const res = await createKey();
    expect(res.headers.get('cache-control')).toBe('no-store');
    const key = res.body.data;
    expect(key).toEqual({
      id: expect.stringMatching(/^tok_/),
      name: 'Booking sync',
      role: 'OPERATIONS',
      prefix: key.secret.slice(0, 12),
      lastUsedAt: null,
      expiresAt: null,
      revokedAt: null,
      createdAt: expect.stringMatching(ISO_MS),
      secret: expect.stringMatching(/^tops_[A-Za-z0-9]{43}$/),
    });
    const stored = await t.api.database.knex('api_tokens').where({ id: key.id }).first();
    expect(JSON.stringify(stored)).not.toContain(key.secret);
    // The key acts in this workspace with its role: it reads and writes customers, not tours.
    const base = `/workspaces/${ws.workspaceId}`;
    expect((await t.request('GET', `${base}/customers`, { token: key.secret })).status).toBe(200);
    expectError(await t.request('POST', `${base}/tours`, { token: key.secret, body: {} }), 403, 'FORBIDDEN');
  });

  it('lists name, role, prefix, last use and expiry, newest first; never a secret', async () => {
    const first = (await createKey({ name: 'Reports', role: 'READ_ONLY', expiresInDays: 30 })).body.data;
    const second = (await createKey({ name: 'Channel manager', role: 'ADMIN' })).body.data;
    expect(Date.parse(first.expiresAt) - Date.now()).toBeGreaterThan(29.9 * 86_400_000);
    await t.request('GET', `/workspaces/${ws.workspaceId}/tours`, { token: first.secret });

    const res = await t.request('GET', `${keysPath()}?limit=100`, { session: admin });
    expect(res.status).toBe(200);
    const text = JSON.stringify(res.body);
    expect(text).not.toContain(first.secret);
    expect(text).not.toContain(second.secret);
    expect(text).not.toMatch(/secret/i);
    const ids = res.body.data.map((key: { id: string }) => key.id);
    expect(ids.indexOf(second.id)).toBeLessThan(ids.indexOf(first.id));
    const { secret: _secret, ...withoutSecret } = first;
    expect(res.body.data.find((key: { id: string }) => key.id === first.id)).toEqual({
      ...withoutSecret,
      lastUsedAt: expect.stringMatching(ISO_MS),
    });
  });

  it('revokes at once: the next request with the key is 401, and the key leaves the list', async () => {
    const key = (await createKey({ name: 'Leaked', role: 'READ_ONLY' })).body.data;
    const path = `/workspaces/${ws.workspaceId}/tours`;
    expect((await t.request('GET', path, { token: key.secret })).status).toBe(200);
    const res = await t.request('DELETE', `${keysPath()}/${key.id}`, { session: admin });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: key.id, revokedAt: expect.stringMatching(ISO_MS) });
    expectError(await t.request('GET', path, { token: key.secret }), 401, 'UNAUTHENTICATED');
    const list = await t.request('GET', `${keysPath()}?limit=100`, { session: admin });
    expect(list.body.data.map((listed: { id: string }) => listed.id)).not.toContain(key.id);
    const again = await t.request('DELETE', `${keysPath()}/${key.id}`, { session: admin });
    expect(again.body.data.revokedAt).toBe(res.body.data.revokedAt);
  });

  it("another workspace's key is 404 and stays live", async () => {
    const other = await t.createWorkspace('ADMIN');
    const foreign = await t.createToken(other.workspaceId, 'READ_ONLY');
    expectError(
      await t.request('DELETE', `${keysPath()}/${foreign.tokenId}`, { session: admin }),
      404,
      'NOT_FOUND',
    );
    const res = await t.request('GET', `/workspaces/${other.workspaceId}/tours`, { token: foreign.token });
    expect(res.status).toBe(200);
  });

  it('an ADMIN mints a RESELLER key: it sells through /octo and reads nothing else; a member cannot be a RESELLER', async () => {
    const key = (await createKey({ name: 'Acme OTA', role: 'RESELLER' })).body.data;
    expect(key.role).toBe('RESELLER');
    expect((await t.request('GET', '/octo/products', { token: key.secret })).status).toBe(200);
    const base = `/workspaces/${ws.workspaceId}`;
    for (const path of ['/tours', '/bookings', '/customers']) {
      expectError(await t.request('GET', `${base}${path}`, { token: key.secret }), 403, 'FORBIDDEN');
    }
    const role = await t.request('PATCH', `${base}/members/${admin.memberId}`, {
      session: admin,
      body: { role: 'RESELLER' },
    });
    expectError(role, 400, 'VALIDATION_ERROR', [{ field: 'role', issue: 'invalid_enum' }]);
  });

  it('a bearer token cannot mint tokens, even an ADMIN one: 403', async () => {
    const res = await t.request('POST', keysPath(), { token: ws.token, body: { name: 'x', role: 'ADMIN' } });
    expectError(res, 403, 'FORBIDDEN');
    expect(res.body.error.message).toMatch(/session/);
  });

  it.each([
    ['no name', { role: 'ADMIN' }, 'name', 'required'],
    ['a blank name', { name: '  ', role: 'ADMIN' }, 'name', 'blank'],
    ['an unknown role', { name: 'x', role: 'OWNER' }, 'role', 'invalid_enum'],
    ['zero days', { name: 'x', role: 'ADMIN', expiresInDays: 0 }, 'expiresInDays', 'out_of_range'],
    ['an unknown field', { name: 'x', role: 'ADMIN', scopes: [] }, 'scopes', 'unknown_field'],
  ])('%s: 400 on the field', async (_label, body, field, issue) => {
    const res = await t.request('POST', keysPath(), { session: admin, body });
    expectError(res, 400, 'VALIDATION_ERROR');
    expect(res.body.error.details).toContainEqual({ field, issue });
  });
});

/** Resolves once some backend of this test database waits on a lock: the request is provably in flight. */
async function untilBlocked(knex: Database['knex']) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const { rows } = await knex.raw(
      `select count(*)::int as waiting from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock'`,
    );
    if (rows[0].waiting > 0) return;
    if (Date.now() > deadline) throw new Error('the request never blocked');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('revocation reaches requests in flight', () => {
  /**
   * Holds the departure's row lock, so a booking request blocks inside its transaction; ends
   * the credential meanwhile; then lets the request go on.
   */
  async function writeInFlight(send: (departureId: string) => Promise<any>, end: () => Promise<void>) {
    const tour = await createTour(t, ws);
    const departure = await createDeparture(t, ws, tour.id, { capacity: 10 });
    const knex = t.api.database.knex;
    const counts = async () => ({
      bookings: (await knex('bookings').where({ availability_id: departure.id })).length,
      customers: (await knex('customers').where({ workspace_id: ws.workspaceId })).length,
      events: (await knex('outbox_events').where({ workspace_id: ws.workspaceId })).length,
      idempotency: (await knex('idempotency_keys')).length,
      seats: (await knex('availability').where({ id: departure.id }).first()).booked_seats,
    });
    const before = await counts();
    const holder = await knex.transaction();
    let answer: Promise<any>;
    try {
      await holder('availability').where({ id: departure.id }).forUpdate();
      answer = send(departure.id);
      await untilBlocked(knex);
      // The revoke does not wait for the request: it answers while the request still blocks.
      await end();
    } finally {
      await holder.rollback();
    }
    const res = await answer;
    return { res, before, after: await counts(), departureId: departure.id };
  }

  it('an API key revoked while its booking write blocks: 401, nothing stays, the key is free again', async () => {
    const key = (await createKey({ name: 'In flight', role: 'OPERATIONS' })).body.data;
    const idempotencyKey = randomUUID();
    const { res, before, after, departureId } = await writeInFlight(
      (departureId) =>
        t.request('POST', `/workspaces/${ws.workspaceId}/bookings`, {
          token: key.secret,
          headers: { 'Idempotency-Key': idempotencyKey },
          body: bookingInput(departureId),
        }),
      async () => {
        const revoked = await t.request('DELETE', `${keysPath()}/${key.id}`, { session: admin });
        expect(revoked.status).toBe(200);
      },
    );
    expectError(res, 401, 'UNAUTHENTICATED');
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /);
    expect(after).toEqual(before);
    // The rolled-back request left no idempotency record: the key runs again for a live token.
    const retry = await t.request('POST', `/workspaces/${ws.workspaceId}/bookings`, {
      token: ws.token,
      headers: { 'Idempotency-Key': idempotencyKey },
      body: bookingInput(departureId),
    });
    expect(retry.status).toBe(201);
  });

  it('a session ended (member removed) while its write blocks: 401, nothing stays', async () => {
    const member = await t.memberSession(ws.workspaceId, 'OPERATIONS');
    const { res, before, after } = await writeInFlight(
      (departureId) =>
        t.request('POST', `/workspaces/${ws.workspaceId}/bookings`, {
          session: member,
          body: bookingInput(departureId),
        }),
      async () => {
        const removed = await t.request(
          'DELETE',
          `/workspaces/${ws.workspaceId}/members/${member.memberId}`,
          {
            session: admin,
          },
        );
        expect(removed.status).toBe(200);
      },
    );
    expectError(res, 401, 'UNAUTHENTICATED');
    expect(after).toEqual(before);
  });

  it('a write that is not interrupted commits as usual', async () => {
    const key = (await createKey({ name: 'Undisturbed', role: 'OPERATIONS' })).body.data;
    const { res, before, after } = await writeInFlight(
      (departureId) =>
        t.request('POST', `/workspaces/${ws.workspaceId}/bookings`, {
          token: key.secret,
          body: bookingInput(departureId),
        }),
      async () => {},
    );
    expect(res.status).toBe(201);
    expect(after.bookings).toBe(before.bookings + 1);
  });
});
