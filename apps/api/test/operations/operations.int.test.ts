import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { book, bookingInput } from '../support/booking-fixtures.js';
import {
  createCustomer,
  createDeparture,
  createTour,
  detail,
  expectError,
  ISO_MS,
  type TestWorkspace,
} from '../support/fixtures.js';
import { startTestApi, type TestApi } from '../support/harness.js';
import { assign, must, newGuide, newMember, newVehicle, opsPath } from '../support/operations-fixtures.js';

let t: TestApi;
let ws: TestWorkspace;
let other: TestWorkspace;

beforeAll(async () => {
  t = await startTestApi();
  ws = await t.createWorkspace('ADMIN');
  other = await t.createWorkspace('ADMIN');
});
afterAll(() => t.close());

describe('blackout dates', () => {
  it('hide departures from public availability and refuse bookings (API and public): 422 blackout_date', async () => {
    const tour = await createTour(t, ws, { isPublic: true, slug: 'blackout-walk' });
    const otherTour = await createTour(t, ws, { isPublic: true, slug: 'blackout-other' });
    const closed = await createDeparture(t, ws, tour.id, { startsAt: '2031-05-01T09:00:00.000Z' });
    const open = await createDeparture(t, ws, tour.id, { startsAt: '2031-05-02T09:00:00.000Z' });
    const otherOpen = await createDeparture(t, ws, otherTour.id, { startsAt: '2031-05-01T09:00:00.000Z' });

    const blackout = must(
      'blackout',
      await t.request('POST', opsPath(ws, '/blackout-dates'), {
        token: ws.token,
        body: { date: '2031-05-01', tourId: tour.id, reason: 'Harbour festival' },
      }),
      201,
    );
    expect(blackout).toMatchObject({
      id: expect.stringMatching(/^blk_/),
      date: '2031-05-01',
      tourId: tour.id,
    });
    expect(blackout.createdAt).toMatch(ISO_MS);

    const listed = await t.request('GET', `/public/${ws.slug}/tours/blackout-walk/availability`);
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((d: { id: string }) => d.id)).toEqual([open.id]);
    // Another tour's day is not closed by this tour's blackout.
    const others = await t.request('GET', `/public/${ws.slug}/tours/blackout-other/availability`);
    expect(others.body.data.map((d: { id: string }) => d.id)).toEqual([otherOpen.id]);

    expectError(
      await t.request('POST', opsPath(ws, '/bookings'), { token: ws.token, body: bookingInput(closed.id) }),
      422,
      'UNPROCESSABLE',
      [detail('availabilityId', 'blackout_date')],
    );
    expectError(
      await t.request('POST', `/public/${ws.slug}/bookings`, { body: bookingInput(closed.id) }),
      422,
      'UNPROCESSABLE',
      [detail('availabilityId', 'blackout_date')],
    );

    // Reopening the day makes the departure bookable again.
    must(
      'delete blackout',
      await t.request('DELETE', opsPath(ws, `/blackout-dates/${blackout.id}`), { token: ws.token }),
      200,
    );
    await book(t, ws, closed.id);
  });

  it('a workspace-wide blackout closes every tour; the same day twice is 409; unknown tour 422', async () => {
    const tour = await createTour(t, ws, { isPublic: true, slug: 'wide-walk' });
    const departure = await createDeparture(t, ws, tour.id, { startsAt: '2031-06-01T22:30:00.000Z' });
    must(
      'blackout',
      await t.request('POST', opsPath(ws, '/blackout-dates'), {
        token: ws.token,
        body: { date: '2031-06-01' },
      }),
      201,
    );
    expectError(
      await t.request('POST', opsPath(ws, '/blackout-dates'), {
        token: ws.token,
        body: { date: '2031-06-01' },
      }),
      409,
      'CONFLICT',
      [detail('date', 'already_exists')],
    );
    expectError(
      await t.request('POST', opsPath(ws, '/blackout-dates'), {
        token: ws.token,
        body: { date: '2031-06-02', tourId: `tour_${'0'.repeat(22)}` },
      }),
      422,
      'UNPROCESSABLE',
      [detail('tourId', 'not_found')],
    );
    const listed = await t.request('GET', `/public/${ws.slug}/tours/wide-walk/availability`);
    expect(listed.body.data).toEqual([]);
    expectError(
      await t.request('POST', opsPath(ws, '/bookings'), {
        token: ws.token,
        body: bookingInput(departure.id),
      }),
      422,
      'UNPROCESSABLE',
      [detail('availabilityId', 'blackout_date')],
    );
    const page = await t.request(
      'GET',
      opsPath(ws, `/blackout-dates?from=2031-06-01&to=2031-06-01&tourId=${tour.id}`),
      {
        token: ws.token,
      },
    );
    expect(page.body.data.map((b: { date: string }) => b.date)).toEqual(['2031-06-01']);
  });

  it('strict input: unknown fields 400 unknown_field; a bad date 400', async () => {
    expectError(
      await t.request('POST', opsPath(ws, '/blackout-dates'), {
        token: ws.token,
        body: { date: '2031-02-30', extra: 1 },
      }),
      400,
      'VALIDATION_ERROR',
      [detail('date', 'invalid_date'), detail('extra', 'unknown_field')],
    );
  });
});

describe('incidents', () => {
  const outbox = (type: string) =>
    t.api.database.knex('outbox_events').where({ workspace_id: ws.workspaceId, type }).orderBy('seq');

  it('HIGH and CRITICAL emit incident.created in the same transaction; LOW and MEDIUM do not', async () => {
    const tour = await createTour(t, ws);
    const departure = await createDeparture(t, ws, tour.id);
    const booking = await book(t, ws, departure.id);
    const before = (await outbox('incident.created')).length;
    const created: Record<string, any> = {};
    for (const severity of ['LOW', 'MEDIUM', 'HIGH', 'CRITICAL']) {
      created[severity] = must(
        'incident',
        await t.request('POST', opsPath(ws, '/incidents'), {
          token: ws.token,
          body: {
            severity,
            title: `${severity} flat tyre`,
            occurredAt: '2031-01-02T10:00:00Z',
            bookingId: booking.id,
          },
        }),
        201,
      );
    }
    expect(created.HIGH).toMatchObject({
      id: expect.stringMatching(/^inc_/),
      status: 'OPEN',
      availabilityId: departure.id,
      bookingId: booking.id,
      occurredAt: '2031-01-02T10:00:00.000Z',
      reportedBy: expect.stringMatching(/^tok_/),
      resolvedAt: null,
    });
    const events = (await outbox('incident.created')).slice(before);
    expect(events.map((e: { aggregate_id: string }) => e.aggregate_id)).toEqual([
      created.HIGH.id,
      created.CRITICAL.id,
    ]);
    const payload = typeof events[0].payload === 'string' ? JSON.parse(events[0].payload) : events[0].payload;
    expect(payload).toMatchObject({
      type: 'incident.created',
      workspaceId: ws.workspaceId,
      data: created.HIGH,
    });
  });

  it("references must be this workspace's and agree: precise 422s", async () => {
    const tour = await createTour(t, ws);
    const departure = await createDeparture(t, ws, tour.id);
    const elsewhere = await createDeparture(t, ws, tour.id);
    const booking = await book(t, ws, departure.id);
    const foreignTour = await createTour(t, other);
    const foreign = await createDeparture(t, other, foreignTour.id);
    const base = { severity: 'LOW', title: 'x', occurredAt: '2031-01-02T10:00:00Z' };
    const post = (body: object) =>
      t.request('POST', opsPath(ws, '/incidents'), { token: ws.token, body: { ...base, ...body } });
    expectError(await post({ availabilityId: foreign.id }), 422, 'UNPROCESSABLE', [
      detail('availabilityId', 'not_found'),
    ]);
    expectError(await post({ bookingId: `bkg_${'0'.repeat(22)}` }), 422, 'UNPROCESSABLE', [
      detail('bookingId', 'not_found'),
    ]);
    expectError(await post({ availabilityId: elsewhere.id, bookingId: booking.id }), 422, 'UNPROCESSABLE', [
      detail('bookingId', 'different_departure'),
    ]);
  });

  it('status moves, resolvedAt, CLOSED is final; filters by severity, status and occurredAt dates', async () => {
    const create = async (severity: string, occurredAt: string) =>
      must(
        'incident',
        await t.request('POST', opsPath(other, '/incidents'), {
          token: other.token,
          body: { severity, title: 'Lost passport', occurredAt },
        }),
        201,
      );
    const a = await create('MEDIUM', '2031-03-01T08:00:00Z');
    const b = await create('LOW', '2031-03-02T08:00:00Z');
    await create('MEDIUM', '2031-03-05T08:00:00Z');
    const patch = (id: string, body: object) =>
      t.request('PATCH', opsPath(other, `/incidents/${id}`), { token: other.token, body });
    const resolved = must('resolve', await patch(a.id, { status: 'RESOLVED' }), 200);
    expect(resolved.resolvedAt).toMatch(ISO_MS);
    const closed = must('close', await patch(a.id, { status: 'CLOSED' }), 200);
    expect(closed.resolvedAt).toBe(resolved.resolvedAt);
    expectError(await patch(a.id, { status: 'OPEN' }), 422, 'UNPROCESSABLE', [
      detail('status', 'invalid_transition'),
    ]);

    const list = async (query: string) =>
      (await t.request('GET', opsPath(other, `/incidents?${query}`), { token: other.token })).body.data.map(
        (i: { id: string }) => i.id,
      );
    expect(await list('from=2031-03-01&to=2031-03-02')).toEqual([b.id, a.id]);
    expect(await list('severity=LOW')).toEqual([b.id]);
    expect(await list('status=CLOSED')).toEqual([a.id]);
    expect(
      (await t.request('GET', opsPath(other, `/incidents/${a.id}`), { token: other.token })).body.data.status,
    ).toBe('CLOSED');
  });
});

describe('itineraries', () => {
  it("items come back by start time; a booking must be the same customer's; the public view is redacted", async () => {
    const tour = await createTour(t, ws);
    const departure = await createDeparture(t, ws, tour.id, { startsAt: '2031-07-02T09:00:00.000Z' });
    const customer = await createCustomer(t, ws, { name: 'Ada Traveller' });
    const own = await book(t, ws, departure.id, {
      customer: { name: 'Ada Traveller', email: customer.email },
    });
    const stranger = await book(t, ws, departure.id);

    const itinerary = must(
      'itinerary',
      await t.request('POST', opsPath(ws, '/itineraries'), {
        token: ws.token,
        body: {
          customerId: customer.id,
          title: 'Amalfi week',
          startsOn: '2031-07-01',
          endsOn: '2031-07-07',
          notes: 'VIP: upgrade if possible',
        },
      }),
      201,
    );
    expect(itinerary).toMatchObject({ id: expect.stringMatching(/^itn_/), items: [] });
    expect(itinerary.publicToken).toMatch(/^[A-Za-z0-9]{32}$/);
    const items = opsPath(ws, `/itineraries/${itinerary.id}/items`);
    const add = (body: object) => t.request('POST', items, { token: ws.token, body });

    const dinner = must(
      'dinner',
      await add({ type: 'MEAL', title: 'Welcome dinner', startsAt: '2031-07-01T19:00:00Z' }),
      201,
    );
    const walk = must(
      'walk',
      await add({
        type: 'ACTIVITY',
        title: 'Harbour walk',
        startsAt: '2031-07-02T09:00:00Z',
        bookingId: own.id,
        description: 'Meet at the pier',
        operatorNotes: 'Guide owes us a favour',
      }),
      201,
    );
    const transfer = must(
      'transfer',
      await add({
        type: 'TRANSFER',
        title: 'Airport pickup',
        startsAt: '2031-07-01T10:00:00Z',
        location: 'NAP',
      }),
      201,
    );
    expect(walk.id).toMatch(/^iti_/);

    expectError(
      await add({ type: 'ACTIVITY', title: 'x', startsAt: '2031-07-02T09:00:00Z', bookingId: stranger.id }),
      422,
      'UNPROCESSABLE',
      [detail('bookingId', 'different_customer')],
    );
    expectError(
      await add({ type: 'ACTIVITY', title: 'x', startsAt: '2031-08-01T09:00:00Z' }),
      422,
      'UNPROCESSABLE',
      [detail('startsAt', 'outside_itinerary')],
    );

    const got = must(
      'get',
      await t.request('GET', opsPath(ws, `/itineraries/${itinerary.id}`), { token: ws.token }),
      200,
    );
    expect(got.items.map((i: { id: string }) => i.id)).toEqual([transfer.id, dinner.id, walk.id]);

    // Moving an item reorders the plan.
    must(
      'move',
      await t.request('PATCH', `${items}/${transfer.id}`, {
        token: ws.token,
        body: { startsAt: '2031-07-03T10:00:00Z' },
      }),
      200,
    );
    must('delete', await t.request('DELETE', `${items}/${dinner.id}`, { token: ws.token }), 200);
    const again = must(
      'get',
      await t.request('GET', opsPath(ws, `/itineraries/${itinerary.id}`), { token: ws.token }),
      200,
    );
    expect(again.items.map((i: { id: string }) => i.id)).toEqual([walk.id, transfer.id]);

    const pub = await t.request('GET', `/public/itineraries/${itinerary.publicToken}`);
    expect(pub.status).toBe(200);
    expect(pub.headers.get('cache-control')).toBe('no-store');
    expect(pub.headers.get('referrer-policy')).toBe('no-referrer');
    expect(pub.body.data).toEqual({
      title: 'Amalfi week',
      travellerName: 'Ada Traveller',
      startsOn: '2031-07-01',
      endsOn: '2031-07-07',
      items: [
        {
          type: 'ACTIVITY',
          title: 'Harbour walk',
          startsAt: '2031-07-02T09:00:00.000Z',
          endsAt: null,
          location: null,
          description: 'Meet at the pier',
          bookingStatus: 'PENDING',
        },
        {
          type: 'TRANSFER',
          title: 'Airport pickup',
          startsAt: '2031-07-03T10:00:00.000Z',
          endsAt: null,
          location: 'NAP',
          description: null,
          bookingStatus: null,
        },
      ],
    });
    const text = JSON.stringify(pub.body);
    for (const secret of ['favour', 'VIP', own.id, customer.id, customer.email, itinerary.id, stranger.id]) {
      expect(text).not.toContain(secret);
    }
    expectError(await t.request('GET', `/public/itineraries/${'x'.repeat(32)}`), 404, 'NOT_FOUND');
  });

  it('unknown customer 422; dates reversed 422; list filters by overlapping days and customer', async () => {
    const customer = await createCustomer(t, other);
    const post = (body: object) =>
      t.request('POST', opsPath(other, '/itineraries'), { token: other.token, body });
    expectError(
      await post({
        customerId: `cus_${'0'.repeat(22)}`,
        title: 'x',
        startsOn: '2031-01-01',
        endsOn: '2031-01-02',
      }),
      422,
      'UNPROCESSABLE',
      [detail('customerId', 'not_found')],
    );
    expectError(
      await post({ customerId: customer.id, title: 'x', startsOn: '2031-01-05', endsOn: '2031-01-02' }),
      422,
      'UNPROCESSABLE',
      [detail('endsOn', 'before_start')],
    );
    const jan = must(
      'jan',
      await post({ customerId: customer.id, title: 'Jan', startsOn: '2031-01-01', endsOn: '2031-01-10' }),
      201,
    );
    const feb = must(
      'feb',
      await post({ customerId: customer.id, title: 'Feb', startsOn: '2031-02-01', endsOn: '2031-02-03' }),
      201,
    );
    const list = async (query: string) =>
      (await t.request('GET', opsPath(other, `/itineraries?${query}`), { token: other.token })).body.data.map(
        (i: { id: string }) => i.id,
      );
    expect(await list('from=2031-01-10&to=2031-02-01')).toEqual([jan.id, feb.id]);
    expect(await list('from=2031-01-11&to=2031-01-31')).toEqual([]);
    expect(await list(`customerId=${customer.id}&limit=1`)).toEqual([jan.id]);
  });
});

describe('vehicles and vendors', () => {
  it('CRUD with strict input, filters, and a registration unique in the workspace', async () => {
    const van = await newVehicle(t, other, { registration: 'NA-123-XY', notes: 'Aircon weak' });
    expect(van).toMatchObject({ id: expect.stringMatching(/^veh_/), status: 'ACTIVE', seats: 12 });
    expectError(
      await t.request('POST', opsPath(other, '/vehicles'), {
        token: other.token,
        body: { name: 'Twin', seats: 4, registration: 'na-123-xy' },
      }),
      409,
      'CONFLICT',
      [detail('registration', 'already_exists')],
    );
    expectError(
      await t.request('POST', opsPath(other, '/vehicles'), {
        token: other.token,
        body: { name: 'Bus', seats: 0, colour: 'red' },
      }),
      400,
      'VALIDATION_ERROR',
      [detail('seats', 'out_of_range'), detail('colour', 'unknown_field')],
    );
    const patched = must(
      'patch',
      await t.request('PATCH', opsPath(other, `/vehicles/${van.id}`), {
        token: other.token,
        body: { status: 'MAINTENANCE' },
      }),
      200,
    );
    expect(patched.status).toBe('MAINTENANCE');
    const listed = await t.request('GET', opsPath(other, '/vehicles?status=MAINTENANCE'), {
      token: other.token,
    });
    expect(listed.body.data.map((v: { id: string }) => v.id)).toEqual([van.id]);
    must(
      'delete',
      await t.request('DELETE', opsPath(other, `/vehicles/${van.id}`), { token: other.token }),
      200,
    );
    expectError(
      await t.request('GET', opsPath(other, `/vehicles/${van.id}`), { token: other.token }),
      404,
      'NOT_FOUND',
    );

    const vendor = must(
      'vendor',
      await t.request('POST', opsPath(other, '/vendors'), {
        token: other.token,
        body: {
          name: 'Trattoria Da Mario',
          category: 'FOOD',
          email: 'mario@example.com',
          phone: '+39 081 555 0101',
        },
      }),
      201,
    );
    expect(vendor.id).toMatch(/^vnd_/);
    const renamed = must(
      'patch vendor',
      await t.request('PATCH', opsPath(other, `/vendors/${vendor.id}`), {
        token: other.token,
        body: { contactName: 'Mario' },
      }),
      200,
    );
    expect(renamed).toMatchObject({ name: 'Trattoria Da Mario', contactName: 'Mario' });
    const food = await t.request('GET', opsPath(other, '/vendors?category=FOOD'), { token: other.token });
    expect(food.body.data.map((v: { id: string }) => v.id)).toEqual([vendor.id]);
    expectError(
      await t.request('POST', opsPath(other, '/vendors'), {
        token: other.token,
        body: { name: 'X', category: 'SPA' },
      }),
      400,
      'VALIDATION_ERROR',
      [detail('category', 'invalid_enum')],
    );
    must(
      'delete vendor',
      await t.request('DELETE', opsPath(other, `/vendors/${vendor.id}`), { token: other.token }),
      200,
    );
  });
});

describe('guides, time-off and assignments', () => {
  it('the guide e-mail is shown to ADMIN tokens and signed-in members, null to READ_ONLY and OPERATIONS tokens', async () => {
    const memberId = await newMember(t, ws);
    must(
      'guide',
      await t.request('POST', opsPath(ws, '/guides'), {
        token: ws.token,
        body: { memberId, displayName: 'Eve' },
      }),
      201,
    );
    const emailSeenBy = async (options: {
      token?: string;
      session?: Awaited<ReturnType<TestApi['memberSession']>>;
    }) => {
      const res = await t.request('GET', opsPath(ws, '/guides?limit=100'), options);
      expect(res.status).toBe(200);
      return res.body.data.find((guide: { memberId: string }) => guide.memberId === memberId).email;
    };
    expect(await emailSeenBy({ token: ws.token })).toContain('@');
    expect(await emailSeenBy({ session: await t.memberSession(ws.workspaceId, 'READ_ONLY') })).toContain('@');
    for (const role of ['READ_ONLY', 'OPERATIONS'] as const) {
      const { token } = await t.createToken(ws.workspaceId, role);
      expect(await emailSeenBy({ token })).toBeNull();
    }
  });

  it('a member becomes a guide; time-off lists by from/to; unknown member 422; twice 409', async () => {
    const memberId = await newMember(t, ws);
    const guide = must(
      'guide',
      await t.request('POST', opsPath(ws, '/guides'), {
        token: ws.token,
        body: {
          memberId,
          displayName: 'Marco',
          languages: ['it', 'en', 'it'],
          certifications: ['First aid'],
        },
      }),
      201,
    );
    expect(guide).toMatchObject({
      memberId,
      isGuide: true,
      languages: ['it', 'en'],
      email: expect.stringContaining('@'),
    });
    expectError(
      await t.request('POST', opsPath(ws, '/guides'), {
        token: ws.token,
        body: { memberId, displayName: 'Again' },
      }),
      409,
      'CONFLICT',
      [detail('memberId', 'already_exists')],
    );
    expectError(
      await t.request('POST', opsPath(ws, '/guides'), {
        token: ws.token,
        body: { memberId: `mem_${'0'.repeat(22)}`, displayName: 'X' },
      }),
      422,
      'UNPROCESSABLE',
      [detail('memberId', 'not_found')],
    );
    const offPath = opsPath(ws, `/guides/${memberId}/time-off`);
    const off = must(
      'time off',
      await t.request('POST', offPath, {
        token: ws.token,
        body: { startsAt: '2031-09-01T00:00:00Z', endsAt: '2031-09-03T00:00:00Z', reason: 'Wedding' },
      }),
      201,
    );
    expect(off.id).toMatch(/^off_/);
    expectError(
      await t.request('POST', offPath, {
        token: ws.token,
        body: { startsAt: '2031-09-05T00:00:00Z', endsAt: '2031-09-04T00:00:00Z' },
      }),
      422,
      'UNPROCESSABLE',
      [detail('endsAt', 'before_start')],
    );
    const inRange = await t.request('GET', `${offPath}?from=2031-09-02&to=2031-09-10`, { token: ws.token });
    expect(inRange.body.data.map((o: { id: string }) => o.id)).toEqual([off.id]);
    const outside = await t.request('GET', `${offPath}?from=2031-09-03&to=2031-09-10`, { token: ws.token });
    expect(outside.body.data).toEqual([]);
    const guides = await t.request('GET', opsPath(ws, '/guides?limit=100'), { token: ws.token });
    expect(guides.body.data.map((g: { memberId: string }) => g.memberId)).toContain(memberId);
    must('delete off', await t.request('DELETE', `${offPath}/${off.id}`, { token: ws.token }), 200);
  });

  it('refuses a guide on time-off, double-booked, or not a guide; vehicles too small or busy; unknown ids', async () => {
    const tour = await createTour(t, ws, { durationMinutes: 120, capacity: 10 });
    const first = await createDeparture(t, ws, tour.id, { startsAt: '2031-10-01T09:00:00.000Z' });
    const overlapping = await createDeparture(t, ws, tour.id, { startsAt: '2031-10-01T10:30:00.000Z' });
    const backToBack = await createDeparture(t, ws, tour.id, { startsAt: '2031-10-01T11:00:00.000Z' });
    const guideId = await newGuide(t, ws);
    must('assign', await assign(t, ws, first.id, { guideId }), 200);
    expectError(await assign(t, ws, overlapping.id, { guideId }), 422, 'UNPROCESSABLE', [
      detail('guideId', 'guide_double_booked'),
    ]);
    // The driver seat is a member too: busy as guide means busy.
    expectError(await assign(t, ws, overlapping.id, { driverId: guideId }), 422, 'UNPROCESSABLE', [
      detail('driverId', 'driver_double_booked'),
    ]);
    must('back to back', await assign(t, ws, backToBack.id, { guideId }), 200);

    const resting = await newGuide(t, ws);
    must(
      'time off',
      await t.request('POST', opsPath(ws, `/guides/${resting}/time-off`), {
        token: ws.token,
        body: { startsAt: '2031-10-01T10:00:00Z', endsAt: '2031-10-01T12:00:00Z' },
      }),
      201,
    );
    expectError(await assign(t, ws, first.id, { guideId: resting }), 422, 'UNPROCESSABLE', [
      detail('guideId', 'guide_unavailable_time_off'),
    ]);
    const plainMember = await newMember(t, ws);
    expectError(await assign(t, ws, overlapping.id, { guideId: plainMember }), 422, 'UNPROCESSABLE', [
      detail('guideId', 'not_a_guide'),
    ]);
    must('driver', await assign(t, ws, overlapping.id, { driverId: plainMember }), 200);
    expectError(
      await assign(t, ws, overlapping.id, { guideId: `mem_${'0'.repeat(22)}` }),
      422,
      'UNPROCESSABLE',
      [detail('guideId', 'not_found')],
    );

    const small = await newVehicle(t, ws, { seats: 9 });
    const big = await newVehicle(t, ws, { seats: 20 });
    expectError(await assign(t, ws, first.id, { vehicleId: small.id }), 422, 'UNPROCESSABLE', [
      detail('vehicleId', 'vehicle_too_small'),
    ]);
    const assigned = must('vehicle', await assign(t, ws, first.id, { vehicleId: big.id }), 200);
    expect(assigned).toMatchObject({ guideId, vehicleId: big.id });
    expectError(await assign(t, ws, overlapping.id, { vehicleId: big.id }), 422, 'UNPROCESSABLE', [
      detail('vehicleId', 'vehicle_double_booked'),
    ]);
    // Growing the departure past the vehicle's seats is refused too.
    expectError(await assign(t, ws, first.id, { capacity: 21 }), 422, 'UNPROCESSABLE', [
      detail('vehicleId', 'vehicle_too_small'),
    ]);
    const foreignVehicle = await newVehicle(t, other);
    expectError(await assign(t, ws, first.id, { vehicleId: foreignVehicle.id }), 422, 'UNPROCESSABLE', [
      detail('vehicleId', 'not_found'),
    ]);
    expectError(
      await t.request('DELETE', opsPath(ws, `/vehicles/${big.id}`), { token: ws.token }),
      422,
      'UNPROCESSABLE',
      [detail('id', 'vehicle_in_use')],
    );
    // Unassigning frees the guide.
    must('unassign', await assign(t, ws, first.id, { guideId: null }), 200);
    must('unassign', await assign(t, ws, backToBack.id, { guideId: null }), 200);
    expect(must('now free', await assign(t, ws, overlapping.id, { guideId }), 200).guideId).toBe(guideId);
  });

  it('two concurrent assignments of one guide to overlapping departures: exactly one succeeds', async () => {
    const tour = await createTour(t, ws, { durationMinutes: 180 });
    for (let round = 0; round < 5; round++) {
      const a = await createDeparture(t, ws, tour.id, { startsAt: `2032-01-0${round + 1}T09:00:00.000Z` });
      const b = await createDeparture(t, ws, tour.id, { startsAt: `2032-01-0${round + 1}T10:00:00.000Z` });
      const guideId = await newGuide(t, ws);
      const results = await Promise.all([assign(t, ws, a.id, { guideId }), assign(t, ws, b.id, { guideId })]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 422]);
      const loser = results.find((r) => r.status === 422);
      expect(loser?.body.error.details).toEqual([detail('guideId', 'guide_double_booked')]);
    }
  });
});

describe('workspace scoping and roles', () => {
  it("another workspace's records are 404 under this workspace", async () => {
    const vehicle = await newVehicle(t, other);
    const incident = must(
      'incident',
      await t.request('POST', opsPath(other, '/incidents'), {
        token: other.token,
        body: { severity: 'LOW', title: 'x', occurredAt: '2031-01-01T00:00:00Z' },
      }),
      201,
    );
    const customer = await createCustomer(t, other);
    const itinerary = must(
      'itinerary',
      await t.request('POST', opsPath(other, '/itineraries'), {
        token: other.token,
        body: { customerId: customer.id, title: 'Secret trip', startsOn: '2031-01-01', endsOn: '2031-01-02' },
      }),
      201,
    );
    const guide = await newGuide(t, other, 'Hidden');
    for (const [method, path, body] of [
      ['GET', `/vehicles/${vehicle.id}`, undefined],
      ['PATCH', `/vehicles/${vehicle.id}`, { name: 'Hijacked' }],
      ['DELETE', `/vehicles/${vehicle.id}`, undefined],
      ['GET', `/incidents/${incident.id}`, undefined],
      ['PATCH', `/incidents/${incident.id}`, { status: 'CLOSED' }],
      ['GET', `/itineraries/${itinerary.id}`, undefined],
      [
        'POST',
        `/itineraries/${itinerary.id}/items`,
        { type: 'OTHER', title: 'x', startsAt: '2031-01-01T10:00:00Z' },
      ],
      ['PATCH', `/guides/${guide}`, { displayName: 'Hijacked' }],
      ['GET', `/guides/${guide}/time-off`, undefined],
      [
        'POST',
        `/guides/${guide}/time-off`,
        { startsAt: '2031-01-01T00:00:00Z', endsAt: '2031-01-02T00:00:00Z' },
      ],
    ] as const) {
      const res = await t.request(method, opsPath(ws, path), { token: ws.token, ...(body && { body }) });
      expectError(res, 404, 'NOT_FOUND');
      expect(JSON.stringify(res.body)).not.toContain('Secret');
    }
    expect(
      (await t.request('GET', opsPath(other, `/vehicles/${vehicle.id}`), { token: other.token })).body.data
        .name,
    ).not.toBe('Hijacked');
  });

  it('READ_ONLY reads but every operations write is 403', async () => {
    const reader = await t.createToken(ws.workspaceId, 'READ_ONLY');
    for (const list of ['blackout-dates', 'guides', 'vehicles', 'vendors', 'incidents', 'itineraries']) {
      expect((await t.request('GET', opsPath(ws, `/${list}`), { token: reader.token })).status).toBe(200);
    }
    for (const [path, body] of [
      ['/blackout-dates', { date: '2033-01-01' }],
      ['/vehicles', { name: 'Van', seats: 8 }],
      ['/vendors', { name: 'V', category: 'OTHER' }],
      ['/incidents', { severity: 'HIGH', title: 'x', occurredAt: '2031-01-01T00:00:00Z' }],
      ['/itineraries', { customerId: 'cus_x', title: 'x', startsOn: '2031-01-01', endsOn: '2031-01-01' }],
      ['/guides', { memberId: 'mem_x', displayName: 'x' }],
    ] as const) {
      expectError(
        await t.request('POST', opsPath(ws, path), { token: reader.token, body }),
        403,
        'FORBIDDEN',
      );
    }
  });
});
