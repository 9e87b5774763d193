import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCustomer,
  customerInput,
  detail,
  expectError,
  ISO_MS,
  newestFirst,
  type TestWorkspace,
  UNKNOWN_IDS,
} from '../support/fixtures.js';
import { startTestApi, type TestApi } from '../support/harness.js';

let t: TestApi;
let ws: TestWorkspace;
beforeAll(async () => {
  t = await startTestApi();
  ws = await t.createWorkspace('OPERATIONS');
});
afterAll(() => t.close());

const customersPath = (workspace: TestWorkspace = ws) => `/workspaces/${workspace.workspaceId}/customers`;

describe('createCustomer', () => {
  it('creates a customer with the full shape: no phone, no company, no tags, no consent, no history', async () => {
    const res = await t.request('POST', customersPath(), {
      token: ws.token,
      body: { name: 'Ada Lovelace', email: 'ada@example.com' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      data: {
        id: expect.stringMatching(/^cus_[0-9A-Za-z]{22}$/),
        name: 'Ada Lovelace',
        email: 'ada@example.com',
        phone: null,
        companyId: null,
        tags: [],
        marketingConsent: false,
        totalBookings: 0,
        lifetimeValue: 0,
        createdAt: expect.stringMatching(ISO_MS),
        updatedAt: expect.stringMatching(ISO_MS),
      },
    });
  });

  it('keeps phone, tags (without duplicates, in order) and marketingConsent', async () => {
    const res = await t.request('POST', customersPath(), {
      token: ws.token,
      body: customerInput({
        phone: '+44 20 7946 0958',
        tags: ['vip', 'family', 'vip'],
        marketingConsent: true,
      }),
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      phone: '+44 20 7946 0958',
      tags: ['vip', 'family'],
      marketingConsent: true,
    });
  });

  it('an e-mail already used in the workspace, in any letter case, is 409 CONFLICT on field email', async () => {
    const own = await t.createWorkspace('OPERATIONS');
    await createCustomer(t, own, { name: 'First', email: 'Grace.Hopper@Navy.mil' });
    for (const email of ['grace.hopper@navy.mil', 'GRACE.HOPPER@NAVY.MIL', 'Grace.Hopper@Navy.mil']) {
      const res = await t.request('POST', customersPath(own), {
        token: own.token,
        body: { name: 'Second', email },
      });
      expectError(res, 409, 'CONFLICT', [detail('email', 'already_exists')]);
    }
    const list = await t.request('GET', customersPath(own), { token: own.token });
    expect(list.body.data.map((c: { name: string }) => c.name)).toEqual(['First']);
  });

  it('the same e-mail may be a customer in two workspaces', async () => {
    const a = await t.createWorkspace('OPERATIONS');
    const b = await t.createWorkspace('OPERATIONS');
    expect((await createCustomer(t, a, { email: 'shared@example.com' })).email).toBe('shared@example.com');
    expect((await createCustomer(t, b, { email: 'shared@example.com' })).email).toBe('shared@example.com');
  });

  it('names every missing required field', async () => {
    const res = await t.request('POST', customersPath(), { token: ws.token, body: {} });
    expectError(res, 400, 'VALIDATION_ERROR', [detail('name', 'required'), detail('email', 'required')]);
  });

  it.each([
    ['email', 'not-an-email', 'invalid_email'],
    ['email', 'a@b', 'invalid_email'],
    ['email', `${'a'.repeat(250)}@example.com`, 'too_long'],
    ['phone', 'call me', 'invalid_phone'],
    ['name', '   ', 'blank'],
    ['name', 'x'.repeat(201), 'too_long'],
    ['tags', 'vip', 'invalid_type'],
    ['tags', ['ok', 7], 'invalid_type'],
    ['marketingConsent', 'true', 'invalid_type'],
    ['companyId', 'cmp_1', 'unknown_field'],
  ])('rejects %s = %j with issue %s', async (field, value, issue) => {
    const res = await t.request('POST', customersPath(), {
      token: ws.token,
      body: customerInput({ [field]: value }),
    });
    expectError(res, 400, 'VALIDATION_ERROR');
    expect(res.body.error.details).toContainEqual(
      detail(field === 'tags' && Array.isArray(value) ? 'tags[1]' : field, issue),
    );
  });

  it('an empty tag and more than 50 tags are refused', async () => {
    const empty = await t.request('POST', customersPath(), {
      token: ws.token,
      body: customerInput({ tags: [''] }),
    });
    expectError(empty, 400, 'VALIDATION_ERROR', [detail('tags[0]', 'too_short')]);
    const many = await t.request('POST', customersPath(), {
      token: ws.token,
      body: customerInput({ tags: Array.from({ length: 51 }, (_, i) => `tag${i}`) }),
    });
    expectError(many, 400, 'VALIDATION_ERROR', [detail('tags', 'too_long')]);
  });
});

describe('getCustomer', () => {
  it('reads a customer back exactly as created', async () => {
    const customer = await createCustomer(t, ws, { phone: '555 0100', tags: ['repeat'] });
    const res = await t.request('GET', `${customersPath()}/${customer.id}`, { token: ws.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: customer });
  });

  it('answers 404 NOT_FOUND for an unknown id', async () => {
    const res = await t.request('GET', `${customersPath()}/${UNKNOWN_IDS.customer}`, { token: ws.token });
    expectError(res, 404, 'NOT_FOUND');
  });
});

describe('listCustomers', () => {
  let own: TestWorkspace;
  const ids: Record<string, string> = {};
  const created: Record<string, any> = {};
  beforeAll(async () => {
    own = await t.createWorkspace('OPERATIONS');
    const people = {
      grace: { name: 'Grace Hopper', email: 'grace@navy.example', phone: '+1 (555) 010-2000' },
      alan: { name: 'Alan Turing', email: 'alan@bletchley.example' },
      percent: { name: '100% Adventure Ltd', email: 'sales@hundred.example' },
      underscore: { name: 'Under_Score', email: 'u@score.example' },
      backslash: { name: 'Back\\Slash', email: 'b@slash.example', phone: '0044 555 123' },
    };
    for (const [key, body] of Object.entries(people)) {
      created[key] = await createCustomer(t, own, body);
      ids[key] = created[key].id;
    }
  });

  const search = async (q: string) => {
    const res = await t.request('GET', `${customersPath(own)}?q=${encodeURIComponent(q)}`, {
      token: own.token,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data.map((c: { id: string }) => c.id);
  };
  /** The ids of these customers in the list order (newest first). */
  const idsOf = (...keys: string[]) => newestFirst(keys.map((key) => created[key])).map((c) => c.id);

  it('lists every customer newest first without q', async () => {
    const res = await t.request('GET', customersPath(own), { token: own.token });
    expect(res.body.data.map((c: { id: string }) => c.id)).toEqual(
      idsOf('backslash', 'underscore', 'percent', 'alan', 'grace'),
    );
    expect(res.body.pagination).toEqual({ hasMore: false, nextCursor: null });
  });

  it('q matches a case-insensitive substring of the name', async () => {
    expect(await search('grace')).toEqual(idsOf('grace'));
    expect(await search('TURING')).toEqual(idsOf('alan'));
    expect(await search('ce hop')).toEqual(idsOf('grace'));
  });

  it('q matches a substring of the e-mail', async () => {
    expect(await search('BLETCHLEY.EX')).toEqual(idsOf('alan'));
    expect(await search('@navy')).toEqual(idsOf('grace'));
  });

  it('q matches a substring of the phone', async () => {
    expect(await search('(555) 010')).toEqual(idsOf('grace'));
    expect(await search('555')).toEqual(idsOf('backslash', 'grace'));
  });

  it('q takes %, _ and \\ literally, not as patterns', async () => {
    expect(await search('%')).toEqual(idsOf('percent'));
    expect(await search('_')).toEqual(idsOf('underscore'));
    expect(await search('\\')).toEqual(idsOf('backslash'));
    expect(await search('100%')).toEqual(idsOf('percent'));
    expect(await search('a%e')).toEqual([]);
  });

  it('q that matches nothing lists nothing', async () => {
    const res = await t.request('GET', `${customersPath(own)}?q=nobody-here`, { token: own.token });
    expect(res.body).toEqual({ data: [], pagination: { hasMore: false, nextCursor: null } });
  });

  it('q matching several customers keeps newest first and pages with its cursor', async () => {
    // "a" is in every name or e-mail here.
    const all = idsOf('grace', 'alan', 'percent', 'underscore', 'backslash');
    const first = await t.request('GET', `${customersPath(own)}?q=a&limit=3`, { token: own.token });
    expect(first.body.data.map((c: { id: string }) => c.id)).toEqual(all.slice(0, 3));
    const cursor = encodeURIComponent(first.body.pagination.nextCursor);
    const second = await t.request('GET', `${customersPath(own)}?q=a&limit=3&cursor=${cursor}`, {
      token: own.token,
    });
    expect(second.body.data.map((c: { id: string }) => c.id)).toEqual(all.slice(3));
    expect(second.body.pagination).toEqual({ hasMore: false, nextCursor: null });
  });

  it('a cursor taken with one q does not continue a list with another q', async () => {
    const first = await t.request('GET', `${customersPath(own)}?q=a&limit=1`, { token: own.token });
    const cursor = encodeURIComponent(first.body.pagination.nextCursor);
    const other = await t.request('GET', `${customersPath(own)}?q=e&limit=1&cursor=${cursor}`, {
      token: own.token,
    });
    expectError(other, 400, 'VALIDATION_ERROR', [detail('cursor', 'invalid_cursor')]);
  });

  it("q never finds another workspace's customers", async () => {
    const other = await t.createWorkspace('OPERATIONS');
    await createCustomer(t, other, { name: 'Grace Elsewhere', email: 'grace@elsewhere.example' });
    expect(await search('grace')).toEqual(idsOf('grace'));
  });

  it('q longer than 200 characters or containing NUL is 400 on field q', async () => {
    const long = await t.request('GET', `${customersPath(own)}?q=${'a'.repeat(201)}`, { token: own.token });
    expectError(long, 400, 'VALIDATION_ERROR', [detail('q', 'too_long')]);
    const nul = await t.request('GET', `${customersPath(own)}?q=a%00b`, { token: own.token });
    expectError(nul, 400, 'VALIDATION_ERROR', [detail('q', 'contains_nul')]);
  });
});
