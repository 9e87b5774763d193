import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { book, bookingInput, bookingsPath, getBooking } from '../support/booking-fixtures.js';
import { createDeparture, createTour, detail, expectError, type TestWorkspace } from '../support/fixtures.js';
import { startTestApi, type TestApi } from '../support/harness.js';

let t: TestApi;
let ws: TestWorkspace;
beforeAll(async () => {
  t = await startTestApi();
  ws = await t.createWorkspace('ADMIN');
});
afterAll(() => t.close());

const toursPath = () => `/workspaces/${ws.workspaceId}/tours`;

const FAMILY_TYPES = [
  { name: 'Adult', ageBand: 'ADULT', price: 4000 },
  { name: 'Child (4-12)', ageBand: 'CHILD', price: 2000, minAge: 4, maxAge: 12, requiresAdult: true },
  { name: 'Infant', ageBand: 'INFANT', price: 0, maxPerBooking: 2, requiresAdult: true },
  { name: 'Senior', ageBand: 'SENIOR', price: 3000 },
];

async function familyTour(overrides: Record<string, unknown> = {}) {
  return createTour(t, ws, { basePrice: 9999, ticketTypes: FAMILY_TYPES, ...overrides });
}

const typeOf = (tour: { ticketTypes: { id: string; ageBand: string }[] }, band: string) =>
  tour.ticketTypes.find((type) => type.ageBand === band)?.id as string;

describe('ticket types on the tour', () => {
  it('creates the types with tt_ ids and defaults, keeps the order, and reads them back', async () => {
    const tour = await familyTour({ timeZone: 'Europe/Berlin' });
    expect(tour.timeZone).toBe('Europe/Berlin');
    expect(tour.ticketTypes).toEqual([
      {
        id: expect.stringMatching(/^tt_[0-9A-Za-z]{22}$/),
        name: 'Adult',
        ageBand: 'ADULT',
        price: 4000,
        minAge: null,
        maxAge: null,
        minPerBooking: null,
        maxPerBooking: null,
        requiresAdult: false,
      },
      expect.objectContaining({ name: 'Child (4-12)', minAge: 4, maxAge: 12, requiresAdult: true }),
      expect.objectContaining({ name: 'Infant', price: 0, maxPerBooking: 2 }),
      expect.objectContaining({ name: 'Senior', ageBand: 'SENIOR' }),
    ]);
    const read = await t.request('GET', `${toursPath()}/${tour.id}`, { token: ws.token });
    expect(read.body.data.ticketTypes).toEqual(tour.ticketTypes);
  });

  it('a PATCH replaces the list: an id keeps and changes its type, no id adds one, a missing one goes', async () => {
    const tour = await familyTour();
    const [adult, child] = tour.ticketTypes;
    const res = await t.request('PATCH', `${toursPath()}/${tour.id}`, {
      token: ws.token,
      body: {
        ticketTypes: [
          { id: adult.id, name: 'Adult', ageBand: 'ADULT', price: 4500 },
          { id: child.id, name: 'Child', ageBand: 'CHILD', price: 2000 },
          { name: 'Student', ageBand: 'STUDENT', price: 3500 },
        ],
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const types = res.body.data.ticketTypes;
    expect(types.map((type: { id: string }) => type.id).slice(0, 2)).toEqual([adult.id, child.id]);
    expect(types[0].price).toBe(4500);
    expect(types[2]).toMatchObject({ id: expect.stringMatching(/^tt_/), ageBand: 'STUDENT' });
    expect(types).toHaveLength(3);
  });

  it('a type a live booking sells cannot be removed (422), and an unknown id is 422 on its entry', async () => {
    const tour = await familyTour();
    const departure = await createDeparture(t, ws, tour.id);
    await book(t, ws, departure.id, {
      paymentMode: 'MANUAL',
      participants: [{ name: 'A' }, { name: 'B', ageBand: 'SENIOR' }],
    });
    const withoutSenior = tour.ticketTypes
      .filter((type: { ageBand: string }) => type.ageBand !== 'SENIOR')
      .map(({ id, name, ageBand, price }: Record<string, unknown>) => ({ id, name, ageBand, price }));
    const refused = await t.request('PATCH', `${toursPath()}/${tour.id}`, {
      token: ws.token,
      body: { ticketTypes: withoutSenior },
    });
    expectError(refused, 422, 'UNPROCESSABLE', [detail('ticketTypes', 'ticket_type_in_use')]);

    const unknown = await t.request('PATCH', `${toursPath()}/${tour.id}`, {
      token: ws.token,
      body: { ticketTypes: [{ id: 'tt_nope', name: 'X', ageBand: 'ADULT', price: 1 }] },
    });
    expectError(unknown, 422, 'UNPROCESSABLE', [detail('ticketTypes[0].id', 'not_found')]);
    const unchanged = await t.request('GET', `${toursPath()}/${tour.id}`, { token: ws.token });
    expect(unchanged.body.data.ticketTypes).toEqual(tour.ticketTypes);
  });

  it.each([
    [{ timeZone: 'Mars/Olympus' }, 'timeZone', 'invalid_time_zone'],
    [
      { ticketTypes: [{ name: 'X', ageBand: 'TODDLER', price: 1 }] },
      'ticketTypes[0].ageBand',
      'invalid_enum',
    ],
    [{ ticketTypes: [{ name: 'X', ageBand: 'ADULT', price: -1 }] }, 'ticketTypes[0].price', 'out_of_range'],
    [
      { ticketTypes: [{ name: 'X', ageBand: 'CHILD', price: 1, minAge: 12, maxAge: 4 }] },
      'ticketTypes[0].maxAge',
      'below_min_age',
    ],
    [
      { cancellationPolicy: { cutoffHours: 24, refund: 'PARTIAL' } },
      'cancellationPolicy.refundPercent',
      'required',
    ],
  ])('refuses %j with 400 on %s', async (overrides, field, issue) => {
    const res = await t.request('POST', toursPath(), {
      token: ws.token,
      body: { name: 'Bad', durationMinutes: 60, basePrice: 100, currency: 'EUR', capacity: 5, ...overrides },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error.details).toContainEqual(detail(field, issue));
  });
});

describe('booking with ticket types', () => {
  it('prices each participant by type: a family of two adults, a child and an infant', async () => {
    const tour = await familyTour();
    const departure = await createDeparture(t, ws, tour.id);
    const booking = await book(t, ws, departure.id, {
      participants: [
        { name: 'Mum', ticketTypeId: typeOf(tour, 'ADULT') },
        { name: 'Dad' },
        { name: 'Kid', ageBand: 'CHILD' },
        { name: 'Baby', ageBand: 'INFANT' },
      ],
    });
    expect(
      booking.participants.map((p: { ticketTypeId: string; price: number }) => [p.ticketTypeId, p.price]),
    ).toEqual([
      [typeOf(tour, 'ADULT'), 4000],
      [typeOf(tour, 'ADULT'), 4000],
      [typeOf(tour, 'CHILD'), 2000],
      [typeOf(tour, 'INFANT'), 0],
    ]);
    expect(booking.totalAmount).toBe(10_000);
    expect(booking.participantCount).toBe(4);
  });

  it('a departure price override wins over the type price; add-ons still add up', async () => {
    const tour = await familyTour({ addOns: [{ id: 'lunch', name: 'Lunch', price: 700 }] });
    const departure = await createDeparture(t, ws, tour.id, {
      prices: [{ ticketTypeId: typeOf(tour, 'ADULT'), price: 5000 }],
    });
    expect(departure.prices).toEqual([{ ticketTypeId: typeOf(tour, 'ADULT'), price: 5000 }]);
    const booking = await book(t, ws, departure.id, {
      participants: [{ name: 'A' }, { name: 'S', ageBand: 'SENIOR' }],
      addOns: [{ id: 'lunch', quantity: 2 }],
    });
    expect(booking.totalAmount).toBe(5000 + 3000 + 2 * 700);

    const patched = await t.request('PATCH', `/workspaces/${ws.workspaceId}/availability/${departure.id}`, {
      token: ws.token,
      body: { prices: [{ ticketTypeId: 'tt_unknown', price: 1 }] },
    });
    expectError(patched, 422, 'UNPROCESSABLE', [detail('prices[0].ticketTypeId', 'not_found')]);
  });

  it.each([
    ['a band the tour does not sell', [{ name: 'A' }, { name: 'Y', ageBand: 'YOUTH' }], 1, 'not_sold'],
    [
      'an unknown ticket type',
      [{ name: 'A' }, { name: 'B' }, { name: 'X', ticketTypeId: 'tt_x' }],
      2,
      'not_sold',
    ],
    ['a child without an adult', [{ name: 'K', ageBand: 'CHILD' }], 0, 'adult_required'],
    [
      'three infants where two is the most',
      [
        { name: 'A' },
        { name: 'I1', ageBand: 'INFANT' },
        { name: 'I2', ageBand: 'INFANT' },
        { name: 'I3', ageBand: 'INFANT' },
      ],
      3,
      'above_maximum',
    ],
  ])('%s is 400 on participants[i].ticketTypeId', async (_what, people, index, issue) => {
    const tour = await familyTour();
    const departure = await createDeparture(t, ws, tour.id);
    const res = await t.request('POST', bookingsPath(ws), {
      token: ws.token,
      body: bookingInput(departure.id, { participants: people }),
    });
    expectError(res, 400, 'VALIDATION_ERROR', [detail(`participants[${index}].ticketTypeId`, issue)]);
    const seats = await t.request('GET', `/workspaces/${ws.workspaceId}/availability?tourId=${tour.id}`, {
      token: ws.token,
    });
    expect(seats.body.data[0]).toMatchObject({ bookedSeats: 0, seatsRemaining: departure.capacity });
  });

  it('a minimum per booking counts the participants of that type', async () => {
    const tour = await createTour(t, ws, {
      ticketTypes: [
        { name: 'Adult', ageBand: 'ADULT', price: 4000 },
        { name: 'Group student', ageBand: 'STUDENT', price: 1000, minPerBooking: 3 },
      ],
    });
    const departure = await createDeparture(t, ws, tour.id);
    const two = await t.request('POST', bookingsPath(ws), {
      token: ws.token,
      body: bookingInput(departure.id, {
        participants: [{ name: 'A' }, { name: 'S1', ageBand: 'STUDENT' }, { name: 'S2', ageBand: 'STUDENT' }],
      }),
    });
    expectError(two, 400, 'VALIDATION_ERROR', [detail('participants[1].ticketTypeId', 'below_minimum')]);
    const three = await book(t, ws, departure.id, {
      participants: [1, 2, 3].map((n) => ({ name: `S${n}`, ageBand: 'STUDENT' })),
    });
    expect(three.totalAmount).toBe(3000);
  });

  it('PATCH with new participants prices them again; a tour without types sells ADULT seats at basePrice', async () => {
    const tour = await familyTour();
    const departure = await createDeparture(t, ws, tour.id);
    const booking = await book(t, ws, departure.id, { paymentMode: 'MANUAL' });
    expect(booking.totalAmount).toBe(4000);
    const patched = await t.request('PATCH', bookingsPath(ws, booking.id), {
      token: ws.token,
      body: { participants: [{ name: 'A' }, { name: 'K', ageBand: 'CHILD' }] },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.data.totalAmount).toBe(6000);
    expect(patched.body.data.participants.map((p: { price: number }) => p.price)).toEqual([4000, 2000]);

    const plain = await createTour(t, ws, { basePrice: 2500 });
    const plainDeparture = await createDeparture(t, ws, plain.id);
    const plainBooking = await book(t, ws, plainDeparture.id, {
      participants: [{ name: 'A' }, { name: 'K', ageBand: 'CHILD' }],
    });
    expect(plainBooking.totalAmount).toBe(5000);
    expect(
      plainBooking.participants.map((p: { ticketTypeId: null; price: number }) => [p.ticketTypeId, p.price]),
    ).toEqual([
      [null, 2500],
      [null, 2500],
    ]);
    const named = await t.request('POST', bookingsPath(ws), {
      token: ws.token,
      body: bookingInput(plainDeparture.id, {
        participants: [{ name: 'A', ticketTypeId: typeOf(tour, 'ADULT') }],
      }),
    });
    expectError(named, 400, 'VALIDATION_ERROR', [detail('participants[0].ticketTypeId', 'not_sold')]);
    expect((await getBooking(t, ws, plainBooking.id)).participants[0].price).toBe(2500);
  });
});

describe('seats stay exact with ticket types', () => {
  it('60 concurrent family bookings for 20 seats: sold seats equal what the bookings hold, never more', async () => {
    const tour = await familyTour({ capacity: 20 });
    const departure = await createDeparture(t, ws, tour.id);
    const shapes = [
      [{ name: 'A' }],
      [{ name: 'A' }, { name: 'K', ageBand: 'CHILD' }],
      [{ name: 'A' }, { name: 'S', ageBand: 'SENIOR' }, { name: 'I', ageBand: 'INFANT' }],
      [{ name: 'K', ageBand: 'CHILD' }],
    ];
    const responses = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        t.request('POST', bookingsPath(ws), {
          token: ws.token,
          body: bookingInput(departure.id, {
            participants: shapes[i % shapes.length],
            paymentMode: 'MANUAL',
          }),
        }),
      ),
    );
    const statuses = responses.map((res) => res.status);
    expect(statuses.every((status) => [201, 400, 409].includes(status))).toBe(true);
    expect(statuses.filter((status) => status === 400)).toHaveLength(15);
    const sold = responses
      .filter((res) => res.status === 201)
      .reduce((sum, res) => sum + res.body.data.participantCount, 0);
    const listed = await t.request('GET', `/workspaces/${ws.workspaceId}/availability?tourId=${tour.id}`, {
      token: ws.token,
    });
    const shown = listed.body.data[0];
    expect(shown.bookedSeats).toBe(sold);
    expect(shown.seatsRemaining + shown.bookedSeats).toBe(20);
    expect(sold).toBeLessThanOrEqual(20);
    expect(sold).toBeGreaterThanOrEqual(19);
  });
});
