import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createDeparture,
  createTour,
  expectError,
  fromNow,
  setDepartureColumns,
  type TestWorkspace,
} from '../support/fixtures.js';
import { startTestApi, type TestApi } from '../support/harness.js';

let t: TestApi;
let ws: TestWorkspace;
let other: TestWorkspace;
let published: any;
let unpublished: any;
let foreign: any;
beforeAll(async () => {
  t = await startTestApi();
  ws = await t.createWorkspace('ADMIN');
  other = await t.createWorkspace('ADMIN');
  published = await createTour(t, ws, { name: 'Glacier Hike', slug: 'glacier-hike', isPublic: true });
  unpublished = await createTour(t, ws, { name: 'Draft Tour', slug: 'draft-tour' });
  foreign = await createTour(t, other, { name: 'Foreign Tour', slug: 'foreign-tour', isPublic: true });
});
afterAll(() => t.close());

/** A tour as guests see it: everything but its capacity (seats left are the departures'). */
// Neither the capacity nor what the tour runs on (its resources) is a guest's to see.
const asPublic = ({ capacity: _capacity, resourceRequirements: _needs, ...tour }: any) => tour;

describe('listPublicTours', () => {
  it('lists only published tours, newest first, as {data} without pagination and without a credential', async () => {
    const later = await createTour(t, ws, { name: 'Night Sky', slug: 'night-sky', isPublic: true });
    const res = await t.request('GET', `/public/${ws.slug}/tours`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['data']);
    expect(res.body.data).toEqual([later, published].map(asPublic));
    expect(res.body.data.map((tour: { id: string }) => tour.id)).not.toContain(unpublished.id);
  });

  it('follows publishing: a tour made public appears, one made private disappears', async () => {
    const own = await t.createWorkspace('ADMIN');
    const tour = await createTour(t, own, { name: 'Toggle', isPublic: false });
    const ids = async () =>
      (await t.request('GET', `/public/${own.slug}/tours`)).body.data.map((x: { id: string }) => x.id);
    expect(await ids()).toEqual([]);
    const path = `/workspaces/${own.workspaceId}/tours/${tour.id}`;
    await t.request('PATCH', path, { token: own.token, body: { isPublic: true } });
    expect(await ids()).toEqual([tour.id]);
    await t.request('PATCH', path, { token: own.token, body: { isPublic: false } });
    expect(await ids()).toEqual([]);
  });

  it("never lists another workspace's tours", async () => {
    const res = await t.request('GET', `/public/${ws.slug}/tours`);
    expect(res.body.data.map((tour: { id: string }) => tour.id)).not.toContain(foreign.id);
    const theirs = await t.request('GET', `/public/${other.slug}/tours`);
    expect(theirs.body.data).toEqual([asPublic(foreign)]);
  });

  it('an unknown workspace slug is 404 NOT_FOUND', async () => {
    expectError(await t.request('GET', '/public/no-such-workspace/tours'), 404, 'NOT_FOUND');
  });

  it('a workspace id in place of the slug is 404', async () => {
    expectError(await t.request('GET', `/public/${ws.workspaceId}/tours`), 404, 'NOT_FOUND');
  });

  it('ignores an Authorization header, even a broken one', async () => {
    const res = await t.request('GET', `/public/${ws.slug}/tours`, {
      headers: { Authorization: 'Bearer not-a-token' },
    });
    expect(res.status).toBe(200);
  });
});

describe('getPublicTour', () => {
  it('answers a published tour by its slug, without its capacity', async () => {
    const res = await t.request('GET', `/public/${ws.slug}/tours/glacier-hike`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: asPublic(published) });
    expect(res.body.data).not.toHaveProperty('capacity');
  });

  it('an unpublished tour is 404 like an unknown one', async () => {
    const hidden = await t.request('GET', `/public/${ws.slug}/tours/draft-tour`);
    const unknown = await t.request('GET', `/public/${ws.slug}/tours/no-such-tour`);
    expectError(hidden, 404, 'NOT_FOUND');
    expectError(unknown, 404, 'NOT_FOUND');
    expect(hidden.body.error.message).toBe(unknown.body.error.message);
    expect(JSON.stringify(hidden.body)).not.toContain('Draft Tour');
  });

  it('the tour id is not a slug: 404', async () => {
    expectError(await t.request('GET', `/public/${ws.slug}/tours/${published.id}`), 404, 'NOT_FOUND');
  });

  it("another workspace's tour slug under this workspace's slug is 404", async () => {
    const res = await t.request('GET', `/public/${ws.slug}/tours/foreign-tour`);
    expectError(res, 404, 'NOT_FOUND');
    expect(JSON.stringify(res.body)).not.toContain('Foreign Tour');
  });

  it('an unknown workspace slug is 404', async () => {
    expectError(await t.request('GET', '/public/no-such-workspace/tours/glacier-hike'), 404, 'NOT_FOUND');
  });
});

describe('listPublicAvailability', () => {
  let tour: any;
  const ids: Record<string, string> = {};
  const path = () => `/public/${ws.slug}/tours/${tour.slug}/availability`;

  beforeAll(async () => {
    tour = await createTour(t, ws, { name: 'River Rafting', slug: 'river-rafting', isPublic: true });
    // Created out of start order so that the order of the answer is the service's doing.
    const make = async (key: string, body: Record<string, unknown>, status?: string) => {
      const departure = await createDeparture(t, ws, tour.id, body);
      if (status) await setDepartureColumns(t, departure.id, { status });
      ids[key] = departure.id;
    };
    await make('delayed', { startsAt: fromNow(20), status: 'DELAYED' });
    await make('scheduled', { startsAt: fromNow(10) });
    await make('cutoffAhead', { startsAt: fromNow(15), bookingCutoffAt: fromNow(14) });
    await make('cancelled', { startsAt: fromNow(12) }, 'CANCELLED');
    await make('boarding', { startsAt: fromNow(0, 1) }, 'BOARDING');
    await make('departed', { startsAt: fromNow(16) }, 'DEPARTED');
    await make('completed', { startsAt: fromNow(17) }, 'COMPLETED');
    await make('past', { startsAt: fromNow(-1) });
    await make('cutoffPassed', { startsAt: fromNow(8), bookingCutoffAt: fromNow(-0.01) });
    // Another tour's departure never shows under this tour.
    const sibling = await createTour(t, ws, { name: 'Sibling', isPublic: true });
    await createDeparture(t, ws, sibling.id, { startsAt: fromNow(11) });
  });

  it('lists only bookable departures (SCHEDULED or DELAYED, future, before cutoff), by startsAt, without a credential', async () => {
    const res = await t.request('GET', path());
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['data']);
    expect(res.body.data.map((d: { id: string }) => d.id)).toEqual([
      ids.scheduled,
      ids.cutoffAhead,
      ids.delayed,
    ]);
    for (const departure of res.body.data) {
      // Nothing is booked yet: every seat remains (capacity itself, like booked counts, is not shown).
      expect(departure).toMatchObject({ tourId: tour.id, seatsRemaining: 12 });
      expect(departure).not.toHaveProperty('capacity');
    }
  });

  it('from and to narrow by the UTC date of startsAt, both inclusive', async () => {
    const day = (iso: string) => iso.slice(0, 10);
    const all = (await t.request('GET', path())).body.data as { id: string; startsAt: string }[];
    const scheduled = all.find((d) => d.id === ids.scheduled);
    const delayed = all.find((d) => d.id === ids.delayed);
    if (!scheduled || !delayed) throw new Error('fixtures missing');
    const sameDay = await t.request(
      'GET',
      `${path()}?from=${day(scheduled.startsAt)}&to=${day(scheduled.startsAt)}`,
    );
    expect(sameDay.body.data.map((d: { id: string }) => d.id)).toEqual([ids.scheduled]);
    const fromDelayed = await t.request('GET', `${path()}?from=${day(delayed.startsAt)}`);
    expect(fromDelayed.body.data.map((d: { id: string }) => d.id)).toEqual([ids.delayed]);
    const toScheduled = await t.request('GET', `${path()}?to=${day(scheduled.startsAt)}`);
    expect(toScheduled.body.data.map((d: { id: string }) => d.id)).toEqual([ids.scheduled]);
  });

  it('a departure that is cancelled leaves the list at once', async () => {
    const departure = await createDeparture(t, ws, tour.id, { startsAt: fromNow(9) });
    expect((await t.request('GET', path())).body.data.map((d: { id: string }) => d.id)).toContain(
      departure.id,
    );
    await t.request('PATCH', `/workspaces/${ws.workspaceId}/availability/${departure.id}`, {
      token: ws.token,
      body: { status: 'CANCELLED' },
    });
    expect((await t.request('GET', path())).body.data.map((d: { id: string }) => d.id)).not.toContain(
      departure.id,
    );
  });

  it('a bad from is 400 on field from', async () => {
    const res = await t.request('GET', `${path()}?from=2026-02-30`);
    expectError(res, 400, 'VALIDATION_ERROR', [{ field: 'from', issue: 'invalid_date' }]);
  });

  it('an unpublished tour is 404, even with departures', async () => {
    await createDeparture(t, ws, unpublished.id);
    expectError(await t.request('GET', `/public/${ws.slug}/tours/draft-tour/availability`), 404, 'NOT_FOUND');
  });

  it("another workspace's tour slug under this workspace's slug is 404", async () => {
    await createDeparture(t, other, foreign.id);
    expectError(
      await t.request('GET', `/public/${ws.slug}/tours/foreign-tour/availability`),
      404,
      'NOT_FOUND',
    );
  });

  it('unknown workspace and unknown tour slugs are 404', async () => {
    expectError(await t.request('GET', '/public/nope/tours/river-rafting/availability'), 404, 'NOT_FOUND');
    expectError(await t.request('GET', `/public/${ws.slug}/tours/nope/availability`), 404, 'NOT_FOUND');
  });
});
