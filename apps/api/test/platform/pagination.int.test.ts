import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  collectPages,
  createCustomer,
  createDeparture,
  createTour,
  detail,
  expectError,
  newestFirst,
  type TestWorkspace,
} from '../support/fixtures.js';
import { startTestApi, type TestApi } from '../support/harness.js';

let t: TestApi;
let ws: TestWorkspace;
let tourIds: string[] = []; // newest first
const TOURS = 60;
beforeAll(async () => {
  t = await startTestApi();
  ws = await t.createWorkspace('ADMIN');
  const tours = [];
  for (let i = 0; i < TOURS; i++) tours.push(await createTour(t, ws, { name: `Tour ${i}` }));
  tourIds = newestFirst(tours).map((tour) => tour.id);
});
afterAll(() => t.close());

const toursPath = (workspace: TestWorkspace = ws) => `/workspaces/${workspace.workspaceId}/tours`;

/** Page one of the tours list: its next cursor. */
async function firstCursor(workspace: TestWorkspace = ws, path = toursPath(workspace)) {
  const res = await t.request('GET', `${path}?limit=2`, { token: workspace.token });
  expect(res.body.pagination.hasMore).toBe(true);
  return res.body.pagination.nextCursor as string;
}

describe('limit', () => {
  it('defaults to 25', async () => {
    const res = await t.request('GET', toursPath(), { token: ws.token });
    expect(res.body.data).toHaveLength(25);
    expect(res.body.data.map((tour: { id: string }) => tour.id)).toEqual(tourIds.slice(0, 25));
    expect(res.body.pagination).toEqual({ hasMore: true, nextCursor: expect.any(String) });
  });

  it('accepts 1 and 100', async () => {
    const one = await t.request('GET', `${toursPath()}?limit=1`, { token: ws.token });
    expect(one.body.data.map((tour: { id: string }) => tour.id)).toEqual(tourIds.slice(0, 1));
    const hundred = await t.request('GET', `${toursPath()}?limit=100`, { token: ws.token });
    expect(hundred.body.data).toHaveLength(TOURS);
    expect(hundred.body.pagination).toEqual({ hasMore: false, nextCursor: null });
  });

  it.each([
    ['0', 'out_of_range'],
    ['101', 'out_of_range'],
    ['-1', 'out_of_range'],
    ['1.5', 'not_integer'],
    ['abc', 'invalid_type'],
    ['', 'invalid_type'],
    ['1e1', 'invalid_type'],
    ['99999999999999999999999', 'out_of_range'],
  ])('limit=%s is 400 on field limit (%s)', async (limit, issue) => {
    const res = await t.request('GET', `${toursPath()}?limit=${limit}`, { token: ws.token });
    expectError(res, 400, 'VALIDATION_ERROR', [detail('limit', issue)]);
  });

  it('a repeated limit is 400 on field limit, not a guess', async () => {
    const res = await t.request('GET', `${toursPath()}?limit=2&limit=3`, { token: ws.token });
    expectError(res, 400, 'VALIDATION_ERROR', [detail('limit', 'invalid_type')]);
  });

  it('is checked on every list', async () => {
    for (const path of [
      `/workspaces/${ws.workspaceId}/customers`,
      `/workspaces/${ws.workspaceId}/availability`,
    ]) {
      const res = await t.request('GET', `${path}?limit=101`, { token: ws.token });
      expectError(res, 400, 'VALIDATION_ERROR', [detail('limit', 'out_of_range')]);
    }
  });
});

describe('following nextCursor', () => {
  it.each([1, 7, 20, 25, 59, 60, 100])(
    'limit %i walks all 60 tours newest first, no duplicates, no gaps, ending with hasMore false',
    async (limit) => {
      const { items, pages } = await collectPages(t, toursPath(), ws.token, limit);
      expect(items.map((tour) => tour.id)).toEqual(tourIds);
      expect(pages).toHaveLength(Math.ceil(TOURS / limit));
      for (const page of pages.slice(0, -1)) {
        expect(page).toEqual({ count: limit, hasMore: true, nextCursor: expect.any(String) });
      }
      expect(pages.at(-1)).toMatchObject({ hasMore: false, nextCursor: null });
      expect(pages.at(-1)?.count).toBeGreaterThan(0);
    },
  );

  it('keeps its place when items are added ahead of it', async () => {
    const own = await t.createWorkspace('ADMIN');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await createTour(t, own, { name: `Stable ${i}` })).id);
    const first = await t.request('GET', `${toursPath(own)}?limit=2`, { token: own.token });
    await createTour(t, own, { name: 'Newcomer' });
    const cursor = encodeURIComponent(first.body.pagination.nextCursor);
    const second = await t.request('GET', `${toursPath(own)}?limit=10&cursor=${cursor}`, {
      token: own.token,
    });
    expect(second.body.data.map((tour: { id: string }) => tour.id)).toEqual([ids[2], ids[1], ids[0]]);
  });

  it('customers created in the same millisecond page completely (ties broken by id)', async () => {
    const own = await t.createWorkspace('OPERATIONS');
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) ids.push((await createCustomer(t, own, { name: `Twin ${i}` })).id);
    await t.api.database
      .knex('customers')
      .where({ workspace_id: own.workspaceId })
      .update({ created_at: '2030-01-01T00:00:00.000Z' });
    const { items } = await collectPages(t, `/workspaces/${own.workspaceId}/customers`, own.token, 4);
    const seen = items.map((customer) => customer.id);
    expect(seen).toHaveLength(30);
    expect(new Set(seen).size).toBe(30);
    expect([...seen].sort()).toEqual([...ids].sort());
  });

  it('departures starting at the same instant page completely, in startsAt then id order', async () => {
    const own = await t.createWorkspace('ADMIN');
    const tour = await createTour(t, own);
    const startsAt = '2031-03-01T09:00:00.000Z';
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push((await createDeparture(t, own, tour.id, { startsAt })).id);
    const early = await createDeparture(t, own, tour.id, { startsAt: '2031-02-28T09:00:00.000Z' });
    const late = await createDeparture(t, own, tour.id, { startsAt: '2031-03-02T09:00:00.000Z' });
    const { items } = await collectPages(t, `/workspaces/${own.workspaceId}/availability`, own.token, 5);
    const seen = items.map((departure) => departure.id);
    expect(seen).toHaveLength(14);
    expect(seen[0]).toBe(early.id);
    expect(seen.at(-1)).toBe(late.id);
    expect(new Set(seen).size).toBe(14);
    expect(seen.slice(1, -1).sort()).toEqual([...ids].sort());
  });

  it('a filtered departure list pages within its filter', async () => {
    const own = await t.createWorkspace('ADMIN');
    const a = await createTour(t, own, { name: 'A' });
    const b = await createTour(t, own, { name: 'B' });
    const wanted: string[] = [];
    for (let day = 1; day <= 9; day++) {
      const startsAt = `2031-04-0${day}T10:00:00.000Z`;
      wanted.push((await createDeparture(t, own, a.id, { startsAt })).id);
      await createDeparture(t, own, b.id, { startsAt });
    }
    const path = `/workspaces/${own.workspaceId}/availability?tourId=${a.id}&from=2031-04-02&to=2031-04-08`;
    const { items } = await collectPages(t, path, own.token, 2);
    expect(items.map((departure) => departure.id)).toEqual(wanted.slice(1, 8));
  });
});

describe('cursor', () => {
  const expectInvalidCursor = async (path: string, cursor: string, token = ws.token) => {
    const res = await t.request(
      'GET',
      `${path}${path.includes('?') ? '&' : '?'}cursor=${encodeURIComponent(cursor)}`,
      {
        token,
      },
    );
    expectError(res, 400, 'VALIDATION_ERROR', [detail('cursor', 'invalid_cursor')]);
  };

  it('a cursor with one character changed is 400 invalid_cursor', async () => {
    const cursor = await firstCursor();
    for (const index of [0, Math.floor(cursor.length / 2), cursor.length - 1]) {
      const char = cursor[index] === 'A' ? 'B' : 'A';
      await expectInvalidCursor(toursPath(), `${cursor.slice(0, index)}${char}${cursor.slice(index + 1)}`);
    }
  });

  it('a cursor whose position was rewritten but kept its signature is 400 invalid_cursor', async () => {
    const cursor = await firstCursor();
    const [payload, signature] = cursor.split('.');
    const decoded = JSON.parse(Buffer.from(payload as string, 'base64url').toString('utf8'));
    decoded.v = '2000-01-01T00:00:00.000Z';
    const forged = `${Buffer.from(JSON.stringify(decoded)).toString('base64url')}.${signature}`;
    await expectInvalidCursor(toursPath(), forged);
  });

  it.each([
    'garbage',
    'a.b',
    'a.b.c',
    '.',
    '',
    '{"v":"2030-01-01T00:00:00.000Z","i":"tour_x"}',
    Buffer.from('{"s":"listTours","v":1,"i":"x"}').toString('base64url'),
  ])('a made-up cursor %j is 400 invalid_cursor', async (cursor) => {
    await expectInvalidCursor(toursPath(), cursor);
  });

  it('a cursor longer than 1000 characters is 400 on field cursor', async () => {
    const res = await t.request('GET', `${toursPath()}?cursor=${'a'.repeat(1001)}`, { token: ws.token });
    expectError(res, 400, 'VALIDATION_ERROR', [detail('cursor', 'too_long')]);
  });

  it('a tours cursor used on customers (and on availability) is 400 invalid_cursor', async () => {
    const cursor = await firstCursor();
    await expectInvalidCursor(`/workspaces/${ws.workspaceId}/customers`, cursor);
    await expectInvalidCursor(`/workspaces/${ws.workspaceId}/availability`, cursor);
  });

  it("a cursor of another workspace's tours is 400 invalid_cursor", async () => {
    const own = await t.createWorkspace('ADMIN');
    for (let i = 0; i < 3; i++) await createTour(t, own, { name: `Other ${i}` });
    const theirs = await firstCursor(own);
    await expectInvalidCursor(toursPath(), theirs);
    // ... and the same cursor still works where it came from.
    const res = await t.request('GET', `${toursPath(own)}?cursor=${encodeURIComponent(theirs)}`, {
      token: own.token,
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(1);
  });

  it('a cursor stays valid for another token of the same workspace', async () => {
    const cursor = await firstCursor();
    const reader = await t.createToken(ws.workspaceId, 'READ_ONLY');
    const res = await t.request('GET', `${toursPath()}?limit=2&cursor=${encodeURIComponent(cursor)}`, {
      token: reader.token,
    });
    expect(res.body.data.map((tour: { id: string }) => tour.id)).toEqual(tourIds.slice(2, 4));
  });
});

describe('query parameters', () => {
  it('unknown query parameters are ignored', async () => {
    const res = await t.request('GET', `${toursPath()}?limit=3&sort=-name&foo=bar&q=ignored`, {
      token: ws.token,
    });
    expect(res.status).toBe(200);
    expect(res.body.data.map((tour: { id: string }) => tour.id)).toEqual(tourIds.slice(0, 3));
  });
});
