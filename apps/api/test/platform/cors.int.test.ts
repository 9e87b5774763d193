import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookingInput } from '../support/booking-fixtures.js';
import { createDeparture, createTour, type TestWorkspace } from '../support/fixtures.js';
import { startTestApi, type TestApi, type TestResponse } from '../support/harness.js';

// Booking widgets run on operators' sites: /public/* answers any origin, without credentials;
// nothing authenticated answers CORS at all, so a foreign page can never read a member's data.
let t: TestApi;
let ws: TestWorkspace;
let departure: any;
beforeAll(async () => {
  t = await startTestApi();
  ws = await t.createWorkspace('ADMIN');
  const tour = await createTour(t, ws, { slug: 'cors-walk', isPublic: true, capacity: 4 });
  departure = await createDeparture(t, ws, tour.id, { capacity: 1 });
});
afterAll(() => t.close());

const ORIGIN = 'https://www.operator.example';

const preflight = (path: string, method = 'POST', headers = 'content-type,idempotency-key') =>
  t.request('OPTIONS', path, {
    headers: {
      Origin: ORIGIN,
      'Access-Control-Request-Method': method,
      'Access-Control-Request-Headers': headers,
    },
  });

function expectPublicCors(res: TestResponse) {
  expect(res.headers.get('access-control-allow-origin')).toBe('*');
  expect(res.headers.get('access-control-allow-credentials')).toBeNull();
}

function expectNoCors(res: TestResponse) {
  for (const name of [
    'access-control-allow-origin',
    'access-control-allow-credentials',
    'access-control-allow-methods',
    'access-control-allow-headers',
  ]) {
    expect(res.headers.get(name), name).toBeNull();
  }
}

/** A path of the document with every `{param}` filled with something plausible. */
const concrete = (path: string) =>
  path
    .replace('{workspaceId}', ws.workspaceId)
    .replace('{workspaceSlug}', ws.slug)
    .replace(/\{\w+\}/g, 'x1');

describe('public operations answer CORS for any origin, without credentials', () => {
  it('a preflight for POST with Content-Type and Idempotency-Key is 204 and allows exactly those', async () => {
    const res = await preflight(`/public/${ws.slug}/bookings`);
    expect(res.status).toBe(204);
    expectPublicCors(res);
    expect(res.headers.get('access-control-allow-methods')).toBe('GET, POST');
    expect(res.headers.get('access-control-allow-headers')).toBe('Content-Type, Idempotency-Key');
    expect(Number(res.headers.get('access-control-max-age'))).toBeGreaterThan(0);
  });

  it('answers, errors included, carry the header and expose Retry-After and the rate-limit headers', async () => {
    const answers = [
      await t.request('GET', `/public/${ws.slug}/tours`, { headers: { Origin: ORIGIN } }),
      await t.request('GET', '/public/no-such-workspace/tours', { headers: { Origin: ORIGIN } }),
      await t.request('POST', `/public/${ws.slug}/bookings`, {
        headers: { Origin: ORIGIN, 'Idempotency-Key': crypto.randomUUID() },
        body: bookingInput(departure.id),
      }),
      // The last seat is gone: the widget must be able to read the 409 to ask again.
      await t.request('POST', `/public/${ws.slug}/bookings`, {
        headers: { Origin: ORIGIN },
        body: bookingInput(departure.id),
      }),
    ];
    expect(answers.map((res) => res.status)).toEqual([200, 404, 201, 409]);
    for (const res of answers) {
      expectPublicCors(res);
      const exposed = res.headers.get('access-control-expose-headers') ?? '';
      for (const name of ['Retry-After', 'X-RateLimit-Reset', 'X-Request-Id', 'Idempotent-Replayed']) {
        expect(exposed).toContain(name);
      }
    }
  });

  it('a 429 carries it too, so a widget can read Retry-After', async () => {
    const limited = await startTestApi({ RATE_LIMIT_PER_IP: '1' });
    try {
      const path = `/public/${ws.slug}/tours`;
      await limited.request('GET', path, { headers: { Origin: ORIGIN } });
      const res = await limited.request('GET', path, { headers: { Origin: ORIGIN } });
      expect(res.status).toBe(429);
      expectPublicCors(res);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });

  it('every /public/ operation of /openapi.json answers a preflight', async () => {
    const doc = (await t.request('GET', '/openapi.json')).body;
    const publicPaths = Object.keys(doc.paths).filter((path) => path.startsWith('/public/'));
    expect(publicPaths.length).toBeGreaterThan(5);
    for (const path of publicPaths) {
      for (const method of Object.keys(doc.paths[path]).filter((m) => m === 'get' || m === 'post')) {
        const res = await preflight(concrete(path), method.toUpperCase());
        expect(res.status, `${method} ${path}`).toBe(204);
        expectPublicCors(res);
      }
    }
  });
});

describe('nothing authenticated answers CORS', () => {
  it('no operation outside /public/ answers a preflight or a cross-origin request with CORS headers', async () => {
    const doc = (await t.request('GET', '/openapi.json')).body;
    const paths = Object.keys(doc.paths).filter((path) => !path.startsWith('/public/'));
    expect(paths.length).toBeGreaterThan(30);
    for (const path of paths) {
      for (const method of Object.keys(doc.paths[path]).filter((m) => m !== 'parameters')) {
        expectNoCors(await preflight(concrete(path), method.toUpperCase(), 'authorization,content-type'));
      }
    }
  });

  it('a bearer token or a session read from a foreign origin gets no Access-Control-Allow-Origin', async () => {
    const withToken = await t.request('GET', `/workspaces/${ws.workspaceId}/tours`, {
      token: ws.token,
      headers: { Origin: ORIGIN },
    });
    expect(withToken.status).toBe(200);
    expectNoCors(withToken);
    const session = await t.memberSession(ws.workspaceId, 'ADMIN');
    const withCookie = await t.request('GET', '/auth/session', { session, headers: { Origin: ORIGIN } });
    expect(withCookie.status).toBe(200);
    expectNoCors(withCookie);
  });
});
