import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createDeparture,
  createTour,
  customerInput,
  detail,
  expectError,
  type TestWorkspace,
  tourInput,
} from '../support/fixtures.js';
import { type RequestOptions, startTestApi, type TestApi, type TestResponse } from '../support/harness.js';

let t: TestApi;
let ws: TestWorkspace;
let tour: any;
let departure: any;
beforeAll(async () => {
  t = await startTestApi();
  ws = await t.createWorkspace('ADMIN');
  tour = await createTour(t, ws, { isPublic: true, slug: 'errors-tour' });
  departure = await createDeparture(t, ws, tour.id);
});
afterAll(() => t.close());

const toursPath = () => `/workspaces/${ws.workspaceId}/tours`;
const postTourRaw = (rawBody: string, contentType = 'application/json') =>
  t.request('POST', toursPath(), { token: ws.token, rawBody, headers: { 'Content-Type': contentType } });
const postTour = (body: unknown, headers: Record<string, string> = {}) =>
  t.request('POST', toursPath(), { token: ws.token, body, headers });

/** Nothing of the implementation leaks into an answer. */
function expectNoInternals(res: TestResponse) {
  const text = typeof res.body === 'string' ? res.body : JSON.stringify(res.body ?? '');
  expect(text).not.toMatch(/\bat [\w.<>]+ \(|node_modules|\.ts:\d+|\.js:\d+|stack|Error:|select |insert /i);
}

describe('routing', () => {
  it.each([
    ['GET', '/nope'],
    ['GET', '/workspaces'],
    ['DELETE', '/workspaces/ws_x/tours'],
    ['PUT', '/workspaces/ws_x/tours/tour_x'],
    ['POST', '/public/some-slug/tours'],
  ])('%s %s: 404 NOT_FOUND in the envelope', async (method, path) => {
    const res = await t.request(method, path, { token: ws.token });
    expectError(res, 404, 'NOT_FOUND');
    expectNoInternals(res);
  });

  it('a path with invalid percent-encoding is a 4xx, never a 500', async () => {
    for (const path of [`${toursPath()}/%FF`, '/public/%E0%A4%A/tours', `${toursPath()}/%`]) {
      const res = await t.request('GET', path, { token: ws.token });
      expect([400, 404], `${path}: ${JSON.stringify(res.body)}`).toContain(res.status);
      expect(res.body.error.code).toBe(res.status === 400 ? 'VALIDATION_ERROR' : 'NOT_FOUND');
    }
  });

  it('a path id containing NUL names no record: 404, not a database error', async () => {
    for (const path of [
      `${toursPath()}/tour_a%00b`,
      `/workspaces/${ws.workspaceId}/customers/cus_%00`,
      '/public/a%00b/tours',
      `/public/${ws.slug}/tours/x%00y/availability`,
    ]) {
      expectError(await t.request('GET', path, { token: ws.token }), 404, 'NOT_FOUND');
    }
    const patch = await t.request('PATCH', `/workspaces/${ws.workspaceId}/availability/avl_%00`, {
      token: ws.token,
      body: { capacity: 3 },
    });
    expectError(patch, 404, 'NOT_FOUND');
  });
});

describe('request bodies', () => {
  it.each([
    ['an unclosed object', '{"name": "x"'],
    ['single quotes', "{'name': 'x'}"],
    ['a trailing comma', '{"name": "x",}'],
    ['trailing garbage', '{} x'],
    ['NaN', '{"capacity": NaN}'],
    ['a comment', '{/* hi */}'],
    ['bare text', 'hello'],
  ])('malformed JSON (%s): 400 field body issue invalid_json', async (_label, raw) => {
    const res = await postTourRaw(raw);
    expectError(res, 400, 'VALIDATION_ERROR', [detail('body', 'invalid_json')]);
    expectNoInternals(res);
  });

  it('a body sent as text/plain: 415 VALIDATION_ERROR on Content-Type', async () => {
    const res = await postTourRaw(JSON.stringify(tourInput()), 'text/plain');
    expectError(res, 415, 'VALIDATION_ERROR', [detail('Content-Type', 'unsupported_media_type')]);
  });

  it('a body without a Content-Type: 415', async () => {
    const res = await t.request('POST', toursPath(), {
      token: ws.token,
      rawBody: JSON.stringify(tourInput()),
    });
    // fetch labels a string body text/plain; the service must still refuse it.
    expectError(res, 415, 'VALIDATION_ERROR');
  });

  it('application/json with charset=utf-8 is accepted', async () => {
    const res = await postTourRaw(
      JSON.stringify(tourInput({ name: 'Charset OK' })),
      'application/json; charset=utf-8',
    );
    expect(res.status).toBe(201);
    expect(res.body.data.name).toBe('Charset OK');
  });

  it('a charset other than UTF-8: 415', async () => {
    const res = await postTourRaw(JSON.stringify(tourInput()), 'application/json; charset=latin1');
    expectError(res, 415, 'VALIDATION_ERROR');
  });

  it('a body over 1 MB: 413 VALIDATION_ERROR field body issue too_large; just under is validated normally', async () => {
    const over = JSON.stringify(tourInput({ description: 'a'.repeat(1024 * 1024) }));
    expectError(await postTourRaw(over), 413, 'VALIDATION_ERROR', [detail('body', 'too_large')]);
    const under = JSON.stringify(tourInput({ description: 'a'.repeat(1000 * 1000) }));
    expect(Buffer.byteLength(under)).toBeLessThan(1024 * 1024);
    expectError(await postTourRaw(under), 400, 'VALIDATION_ERROR', [detail('description', 'too_long')]);
  });

  it('a JSON array as body: 400 field body invalid_type', async () => {
    expectError(await postTour([tourInput()]), 400, 'VALIDATION_ERROR', [detail('body', 'invalid_type')]);
  });

  it.each(['"a string"', '42', 'true', 'null'])(
    'the scalar %s as body: 400 field body invalid_type',
    async (raw) => {
      expectError(await postTourRaw(raw), 400, 'VALIDATION_ERROR', [detail('body', 'invalid_type')]);
    },
  );

  it('an empty body where one is required: 400 field body required', async () => {
    const res = await t.request('POST', toursPath(), {
      token: ws.token,
      headers: { 'Content-Type': 'application/json' },
    });
    expectError(res, 400, 'VALIDATION_ERROR', [detail('body', 'required')]);
  });

  it('deeply nested JSON: 400, not 500, at any depth', async () => {
    const nested = (depth: number) => `{"name": ${'['.repeat(depth)}${']'.repeat(depth)}}`;
    expectError(await postTourRaw(nested(100)), 400, 'VALIDATION_ERROR', [detail('body', 'too_deep')]);
    const deep = await postTourRaw(nested(200_000));
    expect(deep.status).toBe(400);
    expect(deep.body.error.code).toBe('VALIDATION_ERROR');
  });

  it('nesting within the limit reaches validation, which names the field', async () => {
    const res = await postTour(tourInput({ name: [[['x']]] }));
    expectError(res, 400, 'VALIDATION_ERROR', [detail('name', 'invalid_type')]);
  });

  it('__proto__ and constructor keys are unknown fields, not prototype pollution', async () => {
    const res = await postTourRaw(
      `{"__proto__": {"isPublic": true}, ${JSON.stringify(tourInput()).slice(1)}`,
    );
    expectError(res, 400, 'VALIDATION_ERROR', [detail('__proto__', 'unknown_field')]);
    expect(({} as Record<string, unknown>).isPublic).toBeUndefined();
  });
});

describe('field validation', () => {
  it('unknown body fields: 400 unknown_field', async () => {
    expectError(await postTour(tourInput({ price: 100 })), 400, 'VALIDATION_ERROR', [
      detail('price', 'unknown_field'),
    ]);
    const customer = await t.request('POST', `/workspaces/${ws.workspaceId}/customers`, {
      token: ws.token,
      body: customerInput({ vip: true }),
    });
    expectError(customer, 400, 'VALIDATION_ERROR', [detail('vip', 'unknown_field')]);
  });

  it.each([
    ['name', 'x'.repeat(201)],
    ['description', 'x'.repeat(10_001)],
    ['meetingPoint', 'x'.repeat(501)],
    ['slug', 'x'.repeat(101)],
  ])('over-long %s: too_long', async (field, value) => {
    const res = await postTour(tourInput({ [field]: value }));
    expectError(res, 400, 'VALIDATION_ERROR');
    expect(res.body.error.details).toContainEqual(detail(field, 'too_long'));
  });

  it.each([
    ['name', 'Harbour\u0000Walk'],
    ['description', 'nul \u0000 inside'],
    ['meetingPoint', '\u0000'],
  ])('text with NUL in %s: contains_nul', async (field, value) => {
    expectError(await postTour(tourInput({ [field]: value })), 400, 'VALIDATION_ERROR', [
      detail(field, 'contains_nul'),
    ]);
  });

  it('NUL in a customer name, tag or e-mail is refused before the database', async () => {
    const res = await t.request('POST', `/workspaces/${ws.workspaceId}/customers`, {
      token: ws.token,
      body: customerInput({ name: 'A\u0000', tags: ['ok', 'b\u0000'] }),
    });
    expectError(res, 400, 'VALIDATION_ERROR');
    expect(res.body.error.details).toEqual(
      expect.arrayContaining([detail('name', 'contains_nul'), detail('tags[1]', 'contains_nul')]),
    );
  });

  it('NUL in a tourId (body or query) is 400 or 422, not a database error', async () => {
    const created = await t.request('POST', `/workspaces/${ws.workspaceId}/availability`, {
      token: ws.token,
      body: { tourId: 'tour_\u0000', startsAt: '2031-01-01T00:00:00Z' },
    });
    expectError(created, 400, 'VALIDATION_ERROR', [detail('tourId', 'contains_nul')]);
    const listed = await t.request('GET', `/workspaces/${ws.workspaceId}/availability?tourId=a%00b`, {
      token: ws.token,
    });
    expectError(listed, 400, 'VALIDATION_ERROR', [detail('tourId', 'contains_nul')]);
  });

  it.each([
    ['capacity', '12', 'invalid_type'],
    ['capacity', null, 'invalid_type'],
    ['name', 5, 'invalid_type'],
    ['name', null, 'invalid_type'],
    ['isPublic', 1, 'invalid_type'],
    ['description', { text: 'x' }, 'invalid_type'],
    ['basePrice', true, 'invalid_type'],
  ])('wrong type: %s = %j is %s', async (field, value, issue) => {
    expectError(await postTour(tourInput({ [field]: value })), 400, 'VALIDATION_ERROR', [
      detail(field, issue),
    ]);
  });

  it.each([
    ['basePrice', 1e13, 'out_of_range'],
    ['basePrice', Number.MAX_SAFE_INTEGER + 2, 'out_of_range'],
    ['capacity', -1, 'out_of_range'],
    ['capacity', 10_001, 'out_of_range'],
    ['durationMinutes', 0, 'out_of_range'],
    ['depositPercent', -1, 'out_of_range'],
  ])('number out of range: %s = %d is %s', async (field, value, issue) => {
    expectError(await postTour(tourInput({ [field]: value })), 400, 'VALIDATION_ERROR', [
      detail(field, issue),
    ]);
  });

  it('a number too large for a double (1e400) is 400 on its field', async () => {
    const res = await postTourRaw(JSON.stringify(tourInput()).replace('"capacity":12', '"capacity":1e400'));
    expectError(res, 400, 'VALIDATION_ERROR');
    expect(new Set(res.body.error.details.map((d: { field: string }) => d.field))).toEqual(
      new Set(['capacity']),
    );
  });

  it('every problem is reported at once', async () => {
    const res = await postTour({ name: '', durationMinutes: -5, basePrice: 'free', currency: 'euro' });
    expectError(res, 400, 'VALIDATION_ERROR');
    const fields = new Set(res.body.error.details.map((d: { field: string }) => d.field));
    expect(fields).toEqual(new Set(['name', 'durationMinutes', 'basePrice', 'currency', 'capacity']));
  });

  it('dates that do not parse: startsAt "yesterday" and from=2026-02-30 are 400', async () => {
    const created = await t.request('POST', `/workspaces/${ws.workspaceId}/availability`, {
      token: ws.token,
      body: { tourId: tour.id, startsAt: 'yesterday' },
    });
    expectError(created, 400, 'VALIDATION_ERROR', [detail('startsAt', 'invalid_date_time')]);
    const listed = await t.request('GET', `/workspaces/${ws.workspaceId}/availability?from=2026-02-30`, {
      token: ws.token,
    });
    expectError(listed, 400, 'VALIDATION_ERROR', [detail('from', 'invalid_date')]);
  });
});

describe('Idempotency-Key', () => {
  it.each(['not-a-uuid', '12345', `${'a'.repeat(36)}`, '{00000000-0000-0000-0000-000000000000}'])(
    'a key that is not a UUID (%s): 400 field Idempotency-Key',
    async (key) => {
      const res = await postTour(tourInput({ name: 'Idempotency Probe' }), { 'Idempotency-Key': key });
      expectError(res, 400, 'VALIDATION_ERROR', [detail('Idempotency-Key', 'invalid_uuid')]);
      const list = await t.request('GET', `${toursPath()}?limit=100`, { token: ws.token });
      expect(list.body.data.map((x: { name: string }) => x.name)).not.toContain('Idempotency Probe');
    },
  );

  it('a bad key and a bad body are reported together', async () => {
    const res = await postTour({ ...tourInput(), capacity: 0 }, { 'Idempotency-Key': 'nope' });
    expectError(res, 400, 'VALIDATION_ERROR');
    expect(res.body.error.details).toEqual(
      expect.arrayContaining([detail('Idempotency-Key', 'invalid_uuid'), detail('capacity', 'out_of_range')]),
    );
  });

  it('a UUID key is accepted on every creating POST', async () => {
    const key = () => ({ 'Idempotency-Key': crypto.randomUUID() });
    expect((await postTour(tourInput({ name: 'Keyed' }), key())).status).toBe(201);
    const customer = await t.request('POST', `/workspaces/${ws.workspaceId}/customers`, {
      token: ws.token,
      body: customerInput(),
      headers: key(),
    });
    expect(customer.status).toBe(201);
    const avl = await t.request('POST', `/workspaces/${ws.workspaceId}/availability`, {
      token: ws.token,
      body: { tourId: tour.id, startsAt: '2031-01-01T00:00:00Z' },
      headers: key(),
    });
    expect(avl.status).toBe(201);
  });
});

describe('every error', () => {
  it('carries X-Request-Id, echoes a safe incoming one and replaces an unsafe one', async () => {
    const echoed = await t.request('GET', '/nope', { headers: { 'X-Request-Id': 'trace-abc.123:x' } });
    expect(echoed.headers.get('x-request-id')).toBe('trace-abc.123:x');
    expect(echoed.body.error.requestId).toBe('trace-abc.123:x');
    const unsafe = await t.request('GET', '/nope', { headers: { 'X-Request-Id': 'bad id <script>' } });
    expect(unsafe.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{32}$/);
    const a = await t.request('GET', '/nope');
    const b = await t.request('GET', '/nope');
    expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
  });

  it('a batch of nasty inputs: every answer is a 4xx in the envelope with X-Request-Id, none 5xx, no internals', async () => {
    const w = `/workspaces/${ws.workspaceId}`;
    const json = { 'Content-Type': 'application/json' };
    const cases: [string, string, RequestOptions][] = [
      ['POST', `${w}/tours`, { rawBody: '{', headers: json }],
      ['POST', `${w}/tours`, { rawBody: '[]', headers: json }],
      ['POST', `${w}/tours`, { rawBody: '"x"', headers: json }],
      ['POST', `${w}/tours`, { rawBody: `{"a":${'['.repeat(50_000)}${']'.repeat(50_000)}}`, headers: json }],
      ['POST', `${w}/tours`, { rawBody: 'x'.repeat(2 * 1024 * 1024), headers: json }],
      ['POST', `${w}/tours`, { rawBody: '{}', headers: { 'Content-Type': 'application/xml' } }],
      ['POST', `${w}/tours`, { rawBody: '\u0000\u0001', headers: json }],
      ['POST', `${w}/tours`, { rawBody: 'garbage', headers: { ...json, 'Content-Encoding': 'gzip' } }],
      ['POST', `${w}/tours`, { rawBody: '{}', headers: { ...json, 'Content-Encoding': 'compress' } }],
      [
        'POST',
        `${w}/tours`,
        { rawBody: '{}', headers: { 'Content-Type': 'application/json; charset=utf-16' } },
      ],
      ['POST', `${w}/tours`, { body: tourInput({ name: 'a\u0000' }) }],
      ['POST', `${w}/tours`, { body: tourInput({ name: '\ud800', slug: 'x'.repeat(5000) }) }],
      ['POST', `${w}/tours`, { body: tourInput({ basePrice: 1e308, capacity: -1e308 }) }],
      ['POST', `${w}/tours`, { body: tourInput({ currency: '€€€' }) }],
      ['POST', `${w}/tours`, { body: tourInput({ slug: 'UPPER' }) }],
      ['POST', `${w}/tours`, { body: { ...tourInput(), ['x'.repeat(10_000)]: 1 } }],
      ['PATCH', `${w}/tours/${tour.id}`, { body: { name: null } }],
      ['PATCH', `${w}/tours/${tour.id}`, { rawBody: 'null', headers: json }],
      ['PATCH', `${w}/tours/${'x'.repeat(101)}`, { body: {} }],
      [
        'PATCH',
        `${w}/availability/${departure.id}`,
        { body: { status: 'DEPARTED', startsAt: '2031-13-01T00:00:00Z' } },
      ],
      ['PATCH', `${w}/availability/${departure.id}`, { body: { startsAt: '0000-00-00T00:00:00Z' } }],
      ['PATCH', `${w}/availability/${departure.id}`, { body: { bookingCutoffAt: '2031-02-29T00:00:00Z' } }],
      ['POST', `${w}/availability`, { body: { tourId: tour.id, startsAt: '2031-01-01T25:00:00Z' } }],
      ['POST', `${w}/availability`, { body: { tourId: tour.id, startsAt: '2031-01-01T10:00:00+99:00' } }],
      [
        'POST',
        `${w}/availability`,
        { body: { tourId: tour.id, startsAt: `2031-01-01T10:00:00.${'1'.repeat(40)}Z` } },
      ],
      ['POST', `${w}/availability`, { body: { tourId: ['tour_x'], startsAt: '2031-01-01T10:00:00Z' } }],
      ['POST', `${w}/availability`, { body: { tourId: 'x'.repeat(5000), startsAt: '2031-01-01T10:00:00Z' } }],
      ['POST', `${w}/customers`, { body: { name: 'x', email: 'x@'.repeat(200) } }],
      ['POST', `${w}/customers`, { body: { name: 'x', email: 'a@b.co', tags: Array(10_000).fill('t') } }],
      ['POST', `${w}/customers`, { body: { name: 'x', email: 'a@b.co', phone: '\u0000' } }],
      ['GET', `${w}/tours?limit=1e999`, {}],
      ['GET', `${w}/tours?limit=1&limit=2`, {}],
      ['GET', `${w}/tours?cursor=${'%FF'.repeat(10)}`, {}],
      ['GET', `${w}/tours?cursor=${Buffer.from('{"s":1}').toString('base64url')}.x`, {}],
      ['GET', `${w}/customers?q=${'%25'.repeat(300)}`, {}],
      ['GET', `${w}/customers?q=a&q=b`, {}],
      ['GET', `${w}/availability?from=0000-00-00`, {}],
      ['GET', `${w}/availability?from=2031-1-1`, {}],
      ['GET', `${w}/availability?to=${'9'.repeat(100)}`, {}],
      ['GET', `${w}/availability?tourId=${'x'.repeat(200)}`, {}],
      ['GET', `${w}/tours/${'%00'.repeat(3)}`, {}],
      ['GET', `/public/${ws.slug}/tours/errors-tour/availability?from=2031-02-30`, {}],
      ['GET', `/public/${'x'.repeat(500)}/tours`, {}],
      ['GET', `${w}/tours`, { token: '', headers: { Authorization: `Bearer ${'\u00e9'.repeat(10)}` } }],
      ['GET', `${w}/tours`, { token: '', headers: { Authorization: `Bearer ${'x'.repeat(8_000)}` } }],
    ];
    const failures: string[] = [];
    for (const [method, path, options] of cases) {
      const res = await t.request(method, path, { token: ws.token, ...options });
      const label = `${method} ${path.slice(0, 80)} -> ${res.status} ${String(JSON.stringify(res.body)).slice(0, 200)}`;
      if (res.status < 400 || res.status >= 500) failures.push(label);
      else if (!res.body?.error?.code || !res.body.error.message) failures.push(`no envelope: ${label}`);
      else if (res.headers.get('x-request-id') !== res.body.error.requestId)
        failures.push(`no request id: ${label}`);
      expectNoInternals(res);
    }
    expect(failures).toEqual([]);
  });
});
