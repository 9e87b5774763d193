import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { book, bookingInput, bookingsPath, participants } from '../support/booking-fixtures.js';
import {
  createDeparture,
  createTour,
  expectError,
  fromNow,
  type TestWorkspace,
} from '../support/fixtures.js';
import { startTestApi, type TestApi } from '../support/harness.js';
import { must, opsPath } from '../support/operations-fixtures.js';

let t: TestApi;
let ws: TestWorkspace;
let tour: any;

beforeAll(async () => {
  t = await startTestApi();
  ws = await t.createWorkspace('ADMIN');
  tour = await createTour(t, ws, { name: 'Fjord Cruise', capacity: 10, isPublic: true });
});
afterAll(() => t.close());

const availabilityPath = (suffix = '') => `/workspaces/${ws.workspaceId}/availability${suffix}`;

/** The departure as the operator list, the public list and a PATCH answer it. */
async function statusesOf(departure: { id: string; tourId: string }) {
  const list = must(
    'list',
    await t.request('GET', `${availabilityPath()}?tourId=${departure.tourId}&limit=100`, { token: ws.token }),
    200,
  );
  const publicList = must(
    'public list',
    await t.request('GET', `/public/${ws.slug}/tours/${tour.slug}/availability`),
    200,
  );
  const patched = must(
    'patch',
    await t.request('PATCH', availabilityPath(`/${departure.id}`), { token: ws.token, body: {} }),
    200,
  );
  return {
    operator: list.find((d: any) => d.id === departure.id)?.salesStatus,
    public: publicList.find((d: any) => d.id === departure.id)?.salesStatus ?? 'not listed',
    patch: patched.salesStatus,
  };
}

const everywhere = (status: string) => ({ operator: status, public: status, patch: status });

/** Books `seats` participants in one MANUAL booking over HTTP. */
const take = (departureId: string, seats: number) =>
  book(t, ws, departureId, { paymentMode: 'MANUAL', participants: participants(seats) });

describe('salesStatus thresholds: LIMITED at most 3 seats or 20 % left, whichever is more', () => {
  it('capacity 10: 4 left AVAILABLE, 3 left LIMITED (3 seats beat 20 %), none left SOLD_OUT', async () => {
    const departure = await createDeparture(t, ws, tour.id, { capacity: 10 });
    expect(departure.salesStatus).toBe('AVAILABLE');
    await take(departure.id, 6);
    expect(await statusesOf(departure)).toEqual(everywhere('AVAILABLE'));
    await take(departure.id, 1);
    expect(await statusesOf(departure)).toEqual(everywhere('LIMITED'));
    await take(departure.id, 2);
    expect(await statusesOf(departure)).toEqual(everywhere('LIMITED'));
    await take(departure.id, 1);
    // Sold out is still listed publicly, so a widget can say so; booking it is 409.
    expect(await statusesOf(departure)).toEqual(everywhere('SOLD_OUT'));
    const refused = await t.request('POST', bookingsPath(ws), {
      token: ws.token,
      body: bookingInput(departure.id, { paymentMode: 'MANUAL' }),
    });
    expectError(refused, 409, 'CONFLICT');
  });

  it('capacity 30: 7 left AVAILABLE, 6 left LIMITED (20 % beats 3 seats)', async () => {
    const departure = await createDeparture(t, ws, tour.id, { capacity: 30 });
    await take(departure.id, 23);
    expect(await statusesOf(departure)).toEqual(everywhere('AVAILABLE'));
    await take(departure.id, 1);
    expect(await statusesOf(departure)).toEqual(everywhere('LIMITED'));
  });

  it('cancelling a booking gives the seats back: SOLD_OUT becomes LIMITED again', async () => {
    const departure = await createDeparture(t, ws, tour.id, { capacity: 2 });
    const booking = await take(departure.id, 2);
    expect((await statusesOf(departure)).operator).toBe('SOLD_OUT');
    must(
      'cancel',
      await t.request('POST', bookingsPath(ws, booking.id, '/status'), {
        token: ws.token,
        body: { status: 'CANCELLED' },
      }),
      200,
    );
    expect(await statusesOf(departure)).toEqual(everywhere('LIMITED'));
  });
});

describe('salesStatus CLOSED: whatever cannot be booked, seats or not', () => {
  it('a departure created past its booking cutoff answers CLOSED and is not listed publicly', async () => {
    const departure = await createDeparture(t, ws, tour.id, { bookingCutoffAt: fromNow(-1) });
    expect(departure.salesStatus).toBe('CLOSED');
    expect(await statusesOf(departure)).toEqual({
      operator: 'CLOSED',
      public: 'not listed',
      patch: 'CLOSED',
    });
  });

  it('a departure in the past is CLOSED', async () => {
    const departure = await createDeparture(t, ws, tour.id, { startsAt: fromNow(-2) });
    expect(departure.salesStatus).toBe('CLOSED');
  });

  it.each([
    ['CANCELLED', ['CANCELLED']],
    ['BOARDING', ['BOARDING']],
    ['DEPARTED', ['BOARDING', 'DEPARTED']],
    ['COMPLETED', ['BOARDING', 'DEPARTED', 'COMPLETED']],
  ])('a %s departure: the PATCH answers CLOSED', async (_status, moves) => {
    const departure = await createDeparture(t, ws, tour.id);
    let answer: any;
    for (const status of moves) {
      answer = must(
        'move',
        await t.request('PATCH', availabilityPath(`/${departure.id}`), { token: ws.token, body: { status } }),
        200,
      );
    }
    expect(answer.salesStatus).toBe('CLOSED');
    expect(await statusesOf(departure)).toEqual({
      operator: 'CLOSED',
      public: 'not listed',
      patch: 'CLOSED',
    });
  });

  it('a DELAYED departure still sells', async () => {
    const departure = await createDeparture(t, ws, tour.id, { status: 'DELAYED' });
    expect(departure.salesStatus).toBe('AVAILABLE');
  });

  it("a blackout closes the departures on the tour's local day: 23:30 in New York is the day before in UTC terms", async () => {
    const nyTour = await createTour(t, ws, {
      name: 'Harbor Lights',
      timeZone: 'America/New_York',
      isPublic: true,
    });
    // 23:30 EST on 14 January 2031 is 04:30Z on the 15th.
    const late = await createDeparture(t, ws, nyTour.id, { startsAt: '2031-01-14T23:30:00-05:00' });
    const nextMorning = await createDeparture(t, ws, nyTour.id, { startsAt: '2031-01-15T09:00:00-05:00' });
    expect(late.salesStatus).toBe('AVAILABLE');
    must(
      'blackout',
      await t.request('POST', opsPath(ws, '/blackout-dates'), {
        token: ws.token,
        body: { date: '2031-01-14', tourId: nyTour.id },
      }),
      201,
    );
    expect(await statusesOf(late)).toEqual({ operator: 'CLOSED', public: 'not listed', patch: 'CLOSED' });
    const listed = must(
      'list',
      await t.request('GET', `${availabilityPath()}?tourId=${nyTour.id}`, { token: ws.token }),
      200,
    );
    expect(listed.map((d: any) => [d.id, d.salesStatus])).toEqual([
      [late.id, 'CLOSED'],
      [nextMorning.id, 'AVAILABLE'],
    ]);
    // Booking agrees with what the status says.
    const refused = await t.request('POST', bookingsPath(ws), {
      token: ws.token,
      body: bookingInput(late.id, { paymentMode: 'MANUAL' }),
    });
    expectError(refused, 422, 'UNPROCESSABLE', [{ field: 'availabilityId', issue: 'blackout_date' }]);
    await book(t, ws, nextMorning.id, { paymentMode: 'MANUAL' });
  });

  it('a workspace-wide blackout closes every tour on its local day', async () => {
    const departure = await createDeparture(t, ws, tour.id, { startsAt: '2031-02-03T10:00:00Z' });
    must(
      'blackout',
      await t.request('POST', opsPath(ws, '/blackout-dates'), {
        token: ws.token,
        body: { date: '2031-02-03' },
      }),
      201,
    );
    expect((await statusesOf(departure)).operator).toBe('CLOSED');
  });
});

describe('listAvailability reads blackouts and tours once per page, not per departure', () => {
  it('the number of queries of a page does not grow with its departures or tours', async () => {
    const own = await t.createWorkspace('ADMIN');
    const tours = [
      await createTour(t, own, { name: 'A', timeZone: 'Europe/Berlin' }),
      await createTour(t, own, { name: 'B', timeZone: 'Asia/Tokyo' }),
      await createTour(t, own, { name: 'C' }),
    ];
    const knex = t.api.database.knex;
    const queriesOf = async (path: string) => {
      let count = 0;
      const onQuery = () => {
        count++;
      };
      knex.on('query', onQuery);
      try {
        must('list', await t.request('GET', path, { token: own.token }), 200);
      } finally {
        knex.removeListener('query', onQuery);
      }
      return count;
    };
    for (const [i, each] of tours.entries())
      await createDeparture(t, own, each.id, { startsAt: fromNow(10 + i) });
    // A read admits a token it verified seconds ago without reading it again: both counts below
    // see it remembered.
    must(
      'warm-up',
      await t.request('GET', `/workspaces/${own.workspaceId}/tours`, { token: own.token }),
      200,
    );
    const few = await queriesOf(`/workspaces/${own.workspaceId}/availability?limit=100`);
    for (let i = 0; i < 30; i++) {
      await createDeparture(t, own, (tours[i % 3] as any).id, { startsAt: fromNow(20 + i) });
    }
    const many = await queriesOf(`/workspaces/${own.workspaceId}/availability?limit=100`);
    // The departures, their tours, the blackouts of their days, plus the credential's reads.
    expect(few).toBeGreaterThanOrEqual(3);
    expect(many).toBe(few);
  });
});

describe('/openapi.json', () => {
  it('the Availability schema has salesStatus, required, with its four values', async () => {
    const doc = await t.request('GET', '/openapi.json');
    const availability = doc.body.components.schemas.Availability;
    expect(availability.properties.salesStatus.enum).toEqual(['AVAILABLE', 'LIMITED', 'SOLD_OUT', 'CLOSED']);
    expect(availability.required).toContain('salesStatus');
    expect(doc.body.paths['/workspaces/{workspaceId}/availability'].get.description).toMatch(/LIMITED/);
  });
});
