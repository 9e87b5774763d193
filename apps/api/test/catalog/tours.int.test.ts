import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTour,
  detail,
  expectError,
  ISO_MS,
  newestFirst,
  type TestWorkspace,
  tourInput,
  UNKNOWN_IDS,
} from '../support/fixtures.js';
import { startTestApi, type TestApi } from '../support/harness.js';

let t: TestApi;
let ws: TestWorkspace;
beforeAll(async () => {
  t = await startTestApi();
  ws = await t.createWorkspace('ADMIN');
});
afterAll(() => t.close());

const tourBody = tourInput();
const toursPath = (workspace: TestWorkspace = ws) => `/workspaces/${workspace.workspaceId}/tours`;

describe('createTour', () => {
  it('creates a tour with the full shape and defaults, and reads it back', async () => {
    const created = await t.request('POST', toursPath(), { token: ws.token, body: tourBody });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      data: {
        ...tourBody,
        id: expect.stringMatching(/^tour_[0-9A-Za-z]{22}$/),
        slug: 'harbour-walk',
        description: '',
        meetingPoint: null,
        isPublic: false,
        depositPercent: 20,
        addOns: [],
        createdAt: expect.stringMatching(ISO_MS),
        updatedAt: expect.stringMatching(ISO_MS),
        timeZone: 'UTC',
        ticketTypes: [],
        cancellationPolicy: { cutoffHours: 24, refund: 'FULL', refundPercent: null },
        maxSeatsPerPublicBooking: 10,
        publicHoldMinutes: 15,
        reminderHoursBefore: 24,
        resourceRequirements: [],
      },
    });
    const read = await t.request('GET', `${toursPath()}/${created.body.data.id}`, { token: ws.token });
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ data: created.body.data });
  });

  it('keeps every optional field that is sent', async () => {
    const body = tourInput({
      name: 'Fjord Cruise',
      slug: 'fjord-cruise-2026',
      description: 'Three hours among the cliffs.',
      meetingPoint: 'Pier 4',
      isPublic: true,
      depositPercent: 35,
    });
    const created = await t.request('POST', toursPath(), { token: ws.token, body });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject(body);
  });

  it('derives the slug from the name: lower case, accents stripped, runs of other characters become one dash', async () => {
    const tour = await createTour(t, ws, { name: '  Île-de-France: Château & Café Tour!! ' });
    expect(tour.slug).toBe('ile-de-france-chateau-cafe-tour');
  });

  it('derives the slug "tour" from a name with no latin letters or digits', async () => {
    const other = await t.createWorkspace('ADMIN');
    const tour = await createTour(t, other, { name: '東京 ✈' });
    expect(tour.slug).toBe('tour');
  });

  it('a chosen slug that is taken answers 409 CONFLICT on field slug and creates nothing', async () => {
    const own = await t.createWorkspace('ADMIN');
    await createTour(t, own, { slug: 'sunset-sail' });
    const again = await t.request('POST', toursPath(own), {
      token: own.token,
      body: tourInput({ name: 'Another name', slug: 'sunset-sail' }),
    });
    expectError(again, 409, 'CONFLICT', [detail('slug', 'already_exists')]);
    const list = await t.request('GET', toursPath(own), { token: own.token });
    expect(list.body.data.map((tour: { name: string }) => tour.name)).toEqual(['Harbour Walk']);
  });

  it('a derived slug that is taken gets a short random suffix instead of a conflict', async () => {
    const own = await t.createWorkspace('ADMIN');
    const first = await createTour(t, own, { name: 'Old Town Walk' });
    const second = await createTour(t, own, { name: 'Old Town Walk' });
    expect(first.slug).toBe('old-town-walk');
    expect(second.slug).toMatch(/^old-town-walk-[a-z0-9]{6}$/);
    expect(second.id).not.toBe(first.id);
  });

  it('the same slug may be used in two workspaces', async () => {
    const a = await t.createWorkspace('ADMIN');
    const b = await t.createWorkspace('ADMIN');
    expect((await createTour(t, a, { slug: 'shared-slug' })).slug).toBe('shared-slug');
    expect((await createTour(t, b, { slug: 'shared-slug' })).slug).toBe('shared-slug');
  });

  it('names every missing required field', async () => {
    const res = await t.request('POST', toursPath(), { token: ws.token, body: {} });
    expectError(res, 400, 'VALIDATION_ERROR');
    expect(res.body.error.details).toEqual(
      expect.arrayContaining(
        ['name', 'durationMinutes', 'basePrice', 'currency', 'capacity'].map((field) =>
          detail(field, 'required'),
        ),
      ),
    );
    expect(res.body.error.details).toHaveLength(5);
  });

  it('an empty name is too_short', async () => {
    const res = await t.request('POST', toursPath(), { token: ws.token, body: tourInput({ name: '' }) });
    expectError(res, 400, 'VALIDATION_ERROR');
    expect(res.body.error.details).toContainEqual(detail('name', 'too_short'));
  });

  it.each([
    ['slug', 'Not A Slug', 'invalid_slug'],
    ['slug', 'trailing-', 'invalid_slug'],
    ['currency', 'eur', 'invalid_currency'],
    ['name', '   ', 'blank'],
    ['capacity', 0, 'out_of_range'],
    ['capacity', 2.5, 'not_integer'],
    ['basePrice', -1, 'out_of_range'],
    ['depositPercent', 101, 'out_of_range'],
    ['durationMinutes', '90', 'invalid_type'],
    ['isPublic', 'yes', 'invalid_type'],
  ])('rejects %s = %j with issue %s', async (field, value, issue) => {
    const res = await t.request('POST', toursPath(), {
      token: ws.token,
      body: tourInput({ [field]: value }),
    });
    expectError(res, 400, 'VALIDATION_ERROR', [detail(field, issue)]);
  });
});

describe('getTour', () => {
  it('answers 404 NOT_FOUND for an unknown id', async () => {
    const res = await t.request('GET', `${toursPath()}/${UNKNOWN_IDS.tour}`, { token: ws.token });
    expectError(res, 404, 'NOT_FOUND');
  });

  it('answers 404 for a path segment that cannot be an id', async () => {
    const res = await t.request('GET', `${toursPath()}/${'x'.repeat(300)}`, { token: ws.token });
    expectError(res, 404, 'NOT_FOUND');
  });
});

describe('updateTour', () => {
  it('changes only the fields sent; the slug is not re-derived from a new name', async () => {
    const tour = await createTour(t, ws, { name: 'Canal Ride', meetingPoint: 'Gate A', isPublic: true });
    const res = await t.request('PATCH', `${toursPath()}/${tour.id}`, {
      token: ws.token,
      body: { name: 'Canal Ride by Night', basePrice: 4200 },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      ...tour,
      name: 'Canal Ride by Night',
      basePrice: 4200,
      updatedAt: expect.stringMatching(ISO_MS),
    });
    expect(res.body.data.updatedAt >= tour.updatedAt).toBe(true);
    const read = await t.request('GET', `${toursPath()}/${tour.id}`, { token: ws.token });
    expect(read.body).toEqual(res.body);
  });

  it('clears meetingPoint with null and changes the slug when one is sent', async () => {
    const tour = await createTour(t, ws, { name: 'Bridge Climb', meetingPoint: 'North pylon' });
    const res = await t.request('PATCH', `${toursPath()}/${tour.id}`, {
      token: ws.token,
      body: { meetingPoint: null, slug: 'bridge-climb-at-dawn' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ meetingPoint: null, slug: 'bridge-climb-at-dawn' });
  });

  it('an empty patch answers the tour unchanged', async () => {
    const tour = await createTour(t, ws, { name: 'Quiet Patch' });
    const res = await t.request('PATCH', `${toursPath()}/${tour.id}`, { token: ws.token, body: {} });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(tour);
  });

  it('an unknown field is 400 unknown_field and changes nothing', async () => {
    const tour = await createTour(t, ws, { name: 'Strict Patch' });
    const res = await t.request('PATCH', `${toursPath()}/${tour.id}`, {
      token: ws.token,
      body: { name: 'Changed', colour: 'blue' },
    });
    expectError(res, 400, 'VALIDATION_ERROR', [detail('colour', 'unknown_field')]);
    const read = await t.request('GET', `${toursPath()}/${tour.id}`, { token: ws.token });
    expect(read.body.data.name).toBe('Strict Patch');
  });

  it('a read-only field (id, createdAt) in a patch is an unknown field', async () => {
    const tour = await createTour(t, ws, { name: 'Read Only Fields' });
    for (const body of [{ id: 'tour_x' }, { createdAt: '2020-01-01T00:00:00.000Z' }]) {
      const res = await t.request('PATCH', `${toursPath()}/${tour.id}`, { token: ws.token, body });
      expectError(res, 400, 'VALIDATION_ERROR', [detail(Object.keys(body)[0] as string, 'unknown_field')]);
    }
    const read = await t.request('GET', `${toursPath()}/${tour.id}`, { token: ws.token });
    expect(read.body.data).toEqual(tour);
  });

  it('answers 404 NOT_FOUND for an unknown id, with or without changes', async () => {
    const path = `${toursPath()}/${UNKNOWN_IDS.tour}`;
    expectError(await t.request('PATCH', path, { token: ws.token, body: { name: 'x' } }), 404, 'NOT_FOUND');
    expectError(await t.request('PATCH', path, { token: ws.token, body: {} }), 404, 'NOT_FOUND');
  });

  it("moving to another tour's slug is 409 CONFLICT on field slug", async () => {
    await createTour(t, ws, { slug: 'taken-by-first' });
    const second = await createTour(t, ws, { slug: 'second-tour' });
    const res = await t.request('PATCH', `${toursPath()}/${second.id}`, {
      token: ws.token,
      body: { slug: 'taken-by-first' },
    });
    expectError(res, 409, 'CONFLICT', [detail('slug', 'already_exists')]);
    const read = await t.request('GET', `${toursPath()}/${second.id}`, { token: ws.token });
    expect(read.body.data.slug).toBe('second-tour');
  });

  it('validates the patched values like a create', async () => {
    const tour = await createTour(t, ws, { name: 'Validated Patch' });
    const res = await t.request('PATCH', `${toursPath()}/${tour.id}`, {
      token: ws.token,
      body: { name: ' ', capacity: 0, currency: 'euro' },
    });
    expectError(res, 400, 'VALIDATION_ERROR');
    expect(res.body.error.details).toEqual(
      expect.arrayContaining([
        detail('name', 'blank'),
        detail('capacity', 'out_of_range'),
        detail('currency', 'invalid_currency'),
      ]),
    );
  });
});

describe('listTours', () => {
  it('lists the workspace tours newest first, with a final pagination object', async () => {
    const own = await t.createWorkspace('READ_ONLY');
    const admin = { ...own, ...(await t.createToken(own.workspaceId, 'ADMIN')) };
    const created = [];
    for (const name of ['First', 'Second', 'Third']) created.push(await createTour(t, admin, { name }));
    const res = await t.request('GET', toursPath(own), { token: own.token });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(newestFirst(created));
    expect(created.map((tour) => tour.createdAt)).toEqual([...created.map((tour) => tour.createdAt)].sort());
    expect(res.body.pagination).toEqual({ hasMore: false, nextCursor: null });
  });

  it('pages newest first with limit and cursor', async () => {
    const own = await t.createWorkspace('ADMIN');
    const created = [];
    for (const name of ['t1', 't2', 't3', 't4', 't5']) created.push(await createTour(t, own, { name }));
    const names = newestFirst(created).map((tour) => tour.name);
    const first = await t.request('GET', `${toursPath(own)}?limit=2`, { token: own.token });
    expect(first.body.data.map((tour: { name: string }) => tour.name)).toEqual(names.slice(0, 2));
    expect(first.body.pagination).toEqual({ hasMore: true, nextCursor: expect.any(String) });
    const cursor = encodeURIComponent(first.body.pagination.nextCursor);
    const second = await t.request('GET', `${toursPath(own)}?limit=2&cursor=${cursor}`, { token: own.token });
    expect(second.body.data.map((tour: { name: string }) => tour.name)).toEqual(names.slice(2, 4));
    const third = await t.request(
      'GET',
      `${toursPath(own)}?limit=2&cursor=${encodeURIComponent(second.body.pagination.nextCursor)}`,
      { token: own.token },
    );
    expect(third.body.data.map((tour: { name: string }) => tour.name)).toEqual(names.slice(4));
    expect(third.body.pagination).toEqual({ hasMore: false, nextCursor: null });
  });

  it('an empty workspace lists nothing', async () => {
    const own = await t.createWorkspace('ADMIN');
    const res = await t.request('GET', toursPath(own), { token: own.token });
    expect(res.body).toEqual({ data: [], pagination: { hasMore: false, nextCursor: null } });
  });

  it("never lists another workspace's tours", async () => {
    const a = await t.createWorkspace('ADMIN');
    const b = await t.createWorkspace('ADMIN');
    await createTour(t, a, { name: 'Only in A' });
    await createTour(t, b, { name: 'Only in B' });
    const res = await t.request('GET', toursPath(a), { token: a.token });
    expect(res.body.data.map((tour: { name: string }) => tour.name)).toEqual(['Only in A']);
  });
});
