import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  book,
  bookingInput,
  bookingsPath,
  getCustomer,
  HOUR,
  MINUTE,
  participants,
  pay,
  seatsOf,
  setStatus,
} from '../support/booking-fixtures.js';
import {
  collectPages,
  createCustomer,
  createDeparture,
  createTour,
  customerInput,
  detail,
  expectError,
  fromNow,
  ISO_MS,
  setDepartureColumns,
  type TestWorkspace,
  UNKNOWN_IDS,
} from '../support/fixtures.js';
import { startTestApi, type TestApi } from '../support/harness.js';

let t: TestApi;
let ws: TestWorkspace;
let tour: any;
let departure: any;
const ADD_ONS = [
  { id: 'lunch', name: 'Picnic lunch', price: 1500 },
  { id: 'photos', name: 'Photo pack', price: 900 },
];
beforeAll(async () => {
  t = await startTestApi();
  ws = await t.createWorkspace('ADMIN');
  tour = await createTour(t, ws, { name: 'Fjord Cruise', basePrice: 2500, currency: 'NOK', addOns: ADD_ONS });
  departure = await createDeparture(t, ws, tour.id, { capacity: 50 });
});
afterAll(() => t.close());

/** A departure of its own, so seat counts in one test are not disturbed by another. */
const freshDeparture = (overrides: Record<string, unknown> = {}) =>
  createDeparture(t, ws, tour.id, { capacity: 6, ...overrides });

describe('createBooking', () => {
  it('answers the full booking: prefixed ids, participants, price with add-ons, hold and checkout', async () => {
    const before = Date.now();
    const res = await t.request('POST', bookingsPath(ws), {
      token: ws.token,
      body: {
        availabilityId: departure.id,
        customer: { name: 'Nils Holgersson', email: 'nils@example.com', phone: '+4712345678' },
        participants: [
          {
            name: 'Nils Holgersson',
            ageBand: 'ADULT',
            dietaryNotes: 'vegetarian',
            accessibilityNotes: 'none',
            emergencyContact: 'Akka +4700000000',
          },
          { name: 'Morten Goose', ageBand: 'CHILD' },
        ],
        addOns: [
          { id: 'lunch', quantity: 2 },
          { id: 'photos', quantity: 1 },
        ],
        notes: 'Window seats please',
      },
    });
    const after = Date.now();
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const booking = res.body.data;
    expect(res.body).toEqual({
      data: {
        id: expect.stringMatching(/^bkg_[0-9A-Za-z]{22}$/),
        status: 'PENDING',
        paymentStatus: 'UNPAID',
        totalAmount: 2500 * 2 + 1500 * 2 + 900,
        currency: 'NOK',
        availabilityId: departure.id,
        customerId: expect.stringMatching(/^cus_[0-9A-Za-z]{22}$/),
        participantCount: 2,
        participants: [
          {
            id: expect.stringMatching(/^ptc_[0-9A-Za-z]{22}$/),
            name: 'Nils Holgersson',
            ageBand: 'ADULT',
            dietaryNotes: 'vegetarian',
            accessibilityNotes: 'none',
            emergencyContact: 'Akka +4700000000',
            waiverSigned: false,
            checkedInAt: null,
            ticketTypeId: null,
            price: tour.basePrice,
          },
          {
            id: expect.stringMatching(/^ptc_[0-9A-Za-z]{22}$/),
            name: 'Morten Goose',
            ageBand: 'CHILD',
            dietaryNotes: null,
            accessibilityNotes: null,
            emergencyContact: null,
            waiverSigned: false,
            checkedInAt: null,
            ticketTypeId: null,
            price: tour.basePrice,
          },
        ],
        paymentIntentId: expect.any(String),
        publicToken: expect.stringMatching(/^[0-9A-Za-z]{32,}$/),
        notes: 'Window seats please',
        expiresAt: expect.stringMatching(ISO_MS),
        confirmedAt: null,
        createdAt: expect.stringMatching(ISO_MS),
        updatedAt: expect.stringMatching(ISO_MS),
        tourId: tour.id,
        startsAt: departure.startsAt,
        paymentMode: 'CHECKOUT',
        amountPaid: 0,
        amountRefunded: 0,
        addOns: [
          { id: 'lunch', name: 'Picnic lunch', unitPrice: 1500, quantity: 2 },
          { id: 'photos', name: 'Photo pack', unitPrice: 900, quantity: 1 },
        ],
        cancelledAt: null,
        cancellationReason: null,
        externalReference: null,
        guestMessage: null,
        cancellationPolicy: { cutoffHours: 24, refund: 'FULL', refundPercent: null },
        cancellationCutoffAt: new Date(Date.parse(departure.startsAt) - 24 * HOUR).toISOString(),
        cancellable: true,
        checkoutUrl: expect.stringMatching(/^https?:\/\/[^/]+\/sandbox\/pay\/[0-9A-Za-z]+$/),
      },
    });
    expect(booking.participants[0].id).not.toBe(booking.participants[1].id);
    const expires = Date.parse(booking.expiresAt);
    expect(expires).toBeGreaterThanOrEqual(before + 30 * MINUTE);
    expect(expires).toBeLessThanOrEqual(after + 30 * MINUTE);
    expect(res.headers.get('etag')).toMatch(/^"\d+"$/);
  });

  it.each([
    { mode: 'CHECKOUT', hold: 30 * MINUTE, link: 'checkoutUrl' },
    { mode: 'DEPOSIT', hold: 30 * MINUTE, link: 'checkoutUrl' },
    { mode: 'PAYMENT_LINK', hold: 24 * HOUR, link: 'paymentLinkUrl' },
  ] as const)(
    'paymentMode $mode holds the seats for $hold ms and hands out $link',
    async ({ mode, hold, link }) => {
      const before = Date.now();
      const booking = await book(t, ws, departure.id, { paymentMode: mode });
      const after = Date.now();
      expect(booking).toMatchObject({ status: 'PENDING', paymentStatus: 'UNPAID', paymentMode: mode });
      expect(Date.parse(booking.expiresAt)).toBeGreaterThanOrEqual(before + hold);
      expect(Date.parse(booking.expiresAt)).toBeLessThanOrEqual(after + hold);
      expect(booking[link]).toMatch(/\/sandbox\/pay\/[0-9A-Za-z]+$/);
      const other = link === 'checkoutUrl' ? 'paymentLinkUrl' : 'checkoutUrl';
      expect(booking).not.toHaveProperty(other);
      expect(booking.paymentIntentId).toEqual(expect.any(String));
    },
  );

  it('paymentMode MANUAL holds nothing and hands out no payment URL', async () => {
    const booking = await book(t, ws, departure.id, { paymentMode: 'MANUAL' });
    expect(booking).toMatchObject({
      status: 'PENDING',
      paymentStatus: 'UNPAID',
      paymentMode: 'MANUAL',
      expiresAt: null,
      paymentIntentId: null,
    });
    expect(booking).not.toHaveProperty('checkoutUrl');
    expect(booking).not.toHaveProperty('paymentLinkUrl');
  });

  it('a free booking needs no payment: CONFIRMED and PAID at once, no hold, no URL', async () => {
    const free = await createTour(t, ws, { name: 'Free Walk', basePrice: 0 });
    const freeDeparture = await createDeparture(t, ws, free.id);
    const booking = await book(t, ws, freeDeparture.id, { participants: participants(2) });
    expect(booking).toMatchObject({
      status: 'CONFIRMED',
      paymentStatus: 'PAID',
      totalAmount: 0,
      expiresAt: null,
      confirmedAt: expect.stringMatching(ISO_MS),
      paymentIntentId: null,
    });
    expect(booking).not.toHaveProperty('checkoutUrl');
  });

  it('a tour with no add-ons booked costs basePrice x participants', async () => {
    const booking = await book(t, ws, departure.id, { participants: participants(3) });
    expect(booking).toMatchObject({ totalAmount: 7500, currency: 'NOK', participantCount: 3, addOns: [] });
  });
});

describe('the customer of a booking', () => {
  it('an existing customer is found by e-mail, case-insensitively, and not duplicated', async () => {
    const existing = await createCustomer(t, ws, { name: 'Grace Hopper', email: 'Grace.Hopper@Example.com' });
    const booking = await book(t, ws, departure.id, {
      customer: { name: 'G. Hopper', email: 'grace.hopper@EXAMPLE.COM' },
    });
    expect(booking.customerId).toBe(existing.id);
    const rows = await t.api.database
      .knex('customers')
      .where({ workspace_id: ws.workspaceId })
      .whereRaw('lower(email) = ?', ['grace.hopper@example.com']);
    expect(rows).toHaveLength(1);
    // The record is the operator's: a booking does not rename the customer.
    expect((await getCustomer(t, ws, existing.id)).name).toBe('Grace Hopper');
  });

  it('an unknown e-mail creates the customer from the booking', async () => {
    const email = `new.${Date.now()}@example.com`;
    const booking = await book(t, ws, departure.id, {
      customer: { name: 'Katherine Johnson', email, phone: '+15550100' },
    });
    expect(await getCustomer(t, ws, booking.customerId)).toMatchObject({
      id: booking.customerId,
      name: 'Katherine Johnson',
      email,
      phone: '+15550100',
      totalBookings: 1,
      lifetimeValue: 0,
    });
  });

  it('totalBookings and lifetimeValue follow create, cancel, payment and refund', async () => {
    const customer = customerInput({ name: 'Stats Customer' });
    const first = await book(t, ws, departure.id, { customer, participants: participants(2) });
    const stats = async () => {
      const { totalBookings, lifetimeValue } = await getCustomer(t, ws, first.customerId);
      return { totalBookings, lifetimeValue };
    };
    expect(await stats()).toEqual({ totalBookings: 1, lifetimeValue: 0 });

    const second = await book(t, ws, departure.id, { customer, paymentMode: 'MANUAL' });
    expect(second.customerId).toBe(first.customerId);
    expect(await stats()).toEqual({ totalBookings: 2, lifetimeValue: 0 });

    expect((await setStatus(t, ws, second.id, 'CANCELLED')).status).toBe(200);
    expect(await stats()).toEqual({ totalBookings: 1, lifetimeValue: 0 });

    expect((await pay(t, first.checkoutUrl)).status).toBe(200);
    expect(await stats()).toEqual({ totalBookings: 1, lifetimeValue: 5000 });

    const refund = await t.request('POST', bookingsPath(ws, first.id, '/refunds'), {
      token: ws.token,
      body: { amount: 1200 },
    });
    expect(refund.status, JSON.stringify(refund.body)).toBe(201);
    expect(await stats()).toEqual({ totalBookings: 1, lifetimeValue: 3800 });
  });
});

describe('seats', () => {
  it('a booking takes its participants from seatsRemaining into bookedSeats', async () => {
    const own = await freshDeparture();
    expect(await seatsOf(t, ws, own)).toEqual({ bookedSeats: 0, seatsRemaining: 6 });
    await book(t, ws, own.id, { participants: participants(2) });
    expect(await seatsOf(t, ws, own)).toEqual({ bookedSeats: 2, seatsRemaining: 4 });
    await book(t, ws, own.id, { participants: participants(4) });
    expect(await seatsOf(t, ws, own)).toEqual({ bookedSeats: 6, seatsRemaining: 0 });
  });

  it('more participants than the departure could ever hold is 400 max_capacity_exceeded', async () => {
    const own = await freshDeparture();
    const res = await t.request('POST', bookingsPath(ws), {
      token: ws.token,
      body: bookingInput(own.id, { participants: participants(7) }),
    });
    expectError(res, 400, 'VALIDATION_ERROR', [detail('participants', 'max_capacity_exceeded')]);
    expect(await seatsOf(t, ws, own)).toEqual({ bookedSeats: 0, seatsRemaining: 6 });
  });

  it('more participants than remain is 409 insufficient_seats and takes nothing', async () => {
    const own = await freshDeparture();
    await book(t, ws, own.id, { participants: participants(5) });
    const res = await t.request('POST', bookingsPath(ws), {
      token: ws.token,
      body: bookingInput(own.id, { participants: participants(2) }),
    });
    expectError(res, 409, 'CONFLICT', [detail('participants', 'insufficient_seats')]);
    expect(await seatsOf(t, ws, own)).toEqual({ bookedSeats: 5, seatsRemaining: 1 });
    // The last seat is still there for one participant.
    await book(t, ws, own.id);
    expect(await seatsOf(t, ws, own)).toEqual({ bookedSeats: 6, seatsRemaining: 0 });
  });

  it('a cancelled booking gives its seats back', async () => {
    const own = await freshDeparture();
    const booking = await book(t, ws, own.id, { participants: participants(6) });
    expect((await setStatus(t, ws, booking.id, 'CANCELLED')).status).toBe(200);
    expect(await seatsOf(t, ws, own)).toEqual({ bookedSeats: 0, seatsRemaining: 6 });
  });
});

describe('departures that cannot be booked', () => {
  const attempt = (availabilityId: string) =>
    t.request('POST', bookingsPath(ws), { token: ws.token, body: bookingInput(availabilityId) });

  it.each(['CANCELLED', 'BOARDING', 'DEPARTED', 'COMPLETED'])(
    'a %s departure is 422 not_bookable',
    async (status) => {
      const own = await freshDeparture();
      await setDepartureColumns(t, own.id, { status });
      expectError(await attempt(own.id), 422, 'UNPROCESSABLE', [detail('availabilityId', 'not_bookable')]);
      expect(await seatsOf(t, ws, own)).toEqual({ bookedSeats: 0, seatsRemaining: 6 });
    },
  );

  it('a DELAYED departure can still be booked', async () => {
    const own = await freshDeparture({ status: 'DELAYED' });
    await book(t, ws, own.id);
    expect(await seatsOf(t, ws, own)).toEqual({ bookedSeats: 1, seatsRemaining: 5 });
  });

  it('a departure that has started is 422 departure_started', async () => {
    const own = await freshDeparture({ startsAt: fromNow(0, -1) });
    expectError(await attempt(own.id), 422, 'UNPROCESSABLE', [detail('availabilityId', 'departure_started')]);
  });

  it('a departure past its booking cutoff is 422 booking_closed', async () => {
    const own = await freshDeparture({ startsAt: fromNow(2), bookingCutoffAt: fromNow(0, -1) });
    expectError(await attempt(own.id), 422, 'UNPROCESSABLE', [detail('availabilityId', 'booking_closed')]);
    expect(await seatsOf(t, ws, own)).toEqual({ bookedSeats: 0, seatsRemaining: 6 });
  });

  it('an unknown availabilityId is 422 not_found', async () => {
    expectError(await attempt(UNKNOWN_IDS.availability), 422, 'UNPROCESSABLE', [
      detail('availabilityId', 'not_found'),
    ]);
  });

  it("another workspace's departure is 422 not_found, reveals nothing and takes no seat", async () => {
    const other = await t.createWorkspace('ADMIN');
    const foreignTour = await createTour(t, other, { name: 'Secret Foreign Tour' });
    const foreign = await createDeparture(t, other, foreignTour.id, { capacity: 3 });
    const res = await attempt(foreign.id);
    expectError(res, 422, 'UNPROCESSABLE', [detail('availabilityId', 'not_found')]);
    expect(JSON.stringify(res.body)).not.toContain('Secret Foreign Tour');
    expect(await seatsOf(t, other, foreign)).toEqual({ bookedSeats: 0, seatsRemaining: 3 });
  });
});

describe('createBooking input', () => {
  const attempt = (body: unknown) => t.request('POST', bookingsPath(ws), { token: ws.token, body });

  it('an add-on the tour does not sell is 400 on addOns[i].id', async () => {
    const res = await attempt(
      bookingInput(departure.id, {
        addOns: [
          { id: 'lunch', quantity: 1 },
          { id: 'helicopter', quantity: 1 },
        ],
      }),
    );
    expectError(res, 400, 'VALIDATION_ERROR', [detail('addOns[1].id', 'unknown_add_on')]);
  });

  it.each([
    ['no participants', { participants: [] }, [detail('participants', 'too_short')]],
    ['101 participants', { participants: participants(101) }, [detail('participants', 'too_long')]],
    [
      'a bad e-mail',
      { customer: { name: 'X', email: 'not-an-email' } },
      [detail('customer.email', 'invalid_email')],
    ],
    ['an unknown field', { discount: 50 }, [detail('discount', 'unknown_field')]],
    [
      'an unknown participant field',
      { participants: [{ name: 'A', shoeSize: 44 }] },
      [detail('participants[0].shoeSize', 'unknown_field')],
    ],
    [
      'an add-on quantity of 0',
      { addOns: [{ id: 'lunch', quantity: 0 }] },
      [detail('addOns[0].quantity', 'out_of_range')],
    ],
    ['an unknown paymentMode', { paymentMode: 'CASH' }, [detail('paymentMode', 'invalid_enum')]],
    [
      'an unknown ageBand',
      { participants: [{ name: 'A', ageBand: 'TEEN' }] },
      [detail('participants[0].ageBand', 'invalid_enum')],
    ],
  ])('%s is 400 VALIDATION_ERROR naming the field', async (_label, overrides, details) => {
    const before = await seatsOf(t, ws, departure);
    expectError(await attempt(bookingInput(departure.id, overrides)), 400, 'VALIDATION_ERROR', details);
    expect(await seatsOf(t, ws, departure)).toEqual(before);
  });

  it('a missing customer and availabilityId are 400 required', async () => {
    const res = await attempt({ participants: participants(1) });
    expectError(res, 400, 'VALIDATION_ERROR', [
      detail('availabilityId', 'required'),
      detail('customer', 'required'),
    ]);
  });
});

describe('getBooking', () => {
  it('answers the booking as created (without its one-time link) with its version as ETag', async () => {
    const created = await book(t, ws, departure.id);
    const res = await t.request('GET', bookingsPath(ws, created.id), { token: ws.token });
    expect(res.status).toBe(200);
    const { checkoutUrl: _link, ...withoutLink } = created;
    expect(res.body).toEqual({ data: withoutLink });
    const row = await t.api.database.knex('bookings').where({ id: created.id }).first('version');
    expect(res.headers.get('etag')).toBe(`"${row.version}"`);
  });

  it('the ETag changes when the booking changes', async () => {
    const created = await book(t, ws, departure.id, { paymentMode: 'MANUAL' });
    const before = (await t.request('GET', bookingsPath(ws, created.id), { token: ws.token })).headers.get(
      'etag',
    );
    await setStatus(t, ws, created.id, 'CONFIRMED');
    const after = (await t.request('GET', bookingsPath(ws, created.id), { token: ws.token })).headers.get(
      'etag',
    );
    expect(after).toMatch(/^"\d+"$/);
    expect(after).not.toBe(before);
  });

  it('an unknown booking id is 404', async () => {
    expectError(
      await t.request('GET', bookingsPath(ws, `bkg_${'0'.repeat(22)}`), { token: ws.token }),
      404,
      'NOT_FOUND',
    );
  });

  it("another workspace's booking is 404 and reveals nothing", async () => {
    const other = await t.createWorkspace('ADMIN');
    const otherTour = await createTour(t, other, { name: 'Hidden Tour' });
    const otherDeparture = await createDeparture(t, other, otherTour.id);
    const foreign = await book(t, other, otherDeparture.id, {
      customer: { name: 'Hidden Customer', email: 'hidden@example.com' },
    });
    const res = await t.request('GET', bookingsPath(ws, foreign.id), { token: ws.token });
    expectError(res, 404, 'NOT_FOUND');
    const text = JSON.stringify(res.body);
    for (const secret of ['Hidden', 'hidden@example.com', foreign.customerId, foreign.publicToken]) {
      expect(text).not.toContain(secret);
    }
  });
});

describe('listBookings', () => {
  let own: TestWorkspace;
  let all: any[];
  const listPath = (query = '') => `${bookingsPath(own)}${query ? `?${query}` : ''}`;

  beforeAll(async () => {
    own = await t.createWorkspace('ADMIN');
    const ownTour = await createTour(t, own, { basePrice: 1000, capacity: 40 });
    const starts = ['2031-03-01T00:00:00.000Z', '2031-03-01T23:59:59.999Z', '2031-03-02T12:00:00.000Z'];
    const departures = [];
    for (const startsAt of [...starts, '2031-02-28T23:59:59.999Z', '2031-03-03T00:00:00.000Z']) {
      departures.push(await createDeparture(t, own, ownTour.id, { startsAt, capacity: 40 }));
    }
    // Ties on totalAmount and startsAt on purpose: the id breaks them.
    const plan = [
      [0, 2],
      [1, 1],
      [2, 3],
      [0, 1],
      [3, 2],
      [4, 1],
      [2, 2],
      [1, 3],
      [4, 2],
    ] as const;
    const made = [];
    for (const [index, count] of plan) {
      const target = departures[index];
      made.push(await book(t, own, target.id, { participants: participants(count), paymentMode: 'MANUAL' }));
    }
    // updatedAt in another order than createdAt; statuses and payment statuses to filter on.
    await setStatus(t, own, made[0].id, 'CONFIRMED');
    await setStatus(t, own, made[3].id, 'CANCELLED');
    await setStatus(t, own, made[5].id, 'CONFIRMED');
    const link = await t.request('POST', bookingsPath(own, made[5].id, '/payment-link'), {
      token: own.token,
    });
    expect((await pay(t, link.body.data.url)).status).toBe(200);
    const ids = made.map((b) => b.id);
    all = (await collectPages(t, listPath(), own.token, 100)).items;
    expect(all.map((b) => b.id).sort()).toEqual([...ids].sort());
  });

  const compare = (field: string) => (x: any, y: any) => {
    const a = x[field];
    const b = y[field];
    if (a < b) return -1;
    if (a > b) return 1;
    return x.id < y.id ? -1 : x.id > y.id ? 1 : 0;
  };

  it('defaults to newest first', async () => {
    const res = await t.request('GET', listPath('limit=100'), { token: own.token });
    const expected = [...all].sort(compare('createdAt')).reverse();
    expect(res.body.data.map((b: any) => b.id)).toEqual(expected.map((b) => b.id));
  });

  it.each(['createdAt', 'startsAt', 'totalAmount', 'updatedAt'])(
    'sort=%s and sort=-%s order every page, with ties broken by id, without duplicates or gaps',
    async (field) => {
      const ascending = [...all].sort(compare(field)).map((b) => b.id);
      for (const [sort, expected] of [
        [field, ascending],
        [`-${field}`, [...ascending].reverse()],
      ] as const) {
        const { items, pages } = await collectPages(t, listPath(`sort=${sort}`), own.token, 2);
        expect(
          items.map((b) => b.id),
          sort,
        ).toEqual(expected);
        expect(pages.map((p) => p.count)).toEqual([2, 2, 2, 2, 1]);
        expect(pages.at(-1)).toMatchObject({ hasMore: false, nextCursor: null });
      }
    },
  );

  it('an unknown sort is 400 on field sort', async () => {
    for (const sort of ['price', '-notes', 'createdAt,id', '--createdAt']) {
      expectError(
        await t.request('GET', listPath(`sort=${sort}`), { token: own.token }),
        400,
        'VALIDATION_ERROR',
        [detail('sort', 'invalid_enum')],
      );
    }
  });

  it('a cursor from one sort used with another sort is 400 on field cursor', async () => {
    const first = await t.request('GET', listPath('sort=totalAmount&limit=2'), { token: own.token });
    const cursor = encodeURIComponent(first.body.pagination.nextCursor);
    for (const sort of ['-totalAmount', 'startsAt', 'createdAt']) {
      expectError(
        await t.request('GET', listPath(`sort=${sort}&limit=2&cursor=${cursor}`), { token: own.token }),
        400,
        'VALIDATION_ERROR',
        [detail('cursor', 'invalid_cursor')],
      );
    }
    // The default sort is -createdAt: a cursor of an explicit sort does not carry over to it.
    expectError(
      await t.request('GET', listPath(`limit=2&cursor=${cursor}`), { token: own.token }),
      400,
      'VALIDATION_ERROR',
      [detail('cursor', 'invalid_cursor')],
    );
  });

  it('status and paymentStatus filter, alone and together', async () => {
    const ids = async (query: string) =>
      (await collectPages(t, listPath(query), own.token, 2)).items.map((b) => b.id).sort();
    const where = (match: (b: any) => boolean) =>
      all
        .filter(match)
        .map((b) => b.id)
        .sort();
    expect(await ids('status=CONFIRMED')).toEqual(where((b) => b.status === 'CONFIRMED'));
    expect(await ids('status=CONFIRMED')).toHaveLength(2);
    expect(await ids('status=CANCELLED')).toEqual(where((b) => b.status === 'CANCELLED'));
    expect(await ids('status=PENDING')).toHaveLength(6);
    expect(await ids('paymentStatus=PAID')).toEqual(where((b) => b.paymentStatus === 'PAID'));
    expect(await ids('paymentStatus=PAID')).toHaveLength(1);
    expect(await ids('status=CONFIRMED&paymentStatus=UNPAID')).toEqual(
      where((b) => b.status === 'CONFIRMED' && b.paymentStatus === 'UNPAID'),
    );
    expect(await ids('status=COMPLETED')).toEqual([]);
    expectError(
      await t.request('GET', listPath('status=DONE'), { token: own.token }),
      400,
      'VALIDATION_ERROR',
      [detail('status', 'invalid_enum')],
    );
  });

  it("from/to filter on the departure's UTC date, both inclusive", async () => {
    const ids = async (query: string) =>
      (await collectPages(t, listPath(query), own.token, 100)).items.map((b) => b.id).sort();
    const between = (from: string, to: string) =>
      all
        .filter((b) => b.startsAt >= `${from}T00:00:00.000Z` && b.startsAt <= `${to}T23:59:59.999Z`)
        .map((b) => b.id)
        .sort();
    const firstOfMarch = await ids('from=2031-03-01&to=2031-03-01');
    expect(firstOfMarch).toEqual(between('2031-03-01', '2031-03-01'));
    // Midnight and the last millisecond of the day are both in it.
    expect(all.filter((b) => firstOfMarch.includes(b.id)).map((b) => b.startsAt)).toEqual(
      expect.arrayContaining(['2031-03-01T00:00:00.000Z', '2031-03-01T23:59:59.999Z']),
    );
    expect(firstOfMarch).toHaveLength(4);
    expect(await ids('from=2031-03-01&to=2031-03-02')).toEqual(between('2031-03-01', '2031-03-02'));
    expect(await ids('from=2031-03-02')).toEqual(between('2031-03-02', '2099-12-31'));
    expect(await ids('to=2031-02-28')).toEqual(between('2000-01-01', '2031-02-28'));
    expect(await ids('to=2031-02-28')).toHaveLength(1);
    expect(await ids('from=2031-03-04')).toEqual([]);
  });

  it("never lists another workspace's bookings", async () => {
    const text = JSON.stringify((await collectPages(t, bookingsPath(ws), ws.token, 100)).items);
    for (const booking of all) expect(text).not.toContain(booking.id);
  });
});
