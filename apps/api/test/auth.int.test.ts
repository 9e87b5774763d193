import { createStores } from '@travelops/db';
import type { Role } from '@travelops/domain';
import { apiRoutes, type RouteDefinition } from '@travelops/http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenRevoke } from '../src/cli/commands.js';
import { book, bookingInput, confirmedBooking, pay } from './booking-fixtures.js';
import {
  createCustomer,
  createDeparture,
  createTour,
  customerInput,
  expectError,
  fromNow,
  type TestWorkspace,
  tourInput,
  UNKNOWN_IDS,
} from './fixtures.js';
import { startTestApi, type TestApi, type TestSession } from './harness.js';

interface Seeded {
  ws: TestWorkspace;
  tour: any;
  departure: any;
  customer: any;
  /** A CONFIRMED booking: every booking operation would apply to it. */
  booking: any;
  /** Room for the bookings the role probes make. */
  probeDeparture: any;
  /** A webhook endpoint with one delivery (of the booking's events). */
  endpoint: any;
  delivery: any;
  /** A signed-in member of each role, for the session-only routes. */
  sessions: Record<Role, TestSession>;
  /** A member and an API key other than the callers', for the member and key routes to name. */
  member: { memberId: string };
  apiKey: { tokenId: string };
}

const ROLES: Role[] = ['READ_ONLY', 'OPERATIONS', 'ADMIN'];

let t: TestApi;
let a: Seeded;
let b: Seeded;
/** Every token secret this file sends; none may ever reach the logs. */
const secrets = new Set<string>();

async function seed(name: string): Promise<Seeded> {
  const ws = await t.createWorkspace('ADMIN');
  secrets.add(ws.token);
  const tour = await createTour(t, ws, { name: `${name} Secret Tour`, slug: `${name.toLowerCase()}-secret` });
  const departure = await createDeparture(t, ws, tour.id, { capacity: 5 });
  const customer = await createCustomer(t, ws, { name: `${name} Secret Customer` });
  const probeDeparture = await createDeparture(t, ws, tour.id, { capacity: 1000 });
  const endpoint = await createEndpoint(ws);
  const booking = await confirmedBooking(t, ws, departure.id, {
    customer: { name: `${name} Secret Booker`, email: customer.email },
    notes: `${name} Secret Notes`,
  });
  await createStores(t.api.database.knex).webhookDeliveries.fanOut(100);
  const deliveries = await t.request(
    'GET',
    `/workspaces/${ws.workspaceId}/webhook-endpoints/${endpoint.id}/deliveries`,
    { token: ws.token },
  );
  const delivery = deliveries.body.data[0];
  if (!delivery) throw new Error(`no delivery: ${JSON.stringify(deliveries.body)}`);
  const sessions = {} as Record<Role, TestSession>;
  for (const role of ROLES) sessions[role] = await t.memberSession(ws.workspaceId, role);
  const member = await t.createMember(ws.workspaceId, 'READ_ONLY');
  const apiKey = await t.createToken(ws.workspaceId, 'READ_ONLY');
  return {
    ws,
    tour,
    departure,
    customer,
    booking,
    probeDeparture,
    endpoint,
    delivery,
    sessions,
    member,
    apiKey,
  };
}

const endpointInput = () => ({ url: 'http://127.0.0.1:9/hooks', events: ['booking.confirmed'] });

async function createEndpoint(ws: TestWorkspace) {
  const res = await t.request('POST', `/workspaces/${ws.workspaceId}/webhook-endpoints`, {
    token: ws.token,
    body: endpointInput(),
  });
  if (res.status !== 201) throw new Error(`create endpoint: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

async function token(workspace: TestWorkspace, role: Role) {
  const created = await t.createToken(workspace.workspaceId, role);
  secrets.add(created.token);
  return created;
}

beforeAll(async () => {
  t = await startTestApi();
  a = await seed('Alpha');
  b = await seed('Bravo');
});
afterAll(() => t.close());

/** Every operation under /workspaces/{workspaceId}/ (the /auth/ ones are in sessions.int.test.ts). */
const protectedRoutes = apiRoutes.filter((route) => typeof route.access === 'object');
const sessionOnly = (route: RouteDefinition) =>
  typeof route.access === 'object' && route.access.sessionOnly === true;
const routeName = (route: RouteDefinition) => `${route.method.toUpperCase()} ${route.path}`;

/** The route's path for workspace `s`, naming `s`'s own records. */
function pathFor(route: RouteDefinition, s: Seeded, ids: Partial<Record<string, string>> = {}): string {
  const values: Record<string, string> = {
    workspaceId: s.ws.workspaceId,
    tourId: s.tour.id,
    availabilityId: s.departure.id,
    customerId: s.customer.id,
    bookingId: s.booking.id,
    endpointId: s.endpoint.id,
    deliveryId: s.delivery.id,
    memberId: s.member.memberId,
    apiKeyId: s.apiKey.tokenId,
    ...ids,
  };
  return route.path.replace(/\{(\w+)\}/g, (_match, name: string) => {
    const value = values[name];
    if (!value) throw new Error(`no test value for path parameter ${name} of ${routeName(route)}`);
    return value;
  });
}

/** A request each write route would accept, so a refusal can only be the role's doing. */
const VALID_BODIES: Record<string, (s: Seeded) => unknown> = {
  createTour: () => tourInput({ name: 'Role Probe' }),
  updateTour: () => ({ description: 'changed by a role probe' }),
  createAvailability: (s) => ({ tourId: s.tour.id, startsAt: fromNow(40) }),
  updateAvailability: () => ({ capacity: 7 }),
  createCustomer: () => customerInput({ name: 'Role Probe' }),
  createBooking: (s) => bookingInput(s.probeDeparture.id, { paymentMode: 'MANUAL' }),
  updateBooking: () => ({ notes: 'changed by a role probe' }),
  setBookingStatus: () => ({ status: 'CONFIRMED', reason: 'role probe' }),
  createPaymentLink: () => undefined,
  checkInBooking: () => ({}),
  rotateBookingPublicToken: () => undefined,
  createBookingRefund: () => ({ amount: 100, reason: 'role probe' }),
  createWebhookEndpoint: () => endpointInput(),
  updateWebhookEndpoint: () => ({ description: 'changed by a role probe' }),
  deleteWebhookEndpoint: () => undefined,
  rotateWebhookEndpointSecret: () => undefined,
  resendWebhookDelivery: () => undefined,
  createApiKey: () => ({ name: 'Role probe', role: 'READ_ONLY' }),
  revokeApiKey: () => undefined,
  updateMember: () => ({ role: 'OPERATIONS' }),
  deleteMember: () => undefined,
};

/**
 * The state a booking write needs to succeed. Each role probe gets a fresh booking in that
 * state, so the second allowed role is not refused for what the first one changed.
 */
const PROBE_BOOKINGS: Record<string, (s: Seeded) => Promise<{ id: string }>> = {
  updateBooking: (s) => book(t, s.ws, s.probeDeparture.id),
  setBookingStatus: (s) => book(t, s.ws, s.probeDeparture.id, { paymentMode: 'MANUAL' }),
  createPaymentLink: (s) => book(t, s.ws, s.probeDeparture.id, { paymentMode: 'MANUAL' }),
  rotateBookingPublicToken: (s) => book(t, s.ws, s.probeDeparture.id),
  checkInBooking: (s) => confirmedBooking(t, s.ws, s.probeDeparture.id),
  createBookingRefund: async (s) => {
    const booking = await book(t, s.ws, s.probeDeparture.id);
    const paid = await pay(t, booking.checkoutUrl);
    if (paid.status !== 200) throw new Error(`pay: ${paid.status} ${JSON.stringify(paid.body)}`);
    return booking;
  },
};

/** The path a role probe of the route uses: a fresh record where the write changes or removes one. */
async function probePath(route: RouteDefinition, s: Seeded) {
  const probe = PROBE_BOOKINGS[route.operationId];
  if (probe) return pathFor(route, s, { bookingId: (await probe(s)).id });
  if (route.operationId === 'deleteWebhookEndpoint') {
    return pathFor(route, s, { endpointId: (await createEndpoint(s.ws)).id });
  }
  if (route.operationId === 'revokeApiKey') {
    return pathFor(route, s, { apiKeyId: (await t.createToken(s.ws.workspaceId, 'READ_ONLY')).tokenId });
  }
  if (route.operationId === 'updateMember' || route.operationId === 'deleteMember') {
    return pathFor(route, s, { memberId: (await t.createMember(s.ws.workspaceId, 'READ_ONLY')).memberId });
  }
  return pathFor(route, s);
}

/**
 * Decisions §6: READ_ONLY reads; OPERATIONS also writes bookings (refunds included), check-ins,
 * availability and customers; ADMIN writes tours too, and alone manages webhook endpoints
 * (reading them included: they hold where the workspace's events go).
 */
const PRIVILEGED: Record<string, Role[]> = {
  createTour: ['ADMIN'],
  updateTour: ['ADMIN'],
  createAvailability: ['OPERATIONS', 'ADMIN'],
  updateAvailability: ['OPERATIONS', 'ADMIN'],
  createCustomer: ['OPERATIONS', 'ADMIN'],
  createBooking: ['OPERATIONS', 'ADMIN'],
  updateBooking: ['OPERATIONS', 'ADMIN'],
  setBookingStatus: ['OPERATIONS', 'ADMIN'],
  createPaymentLink: ['OPERATIONS', 'ADMIN'],
  rotateBookingPublicToken: ['OPERATIONS', 'ADMIN'],
  createBookingRefund: ['OPERATIONS', 'ADMIN'],
  checkInBooking: ['OPERATIONS', 'ADMIN'],
  createWebhookEndpoint: ['ADMIN'],
  listWebhookEndpoints: ['ADMIN'],
  getWebhookEndpoint: ['ADMIN'],
  updateWebhookEndpoint: ['ADMIN'],
  deleteWebhookEndpoint: ['ADMIN'],
  rotateWebhookEndpointSecret: ['ADMIN'],
  listWebhookDeliveries: ['ADMIN'],
  resendWebhookDelivery: ['ADMIN'],
  listApiKeys: ['ADMIN'],
  createApiKey: ['ADMIN'],
  revokeApiKey: ['ADMIN'],
  updateMember: ['ADMIN'],
  deleteMember: ['ADMIN'],
};

function send(
  route: RouteDefinition,
  path: string,
  options: { token?: string; session?: TestSession; headers?: Record<string, string> },
) {
  const factory = VALID_BODIES[route.operationId];
  return t.request(route.method.toUpperCase(), path, {
    ...options,
    ...(route.method !== 'get' && factory && { body: factory(a) }),
  });
}

/** Everything workspace `s` holds, to prove a refused request changed nothing. */
async function snapshot(s: Seeded) {
  const knex = t.api.database.knex;
  const where = { workspace_id: s.ws.workspaceId };
  return {
    tours: await knex('tours').where(where).orderBy('id'),
    availability: await knex('availability').where(where).orderBy('id'),
    customers: await knex('customers').where(where).orderBy('id'),
    bookings: await knex('bookings').where(where).orderBy('id'),
    history: await knex('booking_history').where(where).orderBy('seq'),
    events: await knex('outbox_events').where(where).orderBy('seq'),
    payments: await knex('payments').where(where).orderBy('seq'),
    sessions: await knex('payment_sessions').where(where).orderBy('id'),
    endpoints: await knex('webhook_endpoints').where(where).orderBy('id'),
    deliveries: await knex('webhook_deliveries').where(where).orderBy('id'),
    members: await knex('members').where(where).orderBy('id').select('id', 'role'),
    // Not last_used_at: every authenticated request may record a use.
    tokens: await knex('api_tokens').where(where).orderBy('id').select('id', 'role', 'revoked_at'),
  };
}

/** Roles the route admits: every role reads, the table says who does more. */
const allowedRoles = (route: RouteDefinition): Role[] =>
  typeof route.access === 'object' && route.access.permission === 'read'
    ? ROLES
    : (PRIVILEGED[route.operationId] ?? []);

it('the route table has protected routes; every write and every privileged read is in the role table', () => {
  expect(protectedRoutes.length).toBeGreaterThanOrEqual(10);
  for (const route of protectedRoutes) {
    if (typeof route.access === 'object' && route.access.permission !== 'read') {
      expect(PRIVILEGED, routeName(route)).toHaveProperty(route.operationId);
    }
    if (route.method === 'get') continue;
    expect(VALID_BODIES, routeName(route)).toHaveProperty(route.operationId);
  }
});

describe.each(protectedRoutes.map((route) => [routeName(route), route] as const))('%s', (_name, route) => {
  const expect401 = async (headers: Record<string, string>) => {
    const res = await send(route, pathFor(route, a), { headers });
    expectError(res, 401, 'UNAUTHENTICATED');
    // A failed token is challenged; a session-only route without any credential asks to sign in.
    if (headers.Authorization !== undefined || !sessionOnly(route)) {
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /);
    } else {
      expect(res.headers.get('www-authenticate')).toBeNull();
      expect(res.body.error.message).toMatch(/^Sign in/);
    }
    expect(JSON.stringify(res.body)).not.toContain('Alpha Secret');
    return res;
  };

  it('no Authorization header: 401 UNAUTHENTICATED', async () => {
    await expect401({});
  });

  it.each([
    ['an empty header', ''],
    ['the scheme alone', 'Bearer'],
    ['the scheme and a space', 'Bearer '],
    ['another scheme', 'Basic x'],
    ['Basic credentials', `Basic ${Buffer.from('user:pass').toString('base64')}`],
    ['two tokens', 'Bearer a b'],
    ['a token with symbols', 'Bearer tops_abc/def+ghi='],
    ['an absurdly long token', `Bearer ${'a'.repeat(5000)}`],
  ])('a malformed header (%s): 401 UNAUTHENTICATED', async (_label, value) => {
    await expect401({ Authorization: value });
  });

  it('an unknown token: 401 UNAUTHENTICATED', async () => {
    await expect401({ Authorization: `Bearer tops_${'x'.repeat(43)}` });
  });

  it('an expired token: 401 UNAUTHENTICATED', async () => {
    const expired = await token(a.ws, 'ADMIN');
    await t.api.database
      .knex('api_tokens')
      .where({ id: expired.tokenId })
      .update({ expires_at: new Date(Date.now() - 60_000) });
    await expect401({ Authorization: `Bearer ${expired.token}` });
  });

  it('a revoked token: 401 UNAUTHENTICATED', async () => {
    const revoked = await token(a.ws, 'ADMIN');
    const result = await tokenRevoke(t.commandDeps, { 'token-id': revoked.tokenId });
    expect(result.ok).toBe(true);
    await expect401({ Authorization: `Bearer ${revoked.token}` });
  });

  it("a token of workspace B on workspace A's path: 403 FORBIDDEN, no A data", async () => {
    const before = await snapshot(a);
    const res = await send(route, pathFor(route, a), { token: b.ws.token });
    expectError(res, 403, 'FORBIDDEN');
    const text = JSON.stringify(res.body);
    for (const secret of [a.tour.id, a.customer.id, a.departure.id, a.booking.id, 'Alpha Secret']) {
      expect(text).not.toContain(secret);
    }
    expect(await snapshot(a)).toEqual(before);
  });

  it('a valid token on a workspace that does not exist: 403 FORBIDDEN', async () => {
    const res = await send(route, pathFor(route, a, { workspaceId: UNKNOWN_IDS.workspace }), {
      token: a.ws.token,
    });
    expectError(res, 403, 'FORBIDDEN');
  });

  it('an unknown token on a foreign workspace is 401, not 403: authentication comes first', async () => {
    const res = await send(route, pathFor(route, b), { headers: { Authorization: 'Bearer tops_unknown' } });
    expectError(res, 401, 'UNAUTHENTICATED');
  });

  it("a session of B's member on A's path: 403 FORBIDDEN, no A data", async () => {
    const before = await snapshot(a);
    const res = await send(route, pathFor(route, a), { session: b.sessions.ADMIN });
    expectError(res, 403, 'FORBIDDEN');
    expect(JSON.stringify(res.body)).not.toContain('Alpha Secret');
    expect(await snapshot(a)).toEqual(before);
  });

  if (sessionOnly(route)) {
    it('an ADMIN API token: 403 FORBIDDEN (this operation is for the signed-in application)', async () => {
      const before = await snapshot(a);
      const res = await send(route, pathFor(route, a), { token: a.ws.token });
      expectError(res, 403, 'FORBIDDEN');
      expect(res.body.error.message).toMatch(/session/);
      expect(await snapshot(a)).toEqual(before);
    });
  }

  if (route.method !== 'get') {
    it.each([
      ['missing', undefined],
      ['wrong', 'not-the-token'],
      ["another session's", 'other'],
    ])('an ADMIN session with a %s X-CSRF-Token: 403 FORBIDDEN, nothing changed', async (_label, value) => {
      const session = a.sessions.ADMIN;
      const csrf = value === 'other' ? b.sessions.ADMIN.csrfToken : value;
      const before = await snapshot(a);
      const res = await t.request(route.method.toUpperCase(), pathFor(route, a), {
        headers: { Cookie: session.cookie, ...(csrf !== undefined && { 'X-CSRF-Token': csrf }) },
        ...(VALID_BODIES[route.operationId] && { body: VALID_BODIES[route.operationId]?.(a) }),
      });
      expectError(res, 403, 'FORBIDDEN');
      expect(res.body.error.message).toMatch(/X-CSRF-Token/);
      expect(await snapshot(a)).toEqual(before);
    });
  }

  it.each(ROLES)('role %s', async (role) => {
    // Session-only routes are probed with a member's session; all others with a token.
    const credential = sessionOnly(route)
      ? { session: a.sessions[role] }
      : { token: (await token(a.ws, role)).token };
    const allowed = allowedRoles(route).includes(role);
    const path = await probePath(route, a);
    const before = await snapshot(a);
    const res = await send(route, path, credential);
    if (allowed) {
      expect(res.status, JSON.stringify(res.body)).toBe(route.success.status);
      expect(res.body).toHaveProperty('data');
    } else {
      expectError(res, 403, 'FORBIDDEN');
      expect(await snapshot(a)).toEqual(before);
    }
  });
});

describe('revocation', () => {
  it('a token revoked with token:revoke fails on the very next request', async () => {
    const live = await token(a.ws, 'READ_ONLY');
    const path = `/workspaces/${a.ws.workspaceId}/tours`;
    expect((await t.request('GET', path, { token: live.token })).status).toBe(200);
    const revoked = await tokenRevoke(t.commandDeps, { 'token-id': live.tokenId });
    expect(revoked).toMatchObject({ ok: true, value: { tokenId: live.tokenId } });
    expectError(await t.request('GET', path, { token: live.token }), 401, 'UNAUTHENTICATED');
    // Other tokens of the workspace are untouched.
    expect((await t.request('GET', path, { token: a.ws.token })).status).toBe(200);
  });

  it('a token expiring in the future still works', async () => {
    const live = await token(a.ws, 'READ_ONLY');
    await t.api.database
      .knex('api_tokens')
      .where({ id: live.tokenId })
      .update({ expires_at: new Date(Date.now() + 3_600_000) });
    expect(
      (await t.request('GET', `/workspaces/${a.ws.workspaceId}/tours`, { token: live.token })).status,
    ).toBe(200);
  });

  it('the scheme is case-insensitive', async () => {
    const res = await t.request('GET', `/workspaces/${a.ws.workspaceId}/tours`, {
      headers: { Authorization: `bearer ${a.ws.token}` },
    });
    expect(res.status).toBe(200);
  });
});

describe('records of another workspace', () => {
  const base = () => `/workspaces/${a.ws.workspaceId}`;

  const expectHidden = (res: Awaited<ReturnType<TestApi['request']>>) => {
    expectError(res, 404, 'NOT_FOUND');
    const text = JSON.stringify(res.body);
    for (const secret of [
      b.tour.id,
      b.tour.slug,
      b.customer.id,
      b.customer.email,
      b.departure.id,
      b.booking.id,
      b.booking.publicToken,
      'Bravo',
    ]) {
      expect(text).not.toContain(secret);
    }
  };

  it("GET and PATCH of B's tour under A: 404 and B's tour unchanged", async () => {
    const before = await snapshot(b);
    expectHidden(await t.request('GET', `${base()}/tours/${b.tour.id}`, { token: a.ws.token }));
    expectHidden(
      await t.request('PATCH', `${base()}/tours/${b.tour.id}`, {
        token: a.ws.token,
        body: { name: 'Hijacked' },
      }),
    );
    expect(await snapshot(b)).toEqual(before);
  });

  it("GET of B's customer under A: 404", async () => {
    expectHidden(await t.request('GET', `${base()}/customers/${b.customer.id}`, { token: a.ws.token }));
  });

  it("PATCH of B's departure under A: 404 and B's departure unchanged", async () => {
    const before = await snapshot(b);
    expectHidden(
      await t.request('PATCH', `${base()}/availability/${b.departure.id}`, {
        token: a.ws.token,
        body: { status: 'CANCELLED', capacity: 1 },
      }),
    );
    expect(await snapshot(b)).toEqual(before);
  });

  it.each([
    ['GET', '', undefined],
    ['PATCH', '', { notes: 'Hijacked' }],
    ['POST', '/status', { status: 'CANCELLED' }],
    ['POST', '/checkin', {}],
    ['POST', '/payment-link', undefined],
    ['POST', '/public-token', undefined],
    ['POST', '/refunds', { amount: 100 }],
    ['GET', '/history', undefined],
  ])("%s of B's booking%s under A: 404, B's booking unchanged and unseen", async (method, suffix, body) => {
    const before = await snapshot(b);
    const res = await t.request(method, `${base()}/bookings/${b.booking.id}${suffix}`, {
      token: a.ws.token,
      ...(body !== undefined && { body }),
    });
    expectHidden(res);
    expect(await snapshot(b)).toEqual(before);
  });

  it("lists under A never include B's records", async () => {
    for (const list of ['tours', 'availability', 'customers', 'bookings']) {
      const res = await t.request('GET', `${base()}/${list}?limit=100`, { token: a.ws.token });
      expect(res.status).toBe(200);
      const text = JSON.stringify(res.body);
      for (const secret of [b.tour.id, b.customer.id, b.departure.id, b.booking.id, 'Bravo'])
        expect(text).not.toContain(secret);
    }
  });
});

describe('logs', () => {
  it('never contain a token secret or the Authorization header', () => {
    expect(secrets.size).toBeGreaterThan(10);
    expect(t.logs.length).toBeGreaterThan(100);
    const text = t.logs.join('\n');
    for (const secret of secrets) expect(text).not.toContain(secret);
    expect(text).not.toContain('tops_');
    expect(text.toLowerCase()).not.toContain('bearer ');
    expect(text.toLowerCase()).not.toContain('authorization');
  });
});
