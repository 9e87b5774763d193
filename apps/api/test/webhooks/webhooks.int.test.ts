import type { Role } from '@travelops/domain/shared';
import { createEndpointUrlCheck, createWebhookSender } from '@travelops/jobs';
import { verify } from '@travelops/webhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { book, bookingsPath, confirmedBooking } from '../support/booking-fixtures.js';
import {
  createDeparture,
  createTour,
  detail,
  expectError,
  ISO_MS,
  newestFirst,
  type TestWorkspace,
} from '../support/fixtures.js';
import { startTestApi, type TestApi } from '../support/harness.js';
import {
  createEndpoint,
  deliveryJob,
  endpointsPath,
  getEndpoint,
  type Receiver,
  runJob,
  SECOND,
  startReceiver,
  testClock,
} from '../support/webhook-fixtures.js';

let t: TestApi;
let ws: TestWorkspace;
let other: TestWorkspace;
let receiver: Receiver;
let departureId: string;
/** Every endpoint secret this file sees; none may reach the logs. */
const secrets = new Set<string>();

beforeAll(async () => {
  t = await startTestApi();
  ws = await t.createWorkspace('ADMIN');
  other = await t.createWorkspace('ADMIN');
  receiver = await startReceiver();
  const tour = await createTour(t, ws, { name: 'Lagoon Kayak', capacity: 50 });
  departureId = (await createDeparture(t, ws, tour.id, { capacity: 50 })).id;
});
// Each test starts with no endpoints, so no delivery of an earlier test reaches its receiver.
afterEach(() => t.api.database.knex('webhook_endpoints').del());
afterAll(async () => {
  await receiver?.close();
  await t?.close();
});

async function newEndpoint(workspace = ws, body: Record<string, unknown> = {}) {
  const endpoint = await createEndpoint(t, workspace, { url: receiver.url, ...body });
  secrets.add(endpoint.secret);
  return endpoint;
}

const ENDPOINT_VIEW_KEYS = [
  'createdAt',
  'description',
  'disabledReason',
  'enabled',
  'events',
  'id',
  'previousSecretExpiresAt',
  'updatedAt',
  'url',
];

describe('registering an endpoint', () => {
  it('ADMIN: 201 with a whsec_ secret shown once; GET, the list and PATCH never show it', async () => {
    const res = await t.request('POST', endpointsPath(ws), {
      token: ws.token,
      body: {
        url: receiver.url,
        events: ['booking.created', 'booking.confirmed', 'booking.created'],
        description: 'CRM sync',
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const created = res.body.data;
    secrets.add(created.secret);
    expect(created).toEqual({
      id: expect.stringMatching(/^whe_[0-9A-Za-z]{22}$/),
      url: receiver.url,
      events: ['booking.created', 'booking.confirmed'],
      description: 'CRM sync',
      enabled: true,
      disabledReason: null,
      previousSecretExpiresAt: null,
      createdAt: expect.stringMatching(ISO_MS),
      updatedAt: expect.stringMatching(ISO_MS),
      secret: expect.stringMatching(/^whsec_[0-9A-Za-z]{32}$/),
    });

    const got = await t.request('GET', endpointsPath(ws, created.id), { token: ws.token });
    expect(got.status).toBe(200);
    expect(Object.keys(got.body.data).sort()).toEqual(ENDPOINT_VIEW_KEYS);
    const { secret: _secret, ...view } = created;
    expect(got.body.data).toEqual(view);

    const list = await t.request('GET', `${endpointsPath(ws)}?limit=100`, { token: ws.token });
    expect(list.status).toBe(200);
    expect(list.body.data.find((e: { id: string }) => e.id === created.id)).toEqual(view);

    const patched = await t.request('PATCH', endpointsPath(ws, created.id), {
      token: ws.token,
      body: { description: 'CRM sync (EU)' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data.description).toBe('CRM sync (EU)');
    for (const answer of [got, list, patched]) {
      expect(JSON.stringify(answer.body)).not.toContain(created.secret);
      expect(JSON.stringify(answer.body)).not.toContain('whsec_');
    }
  });

  it('two endpoints get different secrets; the list is newest first', async () => {
    const first = await newEndpoint(other);
    const second = await newEndpoint(other);
    expect(second.secret).not.toBe(first.secret);
    const list = await t.request('GET', `${endpointsPath(other)}?limit=100`, { token: other.token });
    // Newest first; two created in one millisecond are ordered by id.
    expect(list.body.data.map((e: { id: string }) => e.id)).toEqual(
      newestFirst([first, second]).map((e) => e.id),
    );
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['an ftp:// url', { url: 'ftp://example.com/hooks' }, 'url'],
    ['a url that is not one', { url: 'not a url' }, 'url'],
    ['an unknown event type', { events: ['booking.exploded'] }, 'events[0]'],
    ['no event types', { events: [] }, 'events'],
    ['an unknown field', { secret: 'whsec_mine' }, 'secret'],
  ])('%s: 400 VALIDATION_ERROR naming the field', async (_label, override, field) => {
    const res = await t.request('POST', endpointsPath(ws), {
      token: ws.token,
      body: { url: receiver.url, events: ['booking.created'], ...override },
    });
    expectError(res, 400, 'VALIDATION_ERROR');
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
  });

  it('an ftp:// url names field url; an unknown event type names events[0]', async () => {
    const ftp = await t.request('POST', endpointsPath(ws), {
      token: ws.token,
      body: { url: 'ftp://example.com/hooks', events: ['booking.created'] },
    });
    expectError(ftp, 400, 'VALIDATION_ERROR', [detail('url', 'unsupported_scheme')]);
    const unknown = await t.request('POST', endpointsPath(ws), {
      token: ws.token,
      body: { url: receiver.url, events: ['booking.created', 'booking.exploded'] },
    });
    expectError(unknown, 400, 'VALIDATION_ERROR');
    expect(unknown.body.error.details).toEqual([expect.objectContaining({ field: 'events[1]' })]);
  });

  it('credentials in the url: 422 credentials_in_url', async () => {
    const res = await t.request('POST', endpointsPath(ws), {
      token: ws.token,
      body: { url: 'http://user:pass@127.0.0.1/hooks', events: ['booking.created'] },
    });
    expectError(res, 422, 'UNPROCESSABLE', [detail('url', 'credentials_in_url')]);
  });
});

describe('only ADMIN manages endpoints (webhooks:manage)', () => {
  it.each<Role>(['OPERATIONS', 'READ_ONLY'])(
    '%s: 403 on every endpoint route, nothing changes',
    async (role) => {
      const endpoint = await newEndpoint();
      const { token } = await t.createToken(ws.workspaceId, role);
      const before = await getEndpoint(t, ws, endpoint.id);
      const probes: [string, string, unknown][] = [
        ['POST', endpointsPath(ws), { url: receiver.url, events: ['booking.created'] }],
        ['GET', endpointsPath(ws), undefined],
        ['GET', endpointsPath(ws, endpoint.id), undefined],
        ['PATCH', endpointsPath(ws, endpoint.id), { enabled: false }],
        ['DELETE', endpointsPath(ws, endpoint.id), undefined],
        ['POST', endpointsPath(ws, endpoint.id, '/rotate-secret'), {}],
        ['GET', endpointsPath(ws, endpoint.id, '/deliveries'), undefined],
        ['POST', endpointsPath(ws, endpoint.id, `/deliveries/whd_${'0'.repeat(22)}/resend`), undefined],
      ];
      const count = async () =>
        Number((await t.api.database.knex('webhook_endpoints').count('* as n'))[0]?.n);
      const endpoints = await count();
      for (const [method, path, body] of probes) {
        const res = await t.request(method, path, { token, ...(body !== undefined && { body }) });
        expectError(res, 403, 'FORBIDDEN');
        expect(JSON.stringify(res.body)).not.toContain(endpoint.secret);
      }
      expect(await getEndpoint(t, ws, endpoint.id)).toEqual(before);
      expect(await count()).toBe(endpoints);
    },
  );
});

describe('changing and deleting an endpoint', () => {
  it('PATCH disables and enables it again, changes url and events', async () => {
    const endpoint = await newEndpoint();
    const disabled = await t.request('PATCH', endpointsPath(ws, endpoint.id), {
      token: ws.token,
      body: { enabled: false },
    });
    expect(disabled.status).toBe(200);
    expect(disabled.body.data).toMatchObject({ enabled: false, disabledReason: null });
    const changed = await t.request('PATCH', endpointsPath(ws, endpoint.id), {
      token: ws.token,
      body: { enabled: true, url: `${receiver.url}/v2`, events: ['payment.succeeded'] },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({
      enabled: true,
      url: `${receiver.url}/v2`,
      events: ['payment.succeeded'],
    });
    expect(await getEndpoint(t, ws, endpoint.id)).toEqual(changed.body.data);
    const bad = await t.request('PATCH', endpointsPath(ws, endpoint.id), {
      token: ws.token,
      body: { url: 'ftp://example.com/' },
    });
    expectError(bad, 400, 'VALIDATION_ERROR', [detail('url', 'unsupported_scheme')]);
  });

  it('DELETE answers {id, deleted: true}; then it is gone (404) and no longer listed', async () => {
    const endpoint = await newEndpoint();
    const res = await t.request('DELETE', endpointsPath(ws, endpoint.id), { token: ws.token });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ id: endpoint.id, deleted: true });
    expectError(
      await t.request('GET', endpointsPath(ws, endpoint.id), { token: ws.token }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await t.request('DELETE', endpointsPath(ws, endpoint.id), { token: ws.token }),
      404,
      'NOT_FOUND',
    );
    const list = await t.request('GET', `${endpointsPath(ws)}?limit=100`, { token: ws.token });
    expect(list.body.data.map((e: { id: string }) => e.id)).not.toContain(endpoint.id);
  });

  it("another workspace's endpoint is 404 on every route and stays as it was", async () => {
    const theirs = await newEndpoint(other);
    const before = await getEndpoint(t, other, theirs.id);
    const probes: [string, string, unknown][] = [
      ['GET', endpointsPath(ws, theirs.id), undefined],
      ['PATCH', endpointsPath(ws, theirs.id), { enabled: false }],
      ['DELETE', endpointsPath(ws, theirs.id), undefined],
      ['POST', endpointsPath(ws, theirs.id, '/rotate-secret'), {}],
      ['GET', endpointsPath(ws, theirs.id, '/deliveries'), undefined],
      ['POST', endpointsPath(ws, theirs.id, `/deliveries/whd_${'0'.repeat(22)}/resend`), undefined],
    ];
    for (const [method, path, body] of probes) {
      const res = await t.request(method, path, { token: ws.token, ...(body !== undefined && { body }) });
      expectError(res, 404, 'NOT_FOUND');
      expect(JSON.stringify(res.body)).not.toContain(theirs.secret);
    }
    expect(await getEndpoint(t, other, theirs.id)).toEqual(before);
    const list = await t.request('GET', `${endpointsPath(ws)}?limit=100`, { token: ws.token });
    expect(list.body.data.map((e: { id: string }) => e.id)).not.toContain(theirs.id);
  });
});

describe('rotating the signing secret', () => {
  it('answers a new secret once; during the overlap deliveries carry two v1 that verify with either secret', async () => {
    const endpoint = await newEndpoint(ws, { events: ['booking.created'] });
    const clock = testClock();
    const job = deliveryJob(t, clock);
    const rotated = await t.request('POST', endpointsPath(ws, endpoint.id, '/rotate-secret'), {
      token: ws.token,
      body: {},
    });
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
    expect(rotated.headers.get('cache-control')).toBe('no-store');
    const fresh: string = rotated.body.data.secret;
    secrets.add(fresh);
    expect(fresh).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
    expect(fresh).not.toBe(endpoint.secret);
    // The default overlap is a day.
    const overlapEnds = Date.parse(rotated.body.data.previousSecretExpiresAt);
    expect(overlapEnds - Date.now()).toBeGreaterThan(23.9 * 3600 * SECOND);
    expect(overlapEnds - Date.now()).toBeLessThanOrEqual(24 * 3600 * SECOND);
    const got = await t.request('GET', endpointsPath(ws, endpoint.id), { token: ws.token });
    expect(JSON.stringify(got.body)).not.toContain(fresh);

    // A receiver that has not switched yet still verifies.
    receiver.secret = endpoint.secret;
    const booking = await book(t, ws, departureId);
    clock.catchUp();
    await runJob(job);
    const delivery = receiver.requests.find((r) => r.event?.data?.id === booking.id);
    expect(delivery, 'delivered').toBeDefined();
    if (!delivery) return;
    expect(delivery.verified).toBe(true);
    expect(delivery.v1).toHaveLength(2);
    expect(delivery.signature).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    for (const secret of [endpoint.secret, fresh, [endpoint.secret, fresh]]) {
      expect(verify({ rawBody: delivery.rawBody, header: delivery.signature, secret }).ok).toBe(true);
    }
    expect(verify({ rawBody: delivery.rawBody, header: delivery.signature, secret: 'whsec_other' }).ok).toBe(
      false,
    );
  });

  it('with overlapHours 0 the old secret stops verifying at once', async () => {
    const endpoint = await newEndpoint(ws, { events: ['booking.created'] });
    const clock = testClock();
    const job = deliveryJob(t, clock);
    const rotated = await t.request('POST', endpointsPath(ws, endpoint.id, '/rotate-secret'), {
      token: ws.token,
      body: { overlapHours: 0 },
    });
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
    expect(rotated.body.data.previousSecretExpiresAt).toBeNull();
    const fresh: string = rotated.body.data.secret;
    secrets.add(fresh);

    // A receiver still on the old secret refuses (401) and the delivery stays due.
    receiver.secret = endpoint.secret;
    const booking = await book(t, ws, departureId);
    clock.catchUp();
    await runJob(job);
    const refused = receiver.requests.filter((r) => r.event?.data?.id === booking.id);
    expect(refused.map((r) => [r.verified, r.status, r.v1.length])).toEqual([[false, 401, 1]]);
    const [first] = refused;
    if (!first) return;
    expect(verify({ rawBody: first.rawBody, header: first.signature, secret: fresh }).ok).toBe(true);
    expect(verify({ rawBody: first.rawBody, header: first.signature, secret: endpoint.secret })).toEqual({
      ok: false,
      reason: 'no_matching_signature',
    });

    // Switched to the new secret, the retry is accepted.
    receiver.secret = fresh;
    clock.advance(SECOND);
    await runJob(job);
    expect(receiver.accepted().filter((e) => e.data.id === booking.id)).toHaveLength(1);
  });

  it('overlapHours out of range: 400; an unknown endpoint: 404', async () => {
    const endpoint = await newEndpoint();
    const res = await t.request('POST', endpointsPath(ws, endpoint.id, '/rotate-secret'), {
      token: ws.token,
      body: { overlapHours: 169 },
    });
    expectError(res, 400, 'VALIDATION_ERROR');
    expect(res.body.error.details[0].field).toBe('overlapHours');
    const unknown = await t.request('POST', endpointsPath(ws, `whe_${'0'.repeat(22)}`, '/rotate-secret'), {
      token: ws.token,
      body: {},
    });
    expectError(unknown, 404, 'NOT_FOUND');
  });
});

describe('URL safety (no private addresses outside development)', () => {
  it.each([
    'http://127.0.0.1/hooks',
    'http://10.0.0.1/hooks',
    'http://[::1]/hooks',
    'http://169.254.169.254/latest/meta-data',
    'http://192.168.1.10/',
    'http://172.16.0.1/',
    'http://0x7f000001/',
    'http://[::ffff:127.0.0.1]/',
    'http://localhost:8080/',
  ])('%s is refused with issue private_address', async (url) => {
    const result = await createEndpointUrlCheck(false)(url);
    expect(result).toEqual({
      ok: false,
      error: expect.objectContaining({
        code: 'UNPROCESSABLE',
        details: [{ field: 'url', issue: 'private_address' }],
      }),
    });
  });

  it('a public address is accepted; private ones are when allowed (development)', async () => {
    expect(await createEndpointUrlCheck(false)('https://93.184.215.14/hooks')).toEqual({
      ok: true,
      value: true,
    });
    expect(await createEndpointUrlCheck(true)('http://127.0.0.1/hooks')).toEqual({ ok: true, value: true });
  });

  it('the sender refuses to deliver to a loopback address: private_address, no request made', async () => {
    const before = receiver.requests.length;
    const send = createWebhookSender({ allowPrivateAddresses: false });
    const response = await send({
      url: receiver.url,
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(response).toEqual({ error: 'private_address' });
    expect(receiver.requests.length).toBe(before);
  });

  it('an API that refuses private addresses answers 422 private_address at registration', async () => {
    const strict = await startTestApi({ WEBHOOK_ALLOW_PRIVATE_URLS: 'false' });
    try {
      const admin = await strict.createWorkspace('ADMIN');
      const res = await strict.request('POST', `/workspaces/${admin.workspaceId}/webhook-endpoints`, {
        token: admin.token,
        body: { url: receiver.url, events: ['booking.created'] },
      });
      expectError(res, 422, 'UNPROCESSABLE', [detail('url', 'private_address')]);
    } finally {
      await strict.close();
    }
  });
});

describe('logs', () => {
  it('never contain an endpoint secret', async () => {
    // One more delivery, so the worker's lines are in the logs too.
    const endpoint = await newEndpoint(ws, { events: ['booking.confirmed'] });
    receiver.secret = endpoint.secret;
    const booking = await confirmedBooking(t, ws, departureId);
    const clock = testClock();
    await runJob(deliveryJob(t, clock));
    expect(receiver.accepted().some((e) => e.type === 'booking.confirmed' && e.data.id === booking.id)).toBe(
      true,
    );
    expect((await t.request('GET', bookingsPath(ws, booking.id), { token: ws.token })).status).toBe(200);
    expect(secrets.size).toBeGreaterThanOrEqual(8);
    const text = t.logs.join('\n');
    expect(text).toContain('webhook delivery attempt');
    for (const secret of secrets) expect(text).not.toContain(secret);
    expect(text).not.toContain('whsec_');
  });
});
