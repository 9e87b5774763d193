import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createDeparture,
  createTour,
  detail,
  expectError,
  ISO_MS,
  setDepartureColumns,
  type TestWorkspace,
  UNKNOWN_IDS,
} from '../support/fixtures.js';
import { startTestApi, type TestApi } from '../support/harness.js';

let t: TestApi;
let ws: TestWorkspace;
let tour: any;
beforeAll(async () => {
  t = await startTestApi();
  ws = await t.createWorkspace('ADMIN');
  tour = await createTour(t, ws, { name: 'Lagoon Kayak', capacity: 8 });
});
afterAll(() => t.close());

const availabilityPath = (workspace: TestWorkspace = ws) =>
  `/workspaces/${workspace.workspaceId}/availability`;

describe('createAvailability', () => {
  it("defaults capacity to the tour's, every seat remaining, SCHEDULED, no crew, no cutoff", async () => {
    const res = await t.request('POST', availabilityPath(), {
      token: ws.token,
      body: { tourId: tour.id, startsAt: '2031-06-01T10:00:00+02:00' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      data: {
        id: expect.stringMatching(/^avl_[0-9A-Za-z]{22}$/),
        tourId: tour.id,
        startsAt: '2031-06-01T08:00:00.000Z',
        capacity: 8,
        seatsRemaining: 8,
        bookedSeats: 0,
        status: 'SCHEDULED',
        guideId: null,
        driverId: null,
        vehicleId: null,
        bookingCutoffAt: null,
        createdAt: expect.stringMatching(ISO_MS),
        updatedAt: expect.stringMatching(ISO_MS),
        prices: [],
        scheduleId: null,
        heldSeats: 0,
        salesStatus: 'AVAILABLE',
        resourceIds: [],
      },
    });
  });

  it('takes an explicit capacity, status DELAYED and a cutoff, normalised to UTC', async () => {
    const res = await t.request('POST', availabilityPath(), {
      token: ws.token,
      body: {
        tourId: tour.id,
        startsAt: '2031-06-02T09:30:00.123Z',
        capacity: 20,
        status: 'DELAYED',
        bookingCutoffAt: '2031-06-02T07:00:00-01:00',
      },
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      startsAt: '2031-06-02T09:30:00.123Z',
      capacity: 20,
      seatsRemaining: 20,
      bookedSeats: 0,
      status: 'DELAYED',
      bookingCutoffAt: '2031-06-02T08:00:00.000Z',
    });
  });

  it('a cutoff equal to the start is allowed', async () => {
    const departure = await createDeparture(t, ws, tour.id, {
      startsAt: '2031-06-03T10:00:00.000Z',
      bookingCutoffAt: '2031-06-03T10:00:00.000Z',
    });
    expect(departure.bookingCutoffAt).toBe('2031-06-03T10:00:00.000Z');
  });

  it('a cutoff after the start is 422 UNPROCESSABLE on field bookingCutoffAt', async () => {
    const res = await t.request('POST', availabilityPath(), {
      token: ws.token,
      body: {
        tourId: tour.id,
        startsAt: '2031-06-03T10:00:00.000Z',
        bookingCutoffAt: '2031-06-03T10:00:00.001Z',
      },
    });
    expectError(res, 422, 'UNPROCESSABLE', [detail('bookingCutoffAt', 'after_start')]);
  });

  it('an unknown tourId is 422 UNPROCESSABLE on field tourId', async () => {
    const res = await t.request('POST', availabilityPath(), {
      token: ws.token,
      body: { tourId: UNKNOWN_IDS.tour, startsAt: '2031-06-03T10:00:00.000Z' },
    });
    expectError(res, 422, 'UNPROCESSABLE', [detail('tourId', 'not_found')]);
  });

  it('a tourId of another workspace is 422 on field tourId and reveals nothing of that tour', async () => {
    const other = await t.createWorkspace('ADMIN');
    const foreign = await createTour(t, other, { name: 'Secret Foreign Tour', slug: 'secret-foreign' });
    const res = await t.request('POST', availabilityPath(), {
      token: ws.token,
      body: { tourId: foreign.id, startsAt: '2031-06-03T10:00:00.000Z' },
    });
    expectError(res, 422, 'UNPROCESSABLE', [detail('tourId', 'not_found')]);
    expect(JSON.stringify(res.body)).not.toContain('Secret Foreign Tour');
    const count = await t.api.database.knex('availability').where({ tour_id: foreign.id }).count('* as n');
    expect(Number(count[0]?.n)).toBe(0);
  });

  it('a departure in the past may be created (history, back-office entry)', async () => {
    const departure = await createDeparture(t, ws, tour.id, { startsAt: '2020-01-01T10:00:00.000Z' });
    expect(departure.startsAt).toBe('2020-01-01T10:00:00.000Z');
  });

  it.each([
    [{ status: 'BOARDING' }, 'status', 'invalid_enum'],
    [{ status: 'scheduled' }, 'status', 'invalid_enum'],
    [{ capacity: 0 }, 'capacity', 'out_of_range'],
    [{ capacity: 10_001 }, 'capacity', 'out_of_range'],
    [{ capacity: 1.5 }, 'capacity', 'not_integer'],
    [{ startsAt: 'tomorrow' }, 'startsAt', 'invalid_date_time'],
    [{ startsAt: '2031-06-01' }, 'startsAt', 'invalid_date_time'],
    [{ startsAt: '2031-02-30T10:00:00Z' }, 'startsAt', 'invalid_date'],
    [{ startsAt: '2031-04-31T10:00:00Z' }, 'startsAt', 'invalid_date'],
    [{ startsAt: '2031-06-01T10:00:00+05' }, 'startsAt', 'invalid_date'],
    [{ startsAt: 1_900_000_000_000 }, 'startsAt', 'invalid_type'],
    [{ bookingCutoffAt: 'soon' }, 'bookingCutoffAt', 'invalid_date_time'],
    [{ guideId: 'mem_1' }, 'guideId', 'unknown_field'],
  ])('rejects %j with %s %s', async (change, field, issue) => {
    const res = await t.request('POST', availabilityPath(), {
      token: ws.token,
      body: { tourId: tour.id, startsAt: '2031-06-01T10:00:00.000Z', ...change },
    });
    expectError(res, 400, 'VALIDATION_ERROR', [detail(field, issue)]);
  });

  it('tourId and startsAt are required', async () => {
    const res = await t.request('POST', availabilityPath(), { token: ws.token, body: {} });
    expectError(res, 400, 'VALIDATION_ERROR', [detail('tourId', 'required'), detail('startsAt', 'required')]);
  });

  it("a later change of the tour's capacity leaves existing departures as they are", async () => {
    const own = await createTour(t, ws, { name: 'Capacity Drift', capacity: 10 });
    const departure = await createDeparture(t, ws, own.id);
    await t.request('PATCH', `/workspaces/${ws.workspaceId}/tours/${own.id}`, {
      token: ws.token,
      body: { capacity: 30 },
    });
    const list = await t.request('GET', `${availabilityPath()}?tourId=${own.id}`, { token: ws.token });
    expect(list.body.data).toEqual([departure]);
  });
});

describe('listAvailability', () => {
  let own: TestWorkspace;
  let tourA: any;
  let tourB: any;
  const starts: Record<string, string> = {
    lateDayBefore: '2031-05-09T23:59:59.999Z',
    midnight: '2031-05-10T00:00:00.000Z',
    // 01:00 at +02:00 is 23:00Z the day before: the UTC date decides.
    offsetLate: '2031-05-11T01:00:00+02:00',
    lastMs: '2031-05-10T23:59:59.999Z',
    nextMidnight: '2031-05-11T00:00:00.000Z',
    later: '2031-05-12T08:00:00.000Z',
  };
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    own = await t.createWorkspace('ADMIN');
    tourA = await createTour(t, own, { name: 'A' });
    tourB = await createTour(t, own, { name: 'B' });
    // Created out of start order, alternating tours, so the list order is the service's doing.
    const order = ['later', 'midnight', 'nextMidnight', 'lateDayBefore', 'lastMs', 'offsetLate'];
    for (const [index, key] of order.entries()) {
      const departure = await createDeparture(t, own, index % 2 ? tourB.id : tourA.id, {
        startsAt: starts[key],
      });
      ids[key] = departure.id;
    }
  });

  const list = async (query: string) => {
    const res = await t.request('GET', `${availabilityPath(own)}${query}`, { token: own.token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };
  const idsOf = (keys: string[]) => keys.map((key) => ids[key]);

  it('orders departures by startsAt ascending', async () => {
    const body = await list('');
    expect(body.data.map((d: { id: string }) => d.id)).toEqual(
      idsOf(['lateDayBefore', 'midnight', 'offsetLate', 'lastMs', 'nextMidnight', 'later']),
    );
    const starts = body.data.map((d: { startsAt: string }) => d.startsAt);
    expect(starts).toEqual([...starts].sort());
    expect(body.pagination).toEqual({ hasMore: false, nextCursor: null });
  });

  it('from and to are both inclusive on the UTC date of startsAt', async () => {
    const body = await list('?from=2031-05-10&to=2031-05-10');
    expect(body.data.map((d: { id: string }) => d.id)).toEqual(idsOf(['midnight', 'offsetLate', 'lastMs']));
  });

  it('from alone and to alone are open-ended', async () => {
    expect((await list('?from=2031-05-11')).data.map((d: { id: string }) => d.id)).toEqual(
      idsOf(['nextMidnight', 'later']),
    );
    expect((await list('?to=2031-05-09')).data.map((d: { id: string }) => d.id)).toEqual(
      idsOf(['lateDayBefore']),
    );
  });

  it('from after to lists nothing', async () => {
    expect((await list('?from=2031-05-12&to=2031-05-10')).data).toEqual([]);
  });

  it('tourId narrows to one tour, combined with the dates', async () => {
    const onlyA = await list(`?tourId=${tourA.id}`);
    expect(onlyA.data.every((d: { tourId: string }) => d.tourId === tourA.id)).toBe(true);
    expect(onlyA.data.map((d: { id: string }) => d.id)).toEqual(idsOf(['lastMs', 'nextMidnight', 'later']));
    const bOnTenth = await list(`?tourId=${tourB.id}&from=2031-05-10&to=2031-05-10`);
    expect(bOnTenth.data.map((d: { id: string }) => d.id)).toEqual(idsOf(['midnight', 'offsetLate']));
  });

  it('an unknown tourId lists nothing', async () => {
    expect((await list(`?tourId=${UNKNOWN_IDS.tour}`)).data).toEqual([]);
  });

  it('pages in startsAt order with limit and cursor', async () => {
    const first = await list('?limit=4');
    expect(first.data.map((d: { id: string }) => d.id)).toEqual(
      idsOf(['lateDayBefore', 'midnight', 'offsetLate', 'lastMs']),
    );
    expect(first.pagination.hasMore).toBe(true);
    const second = await list(`?limit=4&cursor=${encodeURIComponent(first.pagination.nextCursor)}`);
    expect(second.data.map((d: { id: string }) => d.id)).toEqual(idsOf(['nextMidnight', 'later']));
    expect(second.pagination).toEqual({ hasMore: false, nextCursor: null });
  });

  it.each([
    ['from=2026-02-30', 'from', 'invalid_date'],
    ['to=2026-13-01', 'to', 'invalid_date'],
    ['to=2027-02-29', 'to', 'invalid_date'],
    ['from=yesterday', 'from', 'invalid_date'],
    ['from=2031-05-10T00:00:00Z', 'from', 'invalid_date'],
  ])('rejects %s on field %s', async (query, field, issue) => {
    const res = await t.request('GET', `${availabilityPath(own)}?${query}`, { token: own.token });
    expectError(res, 400, 'VALIDATION_ERROR', [detail(field, issue)]);
  });

  it('accepts a leap day (2028-02-29) as a date and as a start', async () => {
    expect((await list('?from=2028-02-29&to=2028-02-29')).data).toEqual([]);
    const departure = await createDeparture(t, ws, tour.id, { startsAt: '2028-02-29T12:00:00.000Z' });
    expect(departure.startsAt).toBe('2028-02-29T12:00:00.000Z');
  });

  it("never lists another workspace's departures", async () => {
    const other = await t.createWorkspace('ADMIN');
    const foreignTour = await createTour(t, other);
    await createDeparture(t, other, foreignTour.id, { startsAt: '2031-05-10T12:00:00.000Z' });
    const body = await list(`?tourId=${foreignTour.id}`);
    expect(body.data).toEqual([]);
    const all = await list('?from=2031-05-10&to=2031-05-10');
    expect(all.data.map((d: { tourId: string }) => d.tourId)).not.toContain(foreignTour.id);
  });
});

describe('updateAvailability', () => {
  const patch = (id: string, body: unknown) =>
    t.request('PATCH', `${availabilityPath()}/${id}`, { token: ws.token, body });

  // The documented status moves; every pair not listed (same-state aside) is 422.
  const ALLOWED: Record<string, string[]> = {
    SCHEDULED: ['DELAYED', 'BOARDING', 'DEPARTED', 'CANCELLED'],
    DELAYED: ['SCHEDULED', 'BOARDING', 'DEPARTED', 'CANCELLED'],
    BOARDING: ['DELAYED', 'DEPARTED', 'CANCELLED'],
    DEPARTED: ['COMPLETED'],
    COMPLETED: [],
    CANCELLED: [],
  };
  const STATUSES = Object.keys(ALLOWED);
  const pairs = STATUSES.flatMap((from) => STATUSES.map((to) => [from, to] as const));

  it.each(pairs)('status %s -> %s follows the transition table', async (from, to) => {
    const departure = await createDeparture(t, ws, tour.id);
    await setDepartureColumns(t, departure.id, { status: from });
    const res = await patch(departure.id, { status: to });
    if (from === to || ALLOWED[from]?.includes(to)) {
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data).toMatchObject({ id: departure.id, status: to });
    } else {
      expectError(res, 422, 'UNPROCESSABLE', [detail('status', 'invalid_transition')]);
      const stored = await t.api.database.knex('availability').where({ id: departure.id }).first();
      expect(stored.status).toBe(from);
    }
  });

  it('walks a departure through its whole day: SCHEDULED -> DELAYED -> BOARDING -> DEPARTED -> COMPLETED', async () => {
    const departure = await createDeparture(t, ws, tour.id);
    for (const status of ['DELAYED', 'BOARDING', 'DEPARTED', 'COMPLETED']) {
      const res = await patch(departure.id, { status });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data.status).toBe(status);
    }
    expectError(await patch(departure.id, { status: 'SCHEDULED' }), 422, 'UNPROCESSABLE', [
      detail('status', 'invalid_transition'),
    ]);
  });

  it('a capacity change moves seatsRemaining with it', async () => {
    const departure = await createDeparture(t, ws, tour.id, { capacity: 10 });
    const res = await patch(departure.id, { capacity: 14 });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ capacity: 14, seatsRemaining: 14, bookedSeats: 0 });
    const down = await patch(departure.id, { capacity: 3 });
    expect(down.body.data).toMatchObject({ capacity: 3, seatsRemaining: 3 });
  });

  it('capacity cannot drop below the booked seats (422 below_booked_seats); equal to them leaves 0 remaining', async () => {
    const departure = await createDeparture(t, ws, tour.id, { capacity: 10 });
    await setDepartureColumns(t, departure.id, { booked_seats: 6 });
    expectError(await patch(departure.id, { capacity: 5 }), 422, 'UNPROCESSABLE', [
      detail('capacity', 'below_booked_seats'),
    ]);
    const res = await patch(departure.id, { capacity: 6 });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ capacity: 6, bookedSeats: 6, seatsRemaining: 0 });
  });

  it('moves a SCHEDULED or DELAYED departure in time', async () => {
    for (const status of ['SCHEDULED', 'DELAYED']) {
      const departure = await createDeparture(t, ws, tour.id, { status });
      const res = await patch(departure.id, { startsAt: '2032-01-15T12:00:00+01:00' });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ startsAt: '2032-01-15T11:00:00.000Z', status });
    }
  });

  it.each(['BOARDING', 'DEPARTED', 'COMPLETED', 'CANCELLED'])(
    'a %s departure cannot move in time (422 startsAt invalid_state)',
    async (status) => {
      const departure = await createDeparture(t, ws, tour.id);
      await setDepartureColumns(t, departure.id, { status });
      expectError(await patch(departure.id, { startsAt: '2032-01-15T12:00:00.000Z' }), 422, 'UNPROCESSABLE', [
        detail('startsAt', 'invalid_state'),
      ]);
      // Re-sending the current start is no move.
      expect((await patch(departure.id, { startsAt: departure.startsAt })).status).toBe(200);
    },
  );

  it('a new start before the existing cutoff is 422 after_start; moving both together is fine', async () => {
    const departure = await createDeparture(t, ws, tour.id, {
      startsAt: '2031-07-01T10:00:00.000Z',
      bookingCutoffAt: '2031-07-01T08:00:00.000Z',
    });
    expectError(await patch(departure.id, { startsAt: '2031-07-01T07:00:00.000Z' }), 422, 'UNPROCESSABLE', [
      detail('bookingCutoffAt', 'after_start'),
    ]);
    const res = await patch(departure.id, {
      startsAt: '2031-07-01T07:00:00.000Z',
      bookingCutoffAt: '2031-07-01T05:00:00.000Z',
    });
    expect(res.body.data).toMatchObject({
      startsAt: '2031-07-01T07:00:00.000Z',
      bookingCutoffAt: '2031-07-01T05:00:00.000Z',
    });
  });

  it('bookingCutoffAt: null removes the cutoff', async () => {
    const departure = await createDeparture(t, ws, tour.id, {
      startsAt: '2031-07-02T10:00:00.000Z',
      bookingCutoffAt: '2031-07-02T08:00:00.000Z',
    });
    const res = await patch(departure.id, { bookingCutoffAt: null });
    expect(res.status).toBe(200);
    expect(res.body.data.bookingCutoffAt).toBeNull();
  });

  it('a rejected patch changes nothing, not even its valid parts', async () => {
    const departure = await createDeparture(t, ws, tour.id, { capacity: 10 });
    await setDepartureColumns(t, departure.id, { status: 'CANCELLED' });
    expectError(await patch(departure.id, { capacity: 12, status: 'SCHEDULED' }), 422, 'UNPROCESSABLE');
    const stored = await t.api.database.knex('availability').where({ id: departure.id }).first();
    expect(stored).toMatchObject({ capacity: 10, status: 'CANCELLED' });
  });

  it('an empty patch answers the departure unchanged', async () => {
    const departure = await createDeparture(t, ws, tour.id);
    const res = await patch(departure.id, {});
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(departure);
  });

  it('answers 404 NOT_FOUND for an unknown id', async () => {
    expectError(await patch(UNKNOWN_IDS.availability, { capacity: 3 }), 404, 'NOT_FOUND');
    expectError(await patch(UNKNOWN_IDS.availability, {}), 404, 'NOT_FOUND');
  });

  it.each([
    [{ tourId: 'tour_x' }, 'tourId', 'unknown_field'],
    [{ bookedSeats: 3 }, 'bookedSeats', 'unknown_field'],
    [{ status: 'GONE' }, 'status', 'invalid_enum'],
    [{ capacity: -4 }, 'capacity', 'out_of_range'],
    [{ startsAt: 'yesterday' }, 'startsAt', 'invalid_date_time'],
    [{ startsAt: null }, 'startsAt', 'invalid_type'],
  ])('rejects %j with %s %s', async (body, field, issue) => {
    const departure = await createDeparture(t, ws, tour.id);
    expectError(await patch(departure.id, body), 400, 'VALIDATION_ERROR', [detail(field, issue)]);
  });
});
