import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createUnitOfWork } from '@travelops/db';
import { createTestDatabase } from '@travelops/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenCreate, workspaceCreate } from '../../src/cli/commands.js';
import { book, bookingInput, bookingsPath, participants } from '../support/booking-fixtures.js';
import {
  createDeparture,
  createTour,
  customerInput,
  detail,
  expectError,
  fromNow,
  type TestWorkspace,
} from '../support/fixtures.js';
import { startTestApi, type TestApi, type TestResponse, testRedisEnv } from '../support/harness.js';
import { assign, must, newGuide, newVehicle, opsPath } from '../support/operations-fixtures.js';
import { freePort, startBuiltServer } from '../support/processes.js';

let t: TestApi;
let ws: TestWorkspace;
let other: TestWorkspace;

beforeAll(async () => {
  t = await startTestApi();
  ws = await t.createWorkspace('ADMIN');
  other = await t.createWorkspace('ADMIN');
});
afterAll(() => t.close());

const knex = () => t.api.database.knex;

const newResource = (w: TestWorkspace, body: Record<string, unknown>) =>
  t.request('POST', opsPath(w, '/resources'), { token: w.token, body });

const aBoat = async (w: TestWorkspace = ws, overrides: Record<string, unknown> = {}) =>
  must(
    'create boat',
    await newResource(w, { kind: 'BOAT', name: 'Marlin', seats: 12, sharing: 'SHARED_SEATS', ...overrides }),
    201,
  );

/** A departure as listed (its tour's departures, by start). */
const departureOf = async (departure: { id: string; tourId: string }) => {
  const listed = must(
    'list departures',
    await t.request('GET', opsPath(ws, `/availability?tourId=${departure.tourId}`), { token: ws.token }),
    200,
  ) as { id: string; seatsRemaining: number; salesStatus: string }[];
  const found = listed.find((d) => d.id === departure.id);
  if (!found) throw new Error(`departure ${departure.id} not listed`);
  return found;
};

/** Two tours on one boat: a 2-hour sunset cruise at 18:00 and a 1-hour charter at 19:00, overlapping. */
async function oneBoatTwoTours(boatOverrides: Record<string, unknown> = {}) {
  const boat = await aBoat(ws, boatOverrides);
  const requirements = [{ resourceId: boat.id }];
  const sunset = await createTour(t, ws, {
    durationMinutes: 120,
    capacity: 12,
    resourceRequirements: requirements,
  });
  const charter = await createTour(t, ws, {
    durationMinutes: 60,
    capacity: 12,
    resourceRequirements: requirements,
  });
  const day = fromNow(40).slice(0, 10);
  const cruise = await createDeparture(t, ws, sunset.id, { startsAt: `${day}T18:00:00.000Z` });
  const private_ = await createDeparture(t, ws, charter.id, { startsAt: `${day}T19:00:00.000Z` });
  return { boat, sunset, charter, cruise, charter_: private_, day };
}

describe('resources: CRUD', () => {
  it('POST, GET, PATCH, list; SHARED_SEATS needs seats (400); another workspace sees 404', async () => {
    const boat = await aBoat(ws, { turnaroundMinutes: 15 });
    expect(boat).toMatchObject({
      id: expect.stringMatching(/^res_/),
      kind: 'BOAT',
      name: 'Marlin',
      seats: 12,
      sharing: 'SHARED_SEATS',
      turnaroundMinutes: 15,
      active: true,
    });
    const room = must('room', await newResource(ws, { kind: 'ROOM', name: 'Workshop' }), 201);
    expect(room).toMatchObject({ seats: null, sharing: 'EXCLUSIVE', turnaroundMinutes: 0 });
    expectError(
      await newResource(ws, { kind: 'BOAT', name: 'No seats', sharing: 'SHARED_SEATS' }),
      400,
      'VALIDATION_ERROR',
      [detail('seats', 'required_for_shared_seats')],
    );
    expectError(await newResource(ws, { kind: 'SHIP', name: 'x' }), 400, 'VALIDATION_ERROR');
    expectError(await newResource(ws, { kind: 'BOAT', name: 'x', seats: 0 }), 400, 'VALIDATION_ERROR');

    const renamed = must(
      'rename',
      await t.request('PATCH', opsPath(ws, `/resources/${boat.id}`), {
        token: ws.token,
        body: { name: 'Marlin II' },
      }),
      200,
    );
    expect(renamed.name).toBe('Marlin II');
    const boats = must(
      'list',
      await t.request('GET', opsPath(ws, '/resources?kind=BOAT'), { token: ws.token }),
      200,
    ) as { id: string }[];
    expect(boats.map((r) => r.id)).toContain(boat.id);
    expect(boats.map((r) => r.id)).not.toContain(room.id);
    expectError(
      await t.request('GET', opsPath(other, `/resources/${boat.id}`), { token: other.token }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await t.request('PATCH', opsPath(other, `/resources/${boat.id}`), {
        token: other.token,
        body: { name: 'x' },
      }),
      404,
      'NOT_FOUND',
    );
  });

  it('a vehicle is a resource of kind VEHICLE, EXCLUSIVE, under its id; /vehicles answers as before', async () => {
    const van = await newVehicle(t, ws, { name: 'Blue van', seats: 8, registration: `RES-${Date.now()}` });
    expect(Object.keys(van).sort()).toEqual(
      ['createdAt', 'id', 'name', 'notes', 'registration', 'seats', 'status', 'updatedAt'].sort(),
    );
    const asResource = must(
      'vehicle resource',
      await t.request('GET', opsPath(ws, `/resources/${van.id}`), { token: ws.token }),
      200,
    );
    expect(asResource).toMatchObject({
      id: van.id,
      kind: 'VEHICLE',
      name: 'Blue van',
      seats: 8,
      sharing: 'EXCLUSIVE',
      active: true,
    });
    must(
      'retire',
      await t.request('PATCH', opsPath(ws, `/vehicles/${van.id}`), {
        token: ws.token,
        body: { status: 'RETIRED' },
      }),
      200,
    );
    expect(
      must('again', await t.request('GET', opsPath(ws, `/resources/${van.id}`), { token: ws.token }), 200)
        .active,
    ).toBe(false);
    expectError(
      await t.request('DELETE', opsPath(ws, `/resources/${van.id}`), { token: ws.token }),
      422,
      'UNPROCESSABLE',
      [detail('id', 'vehicle_resource')],
    );
    must(
      'delete vehicle',
      await t.request('DELETE', opsPath(ws, `/vehicles/${van.id}`), { token: ws.token }),
      200,
    );
    expectError(
      await t.request('GET', opsPath(ws, `/resources/${van.id}`), { token: ws.token }),
      404,
      'NOT_FOUND',
    );
  });

  it("a tour cannot require another workspace's resource: 422 resourceRequirements[0].resourceId not_found", async () => {
    const theirs = await aBoat(other);
    const res = await t.request('POST', opsPath(ws, '/tours'), {
      token: ws.token,
      body: {
        name: 'Borrowed boat',
        durationMinutes: 60,
        basePrice: 1000,
        currency: 'EUR',
        capacity: 10,
        resourceRequirements: [{ resourceId: theirs.id }],
      },
    });
    expectError(res, 422, 'UNPROCESSABLE', [detail('resourceRequirements[0].resourceId', 'not_found')]);
    const tour = await createTour(t, ws);
    const departure = await createDeparture(t, ws, tour.id);
    expectError(await assign(t, ws, departure.id, { resourceIds: [theirs.id] }), 422, 'UNPROCESSABLE', [
      detail('resourceIds', 'not_found'),
    ]);
  });
});

describe('resources: assignment', () => {
  it('a departure takes the resources its tour names, or the first free one of a kind; none free is 422', async () => {
    const suffix = Date.now();
    const a = must(
      'a',
      await newResource(ws, { kind: 'EQUIPMENT', name: `A kayaks ${suffix}`, seats: 10 }),
      201,
    );
    const b = must(
      'b',
      await newResource(ws, { kind: 'EQUIPMENT', name: `B kayaks ${suffix}`, seats: 10 }),
      201,
    );
    // Too small for the departure: never chosen.
    await newResource(ws, { kind: 'EQUIPMENT', name: `0 small ${suffix}`, seats: 2 });
    const tour = await createTour(t, ws, {
      durationMinutes: 60,
      capacity: 10,
      resourceRequirements: [{ kind: 'EQUIPMENT', seatsFrom: 'departure' }],
    });
    const at = `${fromNow(50).slice(0, 10)}T09:00:00.000Z`;
    const first = await createDeparture(t, ws, tour.id, { startsAt: at });
    expect(first.resourceIds).toEqual([a.id]);
    const second = await createDeparture(t, ws, tour.id, { startsAt: at });
    expect(second.resourceIds).toEqual([b.id]);
    const third = await t.request('POST', opsPath(ws, '/availability'), {
      token: ws.token,
      body: { tourId: tour.id, startsAt: at },
    });
    expectError(third, 422, 'UNPROCESSABLE', [detail('resourceRequirements', 'no_free_resource')]);
    // An hour later the first is free again.
    const later = await createDeparture(t, ws, tour.id, { startsAt: at.replace('T09', 'T10') });
    expect(later.resourceIds).toEqual([a.id]);
  });

  it('a schedule puts its departures on the resources the tour names; an EXCLUSIVE one twice at once is 422', async () => {
    const room = must('room', await newResource(ws, { kind: 'ROOM', name: 'Studio' }), 201);
    const tour = await createTour(t, ws, {
      durationMinutes: 60,
      resourceRequirements: [{ resourceId: room.id }],
    });
    const day = fromNow(70).slice(0, 10);
    const week = {
      daysOfWeek: ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'],
      startsOn: day,
      endsOn: day,
    };
    const refused = await t.request('POST', opsPath(ws, `/tours/${tour.id}/schedules`), {
      token: ws.token,
      body: { ...week, times: ['09:00', '09:30'] },
    });
    expectError(refused, 422, 'UNPROCESSABLE', [detail('resourceRequirements', 'resource_double_booked')]);
    const made = await t.request('POST', opsPath(ws, `/tours/${tour.id}/schedules`), {
      token: ws.token,
      body: { ...week, times: ['09:00', '10:00'] },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const listed = must(
      'departures',
      await t.request('GET', opsPath(ws, `/availability?tourId=${tour.id}`), { token: ws.token }),
      200,
    ) as { resourceIds: string[] }[];
    expect(listed.map((d) => d.resourceIds)).toEqual([[room.id], [room.id]]);
  });

  it('a schedule chooses a free one of each kind for each departure it makes, in time order; none free rolls it back', async () => {
    const w = await t.createWorkspace('ADMIN');
    const a = must('a', await newResource(w, { kind: 'BOAT', name: 'A boat', seats: 10 }), 201);
    const b = must('b', await newResource(w, { kind: 'BOAT', name: 'B boat', seats: 10 }), 201);
    const tour = await createTour(t, w, {
      durationMinutes: 120,
      capacity: 10,
      timeZone: 'UTC',
      resourceRequirements: [{ kind: 'BOAT', seatsFrom: 'departure' }],
    });
    const day = fromNow(80).slice(0, 10);
    const after = (days: number) => new Date(Date.parse(day) + days * 86_400_000).toISOString().slice(0, 10);
    const days = {
      daysOfWeek: ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'],
      startsOn: day,
      endsOn: after(2),
    };
    const schedules = opsPath(w, `/tours/${tour.id}/schedules`);
    const listed = async () =>
      (
        must(
          'departures',
          await t.request('GET', opsPath(w, `/availability?tourId=${tour.id}&limit=100`), { token: w.token }),
          200,
        ) as { startsAt: string; resourceIds: string[]; status: string }[]
      ).filter((d) => d.status !== 'CANCELLED');

    // 09:00 and 10:00 overlap (two hours each): one boat each; at 14:00 the first is free again.
    const made = await t.request('POST', schedules, {
      token: w.token,
      body: { ...days, times: ['09:00', '10:00', '14:00'] },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.data.departuresCreated).toBe(9);
    const boats = (await listed()).map((d) => [d.startsAt.slice(0, 16), d.resourceIds]);
    expect(boats).toEqual(
      [0, 1, 2].flatMap((i) => [
        [`${after(i)}T09:00`, [a.id]],
        [`${after(i)}T10:00`, [b.id]],
        [`${after(i)}T14:00`, [a.id]],
      ]),
    );

    // A third departure at 09:30 finds both boats taken: 422, and nothing of that schedule stays.
    const refused = await t.request('POST', schedules, {
      token: w.token,
      body: { ...days, times: ['09:30'] },
    });
    expectError(refused, 422, 'UNPROCESSABLE', [detail('resourceRequirements', 'no_free_resource')]);
    expect((await listed()).length).toBe(9);

    // A change that adds 15:00 gives its new departures a free boat too (14:00 holds A).
    const id = made.body.data.id;
    const changed = await t.request('PATCH', `${schedules}/${id}`, {
      token: w.token,
      body: { times: ['09:00', '10:00', '14:00', '15:00'] },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.data.departuresCreated).toBe(3);
    const fifteen = (await listed()).filter((d) => d.startsAt.slice(11, 16) === '15:00');
    expect(fifteen.map((d) => d.resourceIds)).toEqual([[b.id], [b.id], [b.id]]);
  });

  it('an EXCLUSIVE resource on overlapping departures: 422 resource_double_booked (vehicles: vehicle_double_booked)', async () => {
    const room = must(
      'room',
      await newResource(ws, { kind: 'ROOM', name: 'Cellar', turnaroundMinutes: 30 }),
      201,
    );
    const tour = await createTour(t, ws, { durationMinutes: 60 });
    const day = fromNow(60).slice(0, 10);
    const one = await createDeparture(t, ws, tour.id, { startsAt: `${day}T10:00:00.000Z` });
    const two = await createDeparture(t, ws, tour.id, { startsAt: `${day}T11:15:00.000Z` });
    const three = await createDeparture(t, ws, tour.id, { startsAt: `${day}T11:30:00.000Z` });
    must('assign one', await assign(t, ws, one.id, { resourceIds: [room.id] }), 200);
    // 11:15 is within the first's hour plus its 30-minute turnaround.
    expectError(await assign(t, ws, two.id, { resourceIds: [room.id] }), 422, 'UNPROCESSABLE', [
      detail('resourceIds', 'resource_double_booked'),
    ]);
    expect((await assign(t, ws, three.id, { resourceIds: [room.id] })).status).toBe(200);

    const van = await newVehicle(t, ws, { seats: 20 });
    must('van by hand', await assign(t, ws, one.id, { resourceIds: [room.id, van.id] }), 200);
    const four = await createDeparture(t, ws, tour.id, { startsAt: `${day}T10:30:00.000Z` });
    expectError(await assign(t, ws, four.id, { vehicleId: van.id }), 422, 'UNPROCESSABLE', [
      detail('vehicleId', 'vehicle_double_booked'),
    ]);
    const withVan = must('vehicleId', await assign(t, ws, three.id, { vehicleId: van.id }), 200);
    expect(withVan.vehicleId).toBe(van.id);
    expect(withVan.resourceIds.sort()).toEqual([room.id, van.id].sort());
    const unassigned = must('unassign', await assign(t, ws, three.id, { vehicleId: null }), 200);
    expect(unassigned.resourceIds).toEqual([room.id]);
  });
});

describe('resources: one boat, two tours', () => {
  it('overlapping departures share the boat: seatsRemaining is the minimum, a full boat is 409 resource_full', async () => {
    const { boat, cruise, charter_, day } = await oneBoatTwoTours();
    expect(cruise.resourceIds).toEqual([boat.id]);
    expect(charter_.resourceIds).toEqual([boat.id]);

    const eight = await book(t, ws, cruise.id, { participants: participants(8), paymentMode: 'MANUAL' });
    expect((await departureOf(charter_)).seatsRemaining).toBe(4);
    expect((await departureOf(cruise)).seatsRemaining).toBe(4);

    const refused = await t.request('POST', bookingsPath(ws), {
      token: ws.token,
      body: bookingInput(charter_.id, { participants: participants(5), paymentMode: 'MANUAL' }),
    });
    expectError(refused, 409, 'CONFLICT');
    expect(refused.body.error.details).toEqual([
      { field: 'availabilityId', issue: 'resource_full', resourceId: boat.id },
    ]);
    const four = await book(t, ws, charter_.id, { participants: participants(4), paymentMode: 'MANUAL' });
    expect((await departureOf(cruise)).seatsRemaining).toBe(0);
    expect((await departureOf(cruise)).salesStatus).toBe('SOLD_OUT');

    // Cancelling gives the seats back to both departures.
    must(
      'cancel',
      await t.request('POST', bookingsPath(ws, eight.id, '/status'), {
        token: ws.token,
        body: { status: 'CANCELLED' },
      }),
      200,
    );
    expect((await departureOf(charter_)).seatsRemaining).toBe(8);
    // A departure made on the boat now answers with what the boat leaves it (12 - 4 on the charter).
    const extra = await createDeparture(t, ws, cruise.tourId, { startsAt: `${day}T18:30:00.000Z` });
    expect(extra).toMatchObject({ resourceIds: [boat.id], seatsRemaining: 8 });
    const unshared = must('unassign', await assign(t, ws, extra.id, { resourceIds: [] }), 200);
    expect(unshared).toMatchObject({ resourceIds: [], seatsRemaining: 12 });
    const reshared = must('reassign', await assign(t, ws, extra.id, { resourceIds: [boat.id] }), 200);
    expect(reshared.seatsRemaining).toBe(8);
    must('cancel extra', await assign(t, ws, extra.id, { status: 'CANCELLED' }), 200);
    // A move onto the cruise is checked against the boat too: from a later cruise (20:00, after
    // both), 6 seats fit (4 + 6), 3 more do not.
    const late = await createDeparture(t, ws, cruise.tourId, { startsAt: `${day}T20:00:00.000Z` });
    expect(late.resourceIds).toEqual([boat.id]);
    const six = await book(t, ws, late.id, { participants: participants(6), paymentMode: 'MANUAL' });
    const three = await book(t, ws, late.id, { participants: participants(3), paymentMode: 'MANUAL' });
    expect((await departureOf(charter_)).seatsRemaining).toBe(8);
    const moved = await t.request('PATCH', bookingsPath(ws, six.id), {
      token: ws.token,
      body: { availabilityId: cruise.id, notifyCustomer: false },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect((await departureOf(cruise)).seatsRemaining).toBe(2);
    expect((await departureOf(late)).seatsRemaining).toBe(9);
    const tooMany = await t.request('PATCH', bookingsPath(ws, three.id), {
      token: ws.token,
      body: { availabilityId: cruise.id, notifyCustomer: false },
    });
    expect(tooMany.status, JSON.stringify(tooMany.body)).toBe(409);
    expect(tooMany.body.error.details).toEqual([
      { field: 'availabilityId', issue: 'resource_full', resourceId: boat.id },
    ]);
    expect((await departureOf(cruise)).seatsRemaining).toBe(2);
    expect((await departureOf(charter_)).seatsRemaining).toBe(2);
    expect(four.participants).toHaveLength(4);
  });

  it("the public calendar and availability of one tour follow bookings on the other tour's departure", async () => {
    const boat = await aBoat();
    const requirements = [{ resourceId: boat.id }];
    const slug = `sunset-${Date.now()}`;
    const sunset = await createTour(t, ws, {
      slug,
      isPublic: true,
      durationMinutes: 120,
      capacity: 12,
      resourceRequirements: requirements,
    });
    const charter = await createTour(t, ws, {
      durationMinutes: 60,
      capacity: 12,
      resourceRequirements: requirements,
    });
    const day = fromNow(45).slice(0, 10);
    const cruise = await createDeparture(t, ws, sunset.id, { startsAt: `${day}T18:00:00.000Z` });
    const private_ = await createDeparture(t, ws, charter.id, { startsAt: `${day}T19:00:00.000Z` });
    const calendar = async () => {
      const res = await t.request('GET', `/public/${ws.slug}/tours/${slug}/calendar?from=${day}&to=${day}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data.find((d: { date: string }) => d.date === day);
    };
    expect(await calendar()).toMatchObject({ salesStatus: 'AVAILABLE', seatsRemaining: 12 });
    await book(t, ws, private_.id, { participants: participants(12), paymentMode: 'MANUAL' });
    // Nothing of the sunset tour was written: its calendar still sees the boat full.
    expect(await calendar()).toMatchObject({ salesStatus: 'SOLD_OUT', seatsRemaining: 0 });
    const listed = await t.request(
      'GET',
      `/public/${ws.slug}/tours/${slug}/availability?from=${day}&to=${day}`,
    );
    expect(listed.body.data.find((d: { id: string }) => d.id === cruise.id)).toMatchObject({
      seatsRemaining: 0,
    });
  });

  it('the boat cannot shrink below what is sold (422 below_sold naming the departures) nor go while in use', async () => {
    const { boat, cruise, charter_ } = await oneBoatTwoTours();
    await book(t, ws, cruise.id, { participants: participants(5), paymentMode: 'MANUAL' });
    await book(t, ws, charter_.id, { participants: participants(4), paymentMode: 'MANUAL' });
    const shrink = await t.request('PATCH', opsPath(ws, `/resources/${boat.id}`), {
      token: ws.token,
      body: { seats: 8 },
    });
    expectError(shrink, 422, 'UNPROCESSABLE');
    expect(shrink.body.error.details).toEqual([
      { field: 'seats', issue: 'below_sold', availabilityIds: [cruise.id, charter_.id] },
    ]);
    must(
      'to 9',
      await t.request('PATCH', opsPath(ws, `/resources/${boat.id}`), { token: ws.token, body: { seats: 9 } }),
      200,
    );
    const gone = await t.request('DELETE', opsPath(ws, `/resources/${boat.id}`), { token: ws.token });
    expectError(gone, 422, 'UNPROCESSABLE');
    expect(gone.body.error.details).toEqual([
      { field: 'id', issue: 'resource_in_use', availabilityIds: [cruise.id, charter_.id] },
    ]);
  });

  it('a booking on a departure with one resource costs no extra statement: the check goes with the seats', async () => {
    const { cruise } = await oneBoatTwoTours();
    const statements: string[] = [];
    const onQuery = (query: { sql: string }) => statements.push(query.sql);
    knex().on('query', onQuery);
    try {
      const res = await t.request('POST', bookingsPath(ws), {
        token: ws.token,
        headers: { 'Idempotency-Key': crypto.randomUUID() },
        body: { availabilityId: cruise.id, customer: customerInput(), participants: [{ name: 'Ada' }] },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    } finally {
      knex().removeListener('query', onQuery);
    }
    // As without resources (create-booking-races.int.test.ts): ten, the seats and the boat in the COMMIT.
    const shape = statements.map((sql) => sql.replace(/\s+/g, ' ').toLowerCase());
    expect(shape, shape.join('\n')).toHaveLength(10);
    expect(shape.at(-1)).toMatch(/^select travelops_take_seats\(.*\); commit$/);
  });
});

describe('people', () => {
  it('a refusal names the other departure by tour and local time; GET guides/{id}/schedule lists departures and time off', async () => {
    const guideId = await newGuide(t, ws, 'Inês');
    const tour = await createTour(t, ws, {
      name: 'Harbour walk',
      durationMinutes: 90,
      timeZone: 'Europe/Lisbon',
    });
    const day = '2031-07-15';
    const first = await createDeparture(t, ws, tour.id, { startsAt: `${day}T09:00:00.000Z` });
    const second = await createDeparture(t, ws, tour.id, { startsAt: `${day}T10:00:00.000Z` });
    must('assign', await assign(t, ws, first.id, { guideId }), 200);
    const refused = await assign(t, ws, second.id, { guideId });
    expectError(refused, 422, 'UNPROCESSABLE', [detail('guideId', 'guide_double_booked')]);
    // 09:00Z is 10:00 in Lisbon in July.
    expect(refused.body.error.message).toContain('Harbour walk on 2031-07-15 at 10:00 Europe/Lisbon');
    must(
      'time off',
      await t.request('POST', opsPath(ws, `/guides/${guideId}/time-off`), {
        token: ws.token,
        body: { startsAt: `${day}T14:00:00.000Z`, endsAt: `${day}T18:00:00.000Z`, reason: 'Dentist' },
      }),
      201,
    );
    const schedule = must(
      'schedule',
      await t.request('GET', opsPath(ws, `/guides/${guideId}/schedule?from=${day}&to=${day}`), {
        token: ws.token,
      }),
      200,
    );
    expect(schedule).toMatchObject({
      memberId: guideId,
      from: day,
      to: day,
      departures: [
        {
          availabilityId: first.id,
          tourName: 'Harbour walk',
          role: 'GUIDE',
          startsAt: `${day}T09:00:00.000Z`,
          endsAt: `${day}T10:30:00.000Z`,
          localStartsAt: `${day}T10:00:00+01:00`,
        },
      ],
      timeOff: [{ reason: 'Dentist' }],
    });
    expectError(
      await t.request('GET', opsPath(ws, `/guides/${guideId}/schedule?from=${day}&to=2031-12-31`), {
        token: ws.token,
      }),
      400,
      'VALIDATION_ERROR',
      [detail('to', 'range_too_long')],
    );
    expectError(
      await t.request('GET', opsPath(other, `/guides/${guideId}/schedule?from=${day}&to=${day}`), {
        token: other.token,
      }),
      404,
      'NOT_FOUND',
    );
  });
});

describe('force', () => {
  it('force: true (ADMIN only) lets a double-booked guide stand and records it on the departure history', async () => {
    const guideId = await newGuide(t, ws, 'Rui');
    const tour = await createTour(t, ws, { name: 'Tram ride', durationMinutes: 60 });
    const first = await createDeparture(t, ws, tour.id, { startsAt: '2031-08-01T09:00:00.000Z' });
    const second = await createDeparture(t, ws, tour.id, { startsAt: '2031-08-01T09:30:00.000Z' });
    must('assign', await assign(t, ws, first.id, { guideId }), 200);
    const ops = await t.createToken(ws.workspaceId, 'OPERATIONS');
    expectError(
      await t.request('PATCH', opsPath(ws, `/availability/${second.id}`), {
        token: ops.token,
        body: { guideId, force: true },
      }),
      403,
      'FORBIDDEN',
      [detail('force', 'admin_only')],
    );
    const forced = must('force', await assign(t, ws, second.id, { guideId, force: true }), 200);
    expect(forced.guideId).toBe(guideId);
    const history = must(
      'history',
      await t.request('GET', opsPath(ws, `/availability/${second.id}/history`), { token: ws.token }),
      200,
    );
    expect(history).toEqual([
      {
        id: expect.stringMatching(/^dhe_/),
        availabilityId: second.id,
        kind: 'ASSIGNMENT_FORCED',
        field: 'guideId',
        issue: 'guide_double_booked',
        message: expect.stringContaining('Tram ride on 2031-08-01 at 09:00 UTC'),
        actor: { type: 'api_token', id: ws.tokenId },
        createdAt: expect.any(String),
      },
    ]);
  });
});

describe('resource calendar', () => {
  it('GET resource-calendar?date= shows each resource and guide on the local day, seats used over total, conflicts marked', async () => {
    const day = '2031-09-10';
    const w = await t.createWorkspace('ADMIN');
    const boat = must(
      'boat',
      await newResource(w, { kind: 'BOAT', name: 'Marlin', seats: 12, sharing: 'SHARED_SEATS' }),
      201,
    );
    const tour = must(
      'tour',
      await t.request('POST', opsPath(w, '/tours'), {
        token: w.token,
        body: {
          name: 'Sunset',
          durationMinutes: 120,
          basePrice: 1000,
          currency: 'EUR',
          capacity: 12,
          timeZone: 'Europe/Lisbon',
          resourceRequirements: [{ resourceId: boat.id }],
        },
      }),
      201,
    );
    const departure = must(
      'departure',
      await t.request('POST', opsPath(w, '/availability'), {
        token: w.token,
        body: { tourId: tour.id, startsAt: `${day}T17:00:00.000Z` },
      }),
      201,
    );
    const res = await t.request('POST', bookingsPath(w), {
      token: w.token,
      body: bookingInput(departure.id, { participants: participants(5), paymentMode: 'MANUAL' }),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const calendar = must(
      'calendar',
      await t.request('GET', opsPath(w, `/resource-calendar?date=${day}&timeZone=Europe/Lisbon`), {
        token: w.token,
      }),
      200,
    );
    expect(calendar).toMatchObject({
      date: day,
      timeZone: 'Europe/Lisbon',
      resources: [
        {
          resourceId: boat.id,
          seatsTotal: 12,
          departures: [
            {
              availabilityId: departure.id,
              tourName: 'Sunset',
              startsAt: `${day}T17:00:00.000Z`,
              endsAt: `${day}T19:00:00.000Z`,
              bookedSeats: 5,
              seatsUsed: 5,
              conflict: false,
            },
          ],
        },
      ],
      guides: [],
    });
    // The next local day has nothing on the boat.
    const next = must(
      'next day',
      await t.request('GET', opsPath(w, '/resource-calendar?date=2031-09-11'), { token: w.token }),
      200,
    );
    expect(next.resources[0].departures).toEqual([]);
    expectError(
      await t.request('GET', opsPath(w, '/resource-calendar?date=2031-13-01'), { token: w.token }),
      400,
      'VALIDATION_ERROR',
    );
  });
});

describe('resources: the race', () => {
  it('60 concurrent bookings over two overlapping departures on a 12-seat boat, across two processes: never more than 12 sold', async () => {
    const db = await createTestDatabase();
    const cwd = await mkdtemp(join(tmpdir(), 'travelops-resources-'));
    const servers: Awaited<ReturnType<typeof startBuiltServer>>[] = [];
    try {
      const deps = { uow: createUnitOfWork(db.database.knex), clock: { now: () => new Date() } };
      const workspace = await workspaceCreate(deps, { slug: 'boat-race', name: 'Boat race' });
      if (!workspace.ok) throw new Error(workspace.error.message);
      const { workspaceId } = workspace.value;
      const token = await tokenCreate(deps, { workspace: workspaceId, role: 'ADMIN', name: 'race' });
      if (!token.ok) throw new Error(token.error.message);
      const redisEnv = testRedisEnv();
      const ports = [await freePort(), await freePort()];
      for (const port of ports) {
        servers.push(await startBuiltServer({ PORT: String(port), DATABASE_URL: db.url, ...redisEnv }, cwd));
      }
      let turn = 0;
      const call = async (method: string, path: string, body?: unknown): Promise<TestResponse> => {
        const port = ports[turn++ % ports.length] as number;
        const res = await fetch(`http://127.0.0.1:${port}/workspaces/${workspaceId}${path}`, {
          method,
          headers: { Authorization: `Bearer ${token.value.token}`, 'Content-Type': 'application/json' },
          ...(body !== undefined && { body: JSON.stringify(body) }),
        });
        return { status: res.status, headers: res.headers, body: (await res.json()) as any };
      };
      const boat = await call('POST', '/resources', {
        kind: 'BOAT',
        name: 'Marlin',
        seats: 12,
        sharing: 'SHARED_SEATS',
      });
      expect(boat.status, JSON.stringify(boat.body)).toBe(201);
      const requirements = [{ resourceId: boat.body.data.id }];
      const tourIds: string[] = [];
      for (const durationMinutes of [120, 60]) {
        const tour = await call('POST', '/tours', {
          name: `Boat ${durationMinutes}`,
          durationMinutes,
          basePrice: 1000,
          currency: 'EUR',
          capacity: 12,
          resourceRequirements: requirements,
        });
        expect(tour.status, JSON.stringify(tour.body)).toBe(201);
        tourIds.push(tour.body.data.id);
      }
      const day = fromNow(20).slice(0, 10);
      const departures: string[] = [];
      for (const [i, tourId] of tourIds.entries()) {
        const made = await call('POST', '/availability', { tourId, startsAt: `${day}T1${8 + i}:00:00.000Z` });
        expect(made.status, JSON.stringify(made.body)).toBe(201);
        departures.push(made.body.data.id);
      }
      const answers = await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          call('POST', '/bookings', {
            ...bookingInput(departures[i % 2] as string, { paymentMode: 'MANUAL' }),
            participants: participants(1 + (i % 3 === 0 ? 1 : 0)),
          }),
        ),
      );
      for (const res of answers) expect([201, 409], JSON.stringify(res.body)).toContain(res.status);
      const sold = answers
        .filter((res) => res.status === 201)
        .reduce((sum, res) => sum + (res.body.data.participants as unknown[]).length, 0);
      const rows = await db.database.knex('availability').whereIn('id', departures).select('booked_seats');
      const booked = rows.reduce((sum: number, row: { booked_seats: number }) => sum + row.booked_seats, 0);
      expect(booked).toBe(sold);
      expect(sold).toBeLessThanOrEqual(12);
      // Refusals come only once the boat is (all but) full: 1- and 2-seat requests.
      expect(sold).toBeGreaterThanOrEqual(11);
      for (const res of answers.filter((r) => r.status === 409)) {
        expect(['resource_full', 'insufficient_seats']).toContain(res.body.error.details[0].issue);
      }
    } finally {
      const codes = await Promise.all(servers.map((server) => server.stop()));
      await db.drop();
      await rm(cwd, { recursive: true, force: true });
      expect(codes, JSON.stringify(servers.map((s) => s.output().stderr))).toEqual(servers.map(() => 0));
    }
  });
});
