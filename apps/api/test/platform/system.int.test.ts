import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../support/fixtures.js';
import { startTestApi, type TestApi } from '../support/harness.js';

let t: TestApi;
beforeAll(async () => {
  t = await startTestApi();
});
afterAll(() => t.close());

/** The spec's catalog operations (and the public ones) by name. */
const CATALOG_OPERATIONS = [
  'listTours',
  'createTour',
  'getTour',
  'updateTour',
  'listAvailability',
  'createAvailability',
  'updateAvailability',
  'listCustomers',
  'createCustomer',
  'getCustomer',
  'listPublicTours',
  'getPublicTour',
  'listPublicAvailability',
];

type Operation = { operationId: string; security?: unknown[]; responses: Record<string, unknown> };

function operationsOf(document: any): Map<string, Operation & { path: string; method: string }> {
  const found = new Map<string, Operation & { path: string; method: string }>();
  for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, Operation>>)) {
    for (const [method, operation] of Object.entries(item)) {
      found.set(operation.operationId, { ...operation, path, method });
    }
  }
  return found;
}

describe('health', () => {
  it('/healthz answers 200 without a credential', async () => {
    const res = await t.request('GET', '/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { status: 'ok' } });
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });

  it('/readyz answers 200 with the database and Redis ok', async () => {
    const res = await t.request('GET', '/readyz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { status: 'ready', checks: { database: 'ok', redis: 'ok' } } });
  });

  it('/readyz answers 503 naming Redis when Redis is unreachable', async () => {
    // Port 1 on loopback: nothing listens, so the connection is refused at once.
    const broken = await startTestApi({ REDIS_URL: 'redis://127.0.0.1:1' });
    try {
      const res = await broken.request('GET', '/readyz');
      expectError(res, 503, 'INTERNAL_ERROR', [{ field: 'redis', issue: 'unreachable' }]);
      expect((await broken.request('GET', '/healthz')).status).toBe(200);
    } finally {
      await broken.close();
    }
  });
});

describe('/openapi.json', () => {
  let document: any;
  beforeAll(async () => {
    const res = await t.request('GET', '/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    document = res.body;
  });

  it('is OpenAPI 3.1 at version 2.0.0', () => {
    expect(document.openapi).toMatch(/^3\.1\.\d+$/);
    expect(document.info.version).toBe('2.0.0');
    expect(document.info.title).toEqual(expect.any(String));
  });

  it("names every catalog operation with the spec's operationId, at the spec's path", () => {
    const operations = operationsOf(document);
    for (const id of CATALOG_OPERATIONS) expect(operations.has(id), id).toBe(true);
    expect(operations.get('listTours')).toMatchObject({
      method: 'get',
      path: '/workspaces/{workspaceId}/tours',
    });
    expect(operations.get('updateAvailability')).toMatchObject({
      method: 'patch',
      path: '/workspaces/{workspaceId}/availability/{availabilityId}',
    });
    expect(operations.get('listPublicAvailability')).toMatchObject({
      method: 'get',
      path: '/public/{workspaceSlug}/tours/{tourSlug}/availability',
    });
  });

  it('operationIds are unique', () => {
    const ids = Object.values(document.paths as Record<string, Record<string, Operation>>).flatMap((item) =>
      Object.values(item).map((operation) => operation.operationId),
    );
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('declares bearerAuth and sessionCookie: every /workspaces operation takes one (session-only ones the cookie), no /public one', () => {
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(document.components.securitySchemes.sessionCookie).toMatchObject({
      type: 'apiKey',
      in: 'cookie',
      name: 'tops_session',
    });
    const sessionOnly = [
      'listApiKeys',
      'createApiKey',
      'revokeApiKey',
      'listMembers',
      'updateMember',
      'deleteMember',
    ];
    for (const operation of operationsOf(document).values()) {
      if (operation.path.startsWith('/workspaces/')) {
        expect(operation.security, operation.operationId).toEqual(
          sessionOnly.includes(operation.operationId)
            ? [{ sessionCookie: [] }]
            : [{ bearerAuth: [] }, { sessionCookie: [] }],
        );
        expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['401', '403', '429']));
      } else if (operation.path.startsWith('/public/')) {
        expect(operation.security, operation.operationId).toEqual([]);
        expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['429']));
      }
    }
    expect(operationsOf(document).get('logIn')).toMatchObject({
      method: 'post',
      path: '/auth/login',
      security: [],
    });
    expect(operationsOf(document).get('getSession')?.security).toEqual([{ sessionCookie: [] }]);
  });

  it('documents the rate limit headers on every answer and Retry-After on 429', () => {
    expect(Object.keys(document.components.headers)).toEqual([
      'X-RateLimit-Limit',
      'X-RateLimit-Remaining',
      'X-RateLimit-Reset',
    ]);
    const limited = document.components.responses.RateLimited;
    expect(Object.keys(limited.headers)).toEqual(
      expect.arrayContaining(['Retry-After', 'X-RateLimit-Reset']),
    );
    const listTours = operationsOf(document).get('listTours') as any;
    expect(Object.keys(listTours.responses['200'].headers)).toEqual(
      expect.arrayContaining(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']),
    );
  });

  it('documents the error envelope and the Tour, Availability and Customer schemas', () => {
    const schemas = document.components.schemas;
    for (const name of ['Tour', 'Availability', 'Customer', 'Pagination', 'ErrorEnvelope']) {
      expect(schemas, name).toHaveProperty(name);
    }
    expect(schemas.Tour.required).toEqual(expect.arrayContaining(['id', 'name']));
    expect(schemas.Availability.required).toEqual(
      expect.arrayContaining(['id', 'tourId', 'startsAt', 'capacity', 'seatsRemaining']),
    );
  });

  it('every $ref points at something the document defines', () => {
    const refs = JSON.stringify(document).match(/"\$ref":"[^"]+"/g) ?? [];
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of new Set(refs)) {
      const pointer = ref.slice('"$ref":"#/'.length, -1).split('/');
      let node: any = document;
      for (const key of pointer) node = node?.[key.replace(/~1/g, '/').replace(/~0/g, '~')];
      expect(node, ref).toBeDefined();
    }
  });
});

describe('/docs', () => {
  it('is an HTML page', async () => {
    const res = await t.request('GET', '/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(String(res.body)).toMatch(/<html/i);
  });
});

describe('response headers', () => {
  it('authenticated answers are not cached and every answer has a request id', async () => {
    const ws = await t.createWorkspace('READ_ONLY');
    const res = await t.request('GET', `/workspaces/${ws.workspaceId}/tours`, { token: ws.token });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    expect(res.headers.get('x-powered-by')).toBeNull();
  });
});
