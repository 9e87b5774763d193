import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { book } from '../support/booking-fixtures.js';
import {
  collectPages,
  createCustomer,
  createDeparture,
  createTour,
  detail,
  expectError,
  ISO_MS,
  type TestWorkspace,
} from '../support/fixtures.js';
import { startTestApi, type TestApi } from '../support/harness.js';

let t: TestApi;
let ws: TestWorkspace;
let other: TestWorkspace;
let readOnly: string;
beforeAll(async () => {
  t = await startTestApi();
  ws = await t.createWorkspace('OPERATIONS');
  other = await t.createWorkspace('ADMIN');
  readOnly = (await t.createToken(ws.workspaceId, 'READ_ONLY')).token;
});
afterAll(() => t.close());

const path = (suffix: string, workspace: TestWorkspace = ws) =>
  `/workspaces/${workspace.workspaceId}${suffix}`;
const post = (suffix: string, body: unknown, workspace = ws) =>
  t.request('POST', path(suffix, workspace), { token: workspace.token, body });
const patch = (suffix: string, body: unknown, workspace = ws) =>
  t.request('PATCH', path(suffix, workspace), { token: workspace.token, body });
const get = (suffix: string, workspace = ws) =>
  t.request('GET', path(suffix, workspace), { token: workspace.token });
const del = (suffix: string, workspace = ws) =>
  t.request('DELETE', path(suffix, workspace), { token: workspace.token });

async function created(suffix: string, body: unknown, workspace = ws) {
  const res = await post(suffix, body, workspace);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

describe('companies', () => {
  it('creates a company with the full shape, reads, changes and deletes it', async () => {
    const res = await post('/companies', {
      name: 'Alpine Schools Ltd',
      domain: 'Alpine-Schools.example',
      phone: '+41 44 000 00 00',
      addressLine1: 'Bahnhofstrasse 1',
      city: 'Zurich',
      postalCode: '8001',
      country: 'CH',
      tags: ['school', 'school', 'b2b'],
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.stringMatching(/^cmp_[0-9A-Za-z]{22}$/),
      name: 'Alpine Schools Ltd',
      domain: 'alpine-schools.example',
      phone: '+41 44 000 00 00',
      addressLine1: 'Bahnhofstrasse 1',
      addressLine2: null,
      city: 'Zurich',
      region: null,
      postalCode: '8001',
      country: 'CH',
      tags: ['school', 'b2b'],
      notes: null,
      createdAt: expect.stringMatching(ISO_MS),
      updatedAt: expect.stringMatching(ISO_MS),
    });
    const company = res.body.data;
    expect((await get(`/companies/${company.id}`)).body.data).toEqual(company);
    const changed = await patch(`/companies/${company.id}`, { notes: 'Pays by invoice', city: null });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({
      notes: 'Pays by invoice',
      city: null,
      name: 'Alpine Schools Ltd',
    });
    expect((await del(`/companies/${company.id}`)).body).toEqual({ data: { id: company.id, deleted: true } });
    expectError(await get(`/companies/${company.id}`), 404, 'NOT_FOUND');
    expectError(await del(`/companies/${company.id}`), 404, 'NOT_FOUND');
  });

  it('a taken domain is 409 already_exists; bad input is 400 with every field', async () => {
    await created('/companies', { name: 'Dup', domain: 'dup.example' });
    expectError(await post('/companies', { name: 'Dup 2', domain: 'DUP.example' }), 409, 'CONFLICT', [
      detail('domain', 'already_exists'),
    ]);
    expectError(
      await post('/companies', { name: ' ', domain: 'no', country: 'che', extra: 1 }),
      400,
      'VALIDATION_ERROR',
      [
        detail('name', 'blank'),
        detail('domain', 'invalid_domain'),
        detail('country', 'invalid_country'),
        detail('extra', 'unknown_field'),
      ],
    );
  });

  it('lists newest first with q, across pages; READ_ONLY reads but cannot write', async () => {
    const workspace = await t.createWorkspace('OPERATIONS');
    for (let i = 0; i < 5; i++) await created('/companies', { name: `Agency ${i}` }, workspace);
    await created('/companies', { name: 'Other', domain: 'agency-net.example' }, workspace);
    const { items, pages } = await collectPages(t, path('/companies', workspace), workspace.token, 2);
    expect(items).toHaveLength(6);
    expect(pages.map((p) => p.count)).toEqual([2, 2, 2]);
    expect(items.map((c) => c.name)).toEqual([
      'Other',
      'Agency 4',
      'Agency 3',
      'Agency 2',
      'Agency 1',
      'Agency 0',
    ]);
    const q = await t.request('GET', `${path('/companies', workspace)}?q=AGENCY-net`, {
      token: workspace.token,
    });
    expect(q.body.data.map((c: any) => c.name)).toEqual(['Other']);
    expect((await t.request('GET', path('/companies'), { token: readOnly })).status).toBe(200);
    expectError(
      await t.request('POST', path('/companies'), { token: readOnly, body: { name: 'X' } }),
      403,
      'FORBIDDEN',
    );
  });

  it("another workspace's company is 404, and stays unchanged", async () => {
    const foreign = await created('/companies', { name: 'Foreign Co' }, other);
    expectError(await get(`/companies/${foreign.id}`), 404, 'NOT_FOUND');
    expectError(await patch(`/companies/${foreign.id}`, { name: 'Hijacked' }), 404, 'NOT_FOUND');
    expectError(await del(`/companies/${foreign.id}`), 404, 'NOT_FOUND');
    expect((await get(`/companies/${foreign.id}`, other)).body.data.name).toBe('Foreign Co');
  });
});

describe('updateCustomer', () => {
  it('sets name, phone, tags, consent and companyId; null detaches; deleting the company detaches too', async () => {
    const customer = await createCustomer(t, ws);
    const company = await created('/companies', { name: 'Customer Co' });
    const res = await patch(`/customers/${customer.id}`, {
      name: 'Renamed',
      phone: '+1 555 0100',
      tags: ['vip', 'vip'],
      marketingConsent: true,
      companyId: company.id,
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      id: customer.id,
      email: customer.email,
      name: 'Renamed',
      phone: '+1 555 0100',
      tags: ['vip'],
      marketingConsent: true,
      companyId: company.id,
    });
    expect((await patch(`/customers/${customer.id}`, { companyId: null })).body.data.companyId).toBeNull();
    await patch(`/customers/${customer.id}`, { companyId: company.id });
    await del(`/companies/${company.id}`);
    expect((await get(`/customers/${customer.id}`)).body.data.companyId).toBeNull();
  });

  it('a company of another workspace is 422 on companyId; the e-mail cannot change; foreign customers are 404', async () => {
    const customer = await createCustomer(t, ws);
    const foreign = await created('/companies', { name: 'Elsewhere' }, other);
    expectError(await patch(`/customers/${customer.id}`, { companyId: foreign.id }), 422, 'UNPROCESSABLE', [
      detail('companyId', 'not_found'),
    ]);
    expectError(
      await patch(`/customers/${customer.id}`, { email: 'new@x.example' }),
      400,
      'VALIDATION_ERROR',
      [detail('email', 'unknown_field')],
    );
    const foreignCustomer = await createCustomer(t, other);
    expectError(await patch(`/customers/${foreignCustomer.id}`, { name: 'X' }), 404, 'NOT_FOUND');
    expectError(
      await t.request('PATCH', path(`/customers/${customer.id}`), { token: readOnly, body: { name: 'X' } }),
      403,
      'FORBIDDEN',
    );
  });
});

describe('leads', () => {
  it('creates a lead with defaults and the full shape', async () => {
    const res = await post('/leads', { name: 'Grace Hopper', email: 'grace@navy.example' });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.stringMatching(/^lead_[0-9A-Za-z]{22}$/),
      name: 'Grace Hopper',
      email: 'grace@navy.example',
      phone: null,
      companyId: null,
      source: 'OTHER',
      status: 'NEW',
      estimatedValue: null,
      currency: null,
      notes: null,
      ownerId: null,
      convertedCustomerId: null,
      convertedAt: null,
      createdAt: expect.stringMatching(ISO_MS),
      updatedAt: expect.stringMatching(ISO_MS),
    });
  });

  it('validates: value needs currency (400), references must exist here (422), CONVERTED cannot be set', async () => {
    expectError(await post('/leads', { name: 'V', estimatedValue: 5000 }), 400, 'VALIDATION_ERROR', [
      detail('currency', 'required'),
    ]);
    expectError(
      await post('/leads', { name: 'V', status: 'CONVERTED', source: 'FAX' }),
      400,
      'VALIDATION_ERROR',
      [detail('source', 'invalid_enum'), detail('status', 'invalid_enum')],
    );
    const foreign = await created('/companies', { name: 'Foreign' }, other);
    expectError(await post('/leads', { name: 'V', companyId: foreign.id }), 422, 'UNPROCESSABLE', [
      detail('companyId', 'not_found'),
    ]);
    expectError(await post('/leads', { name: 'V', ownerId: 'mem_nobody' }), 422, 'UNPROCESSABLE', [
      detail('ownerId', 'not_found'),
    ]);
  });

  it('moves through the pipeline; invalid moves are 422 on status', async () => {
    const lead = await created('/leads', { name: 'Pipeline', estimatedValue: 120000, currency: 'EUR' });
    expect((await patch(`/leads/${lead.id}`, { status: 'CONTACTED' })).body.data.status).toBe('CONTACTED');
    expectError(await patch(`/leads/${lead.id}`, { status: 'NEW' }), 422, 'UNPROCESSABLE', [
      detail('status', 'invalid_transition'),
    ]);
    expectError(await patch(`/leads/${lead.id}`, { status: 'CONVERTED' }), 422, 'UNPROCESSABLE', [
      detail('status', 'use_convert'),
    ]);
    expectError(await patch(`/leads/${lead.id}`, { currency: null }), 400, 'VALIDATION_ERROR', [
      detail('currency', 'required'),
    ]);
    const lost = await patch(`/leads/${lead.id}`, { status: 'LOST', notes: 'Went elsewhere' });
    expect(lost.body.data).toMatchObject({ status: 'LOST', notes: 'Went elsewhere', estimatedValue: 120000 });
    expect((await patch(`/leads/${lead.id}`, { status: 'NEW' })).body.data.status).toBe('NEW');
  });

  it('converts into a new customer, once; the company carries over', async () => {
    const company = await created('/companies', { name: 'Lead Co' });
    const lead = await created('/leads', {
      name: 'Alan Turing',
      email: 'alan@bletchley.example',
      phone: '+44 1908 640404',
      companyId: company.id,
    });
    const res = await post(`/leads/${lead.id}/convert`, { tags: ['from-lead'], marketingConsent: true });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { data } = res.body;
    expect(data.customerCreated).toBe(true);
    expect(data.customer).toMatchObject({
      id: expect.stringMatching(/^cus_/),
      name: 'Alan Turing',
      email: 'alan@bletchley.example',
      phone: '+44 1908 640404',
      companyId: company.id,
      tags: ['from-lead'],
      marketingConsent: true,
    });
    expect(data.lead).toMatchObject({
      status: 'CONVERTED',
      convertedCustomerId: data.customer.id,
      convertedAt: expect.stringMatching(ISO_MS),
    });
    expectError(await post(`/leads/${lead.id}/convert`, {}), 422, 'UNPROCESSABLE', [
      detail('status', 'already_converted'),
    ]);
    expectError(await patch(`/leads/${lead.id}`, { status: 'LOST' }), 422, 'UNPROCESSABLE', [
      detail('status', 'invalid_transition'),
    ]);
  });

  it('converting links the existing customer with that e-mail (any case) instead of a duplicate', async () => {
    const customer = await createCustomer(t, ws, { email: 'existing.lead@x.example', name: 'Kept Name' });
    const lead = await created('/leads', { name: 'Other Name', email: 'Existing.Lead@X.example' });
    const res = await post(`/leads/${lead.id}/convert`, undefined);
    expect(res.status).toBe(200);
    expect(res.body.data.customerCreated).toBe(false);
    expect(res.body.data.customer).toMatchObject({ id: customer.id, name: 'Kept Name' });
    expect(res.body.data.lead.convertedCustomerId).toBe(customer.id);
  });

  it('a lead without e-mail, or LOST, cannot be converted', async () => {
    const noEmail = await created('/leads', { name: 'Phone only', phone: '+1 555 0199' });
    expectError(await post(`/leads/${noEmail.id}/convert`, {}), 422, 'UNPROCESSABLE', [
      detail('email', 'required'),
    ]);
    const lost = await created('/leads', { name: 'Lost', email: 'lost@x.example', status: 'LOST' });
    expectError(await post(`/leads/${lost.id}/convert`, {}), 422, 'UNPROCESSABLE', [
      detail('status', 'invalid_transition'),
    ]);
  });

  it('filters by status and q, pages, and hides other workspaces', async () => {
    const workspace = await t.createWorkspace('ADMIN');
    for (let i = 0; i < 3; i++)
      await created('/leads', { name: `Qualified ${i}`, status: 'QUALIFIED' }, workspace);
    await created('/leads', { name: 'Fresh', email: 'fresh@find.example' }, workspace);
    const base = path('/leads', workspace);
    const qualified = await collectPages(t, `${base}?status=QUALIFIED`, workspace.token, 2);
    expect(qualified.items.map((l) => l.name)).toEqual(['Qualified 2', 'Qualified 1', 'Qualified 0']);
    const q = await t.request('GET', `${base}?q=FIND.example`, { token: workspace.token });
    expect(q.body.data.map((l: any) => l.name)).toEqual(['Fresh']);
    expectError(
      await t.request('GET', `${base}?status=WON`, { token: workspace.token }),
      400,
      'VALIDATION_ERROR',
      [detail('status', 'invalid_enum')],
    );
    // A cursor continues the list it came from, not another filter's.
    const first = await t.request('GET', `${base}?status=QUALIFIED&limit=1`, { token: workspace.token });
    const cursor = encodeURIComponent(first.body.pagination.nextCursor);
    expectError(
      await t.request('GET', `${base}?limit=1&cursor=${cursor}`, { token: workspace.token }),
      400,
      'VALIDATION_ERROR',
    );
    const foreign = await created('/leads', { name: 'Foreign lead' }, other);
    expectError(await get(`/leads/${foreign.id}`), 404, 'NOT_FOUND');
    expectError(await post(`/leads/${foreign.id}/convert`, {}), 404, 'NOT_FOUND');
    expectError(
      await t.request('POST', path('/leads'), { token: readOnly, body: { name: 'X' } }),
      403,
      'FORBIDDEN',
    );
  });

  it('deleting a lead keeps its tasks, unlinked', async () => {
    const lead = await created('/leads', { name: 'To delete' });
    const task = await created('/crm-tasks', { title: 'Follow up', leadId: lead.id });
    expect((await del(`/leads/${lead.id}`)).status).toBe(200);
    expect((await get(`/crm-tasks/${task.id}`)).body.data.leadId).toBeNull();
  });
});

describe('CRM tasks', () => {
  it('creates a task linked to a customer, lead, booking and company; completes and reopens it', async () => {
    // ADMIN: the booking needs a tour of its own.
    const w = await t.createWorkspace('ADMIN');
    const customer = await createCustomer(t, w);
    const lead = await created('/leads', { name: 'Task lead' }, w);
    const company = await created('/companies', { name: 'Task Co' }, w);
    const tour = await createTour(t, w);
    const departure = await createDeparture(t, w, tour.id);
    const booking = await book(t, w, departure.id, { paymentMode: 'MANUAL' });
    const res = await post(
      '/crm-tasks',
      {
        title: 'Send the group invoice',
        description: 'Net 30',
        dueAt: '2030-05-01T09:00:00+02:00',
        priority: 'HIGH',
        customerId: customer.id,
        leadId: lead.id,
        bookingId: booking.id,
        companyId: company.id,
      },
      w,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.stringMatching(/^task_[0-9A-Za-z]{22}$/),
      title: 'Send the group invoice',
      description: 'Net 30',
      dueAt: '2030-05-01T07:00:00.000Z',
      status: 'OPEN',
      priority: 'HIGH',
      assigneeId: null,
      customerId: customer.id,
      leadId: lead.id,
      bookingId: booking.id,
      companyId: company.id,
      completedAt: null,
      createdAt: expect.stringMatching(ISO_MS),
      updatedAt: expect.stringMatching(ISO_MS),
    });
    const id = res.body.data.id;
    const done = await patch(`/crm-tasks/${id}`, { status: 'DONE' }, w);
    expect(done.body.data).toMatchObject({ status: 'DONE', completedAt: expect.stringMatching(ISO_MS) });
    const reopened = await patch(`/crm-tasks/${id}`, { status: 'OPEN', bookingId: null, dueAt: null }, w);
    expect(reopened.body.data).toMatchObject({
      status: 'OPEN',
      completedAt: null,
      bookingId: null,
      dueAt: null,
    });
    expect((await del(`/crm-tasks/${id}`, w)).body.data).toEqual({ id, deleted: true });
    expectError(await get(`/crm-tasks/${id}`, w), 404, 'NOT_FOUND');
  });

  it.each(['customerId', 'leadId', 'bookingId', 'companyId', 'assigneeId'])(
    'a %s of another workspace (or none) is 422 on that field',
    async (field) => {
      const foreign: Record<string, () => Promise<string>> = {
        customerId: async () => (await createCustomer(t, other)).id,
        leadId: async () => (await created('/leads', { name: 'F' }, other)).id,
        bookingId: async () => 'bkg_0000000000000000000000',
        companyId: async () => (await created('/companies', { name: 'F' }, other)).id,
        assigneeId: async () => 'mem_0000000000000000000000',
      };
      const id = await (foreign[field] as () => Promise<string>)();
      expectError(await post('/crm-tasks', { title: 'Bad link', [field]: id }), 422, 'UNPROCESSABLE', [
        detail(field, 'not_found'),
      ]);
      const task = await created('/crm-tasks', { title: 'Good' });
      expectError(await patch(`/crm-tasks/${task.id}`, { [field]: id }), 422, 'UNPROCESSABLE', [
        detail(field, 'not_found'),
      ]);
    },
  );

  it('validates input strictly', async () => {
    expectError(
      await post('/crm-tasks', {
        title: '',
        dueAt: 'tomorrow',
        status: 'WAITING',
        priority: 'URGENT',
        owner: 'x',
      }),
      400,
      'VALIDATION_ERROR',
      [
        detail('title', 'too_short'),
        detail('title', 'blank'),
        detail('dueAt', 'invalid_date_time'),
        detail('status', 'invalid_enum'),
        detail('priority', 'invalid_enum'),
        detail('owner', 'unknown_field'),
      ],
    );
  });

  it('filters by status, customer and due dates (inclusive), and pages', async () => {
    const workspace = await t.createWorkspace('OPERATIONS');
    const customer = await createCustomer(t, workspace);
    const make = (body: Record<string, unknown>) => created('/crm-tasks', { title: 'T', ...body }, workspace);
    const a = await make({ dueAt: '2030-06-01T00:00:00Z', customerId: customer.id });
    const b = await make({ dueAt: '2030-06-02T23:59:59.999Z', status: 'DONE' });
    const c = await make({ dueAt: '2030-06-03T00:00:00Z' });
    const d = await make({});
    const base = path('/crm-tasks', workspace);
    const ids = async (query: string) =>
      (await collectPages(t, `${base}?${query}`, workspace.token, 1)).items.map((task) => task.id);
    expect(await ids('from=2030-06-01&to=2030-06-02')).toEqual([b.id, a.id]);
    expect(await ids('from=2030-06-02')).toEqual([c.id, b.id]);
    expect(await ids('status=DONE')).toEqual([b.id]);
    expect(await ids(`customerId=${customer.id}`)).toEqual([a.id]);
    expect(await ids('status=OPEN')).toEqual([d.id, c.id, a.id]);
    expectError(
      await t.request('GET', `${base}?from=2030-02-30`, { token: workspace.token }),
      400,
      'VALIDATION_ERROR',
      [detail('from', 'invalid_date')],
    );
  });

  it("another workspace's task is 404; READ_ONLY cannot write", async () => {
    const foreign = await created('/crm-tasks', { title: 'Foreign' }, other);
    expectError(await get(`/crm-tasks/${foreign.id}`), 404, 'NOT_FOUND');
    expectError(await patch(`/crm-tasks/${foreign.id}`, { title: 'X' }), 404, 'NOT_FOUND');
    expectError(await del(`/crm-tasks/${foreign.id}`), 404, 'NOT_FOUND');
    expectError(
      await t.request('POST', path('/crm-tasks'), { token: readOnly, body: { title: 'X' } }),
      403,
      'FORBIDDEN',
    );
  });
});
