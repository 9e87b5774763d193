import { createUnitOfWork } from '@travelops/db';
import { expireHolds } from '@travelops/domain/bookings';
import { octoRoutes } from '@travelops/octo';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { book, bookingInput, bookingsPath, getBooking } from '../support/booking-fixtures.js';
import { fromNow, type TestWorkspace } from '../support/fixtures.js';
import { startTestApi, type TestApi } from '../support/harness.js';
import {
  createOctoContract,
  dayFromNow,
  native,
  type OctoContract,
  type OctoRequest,
  octoClient,
  ticketedTour,
  unitItems,
} from '../support/octo-fixtures.js';

let t: TestApi;
let contract: OctoContract;
let octo: OctoRequest;
let ws: TestWorkspace;
/** The reseller connection: a RESELLER token of the workspace. */
let reseller: string;
let resellerId: string;
let walk: any;
let boat: any;
/** Departures of the walk 3 to 8 days ahead, and the boat's. */
let walkDepartures: any[];
let boatDepartures: any[];
const units = (tour: any) => Object.fromEntries(tour.ticketTypes.map((type: any) => [type.name, type.id]));

const UTC_SECONDS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;
const LOCAL = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9][0-9a-f]{3}-[089ab][0-9a-f]{3}-[0-9a-f]{12}$/;

beforeAll(async () => {
  t = await startTestApi();
  contract = createOctoContract();
  octo = octoClient(t, contract);
  ws = await t.createWorkspace('ADMIN');
  const connection = await t.createToken(ws.workspaceId, 'RESELLER');
  reseller = connection.token;
  resellerId = connection.tokenId;
  walk = await native(t, ws, 'POST', '/tours', ticketedTour('old-town-walk'));
  boat = await native(
    t,
    ws,
    'POST',
    '/tours',
    ticketedTour('harbour-boat', { timeZone: 'America/New_York' }),
  );
  walkDepartures = [];
  boatDepartures = [];
  for (let day = 3; day <= 8; day++) {
    // Room for every reservation the tests make on the walk.
    walkDepartures.push(
      await native(t, ws, 'POST', '/availability', {
        tourId: walk.id,
        startsAt: fromNow(day),
        capacity: 100,
      }),
    );
    boatDepartures.push(
      await native(t, ws, 'POST', '/availability', { tourId: boat.id, startsAt: fromNow(day) }),
    );
  }
});
afterAll(async () => {
  // Every operation of the table was answered, and checked, at least once with 200.
  const answered = [...contract.checked.keys()].filter((key) => key.endsWith(' 200'));
  expect(answered.length).toBeGreaterThanOrEqual(13);
  expect(octoRoutes.length).toBe(13);
  await t.close();
});

const reserve = (body: Record<string, unknown>, token = reseller) =>
  octo('POST', '/bookings', {
    token,
    body: { productId: walk.id, optionId: 'DEFAULT', ...body },
  });

/** A reservation that must succeed: the OCTO booking. */
async function reserved(body: Record<string, unknown> = {}) {
  const res = await reserve({
    availabilityId: walkDepartures[0].id,
    unitItems: unitItems(units(walk).Adult),
    ...body,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

const expectOctoError = (res: { status: number; body: any }, error: string, status = 400) => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body).toMatchObject({ error, errorMessage: expect.any(String) });
};

describe('supplier and products', () => {
  it('the supplier is the workspace, served at /octo', async () => {
    const res = await octo('GET', '/supplier', { token: reseller });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: ws.workspaceId, endpoint: expect.stringMatching(/\/octo$/) });
    expect(res.headers.get('octo-capabilities')).toBe('');
  });

  it('products are the published tours, one DEFAULT option, units from ticket types', async () => {
    const hidden = await native(t, ws, 'POST', '/tours', ticketedTour('private-tour', { isPublic: false }));
    const res = await octo('GET', '/products', { token: reseller });
    expect(res.status).toBe(200);
    const ids = res.body.map((product: any) => product.id);
    expect(ids).toEqual(expect.arrayContaining([walk.id, boat.id]));
    expect(ids).not.toContain(hidden.id);
    const product = res.body.find((p: any) => p.id === walk.id);
    expect(product).toMatchObject({
      internalName: walk.name,
      reference: walk.slug,
      timeZone: 'Europe/Berlin',
      availabilityType: 'START_TIME',
      instantConfirmation: true,
      deliveryMethods: ['VOUCHER'],
      redemptionMethod: 'MANIFEST',
    });
    expect(product).not.toHaveProperty('defaultCurrency');
    const [option] = product.options;
    expect(option).toMatchObject({
      id: 'DEFAULT',
      default: true,
      cancellationCutoffAmount: 24,
      cancellationCutoffUnit: 'hour',
      restrictions: { minUnits: 1, maxUnits: null },
    });
    // Local start times of the departures to come, in Berlin.
    const local = (iso: string) =>
      new Intl.DateTimeFormat('en-GB', {
        timeZone: 'Europe/Berlin',
        hour: '2-digit',
        minute: '2-digit',
      }).format(new Date(iso));
    expect(option.availabilityLocalStartTimes).toEqual(
      [...new Set(walkDepartures.map((d) => local(d.startsAt)))].sort(),
    );
    const { Adult, Child, Infant } = units(walk);
    expect(option.units).toEqual([
      expect.objectContaining({
        id: Adult,
        type: 'ADULT',
        restrictions: expect.objectContaining({ minAge: 18, maxAge: 120, accompaniedBy: [] }),
      }),
      expect.objectContaining({
        id: Child,
        type: 'CHILD',
        restrictions: expect.objectContaining({ minAge: 4, maxAge: 17, accompaniedBy: [Adult] }),
      }),
      expect.objectContaining({
        id: Infant,
        type: 'INFANT',
        restrictions: expect.objectContaining({
          minAge: 0,
          maxAge: 3,
          maxQuantity: 2,
          accompaniedBy: [Adult],
        }),
      }),
    ]);
    expect(await octo('GET', `/products/${hidden.id}`, { token: reseller })).toMatchObject({
      status: 400,
      body: { error: 'INVALID_PRODUCT_ID', productId: hidden.id },
    });
  });

  it('octo/pricing adds prices in the tour currency, and is echoed; other capabilities are ignored', async () => {
    const res = await octo('GET', `/products/${walk.id}`, {
      token: reseller,
      capabilities: 'octo/content, octo/pricing',
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('octo-capabilities')).toBe('octo/pricing');
    expect(res.body).toMatchObject({
      defaultCurrency: 'EUR',
      availableCurrencies: ['EUR'],
      pricingPer: 'UNIT',
    });
    expect(res.body.options[0].units[1].pricingFrom).toEqual([
      { original: 1500, retail: 1500, net: null, currency: 'EUR', currencyPrecision: 2, includedTaxes: [] },
    ]);
  });

  it('capabilities: octo/pricing is served beside OCTO core', async () => {
    const res = await octo('GET', '/capabilities', { token: reseller });
    expect(res.status).toBe(200);
    expect(res.body.map((capability: any) => capability.id)).toEqual(['octo/pricing']);
  });

  it('an unknown product is INVALID_PRODUCT_ID with the id', async () => {
    const res = await octo('GET', '/products/invalidProductId', { token: reseller });
    expectOctoError(res, 'INVALID_PRODUCT_ID');
    expect(res.body.productId).toBe('invalidProductId');
  });
});

describe('availability', () => {
  it('the calendar has one row per local day, CLOSED without a departure', async () => {
    const res = await octo('POST', '/availability/calendar', {
      token: reseller,
      capabilities: 'octo/pricing',
      body: {
        productId: walk.id,
        optionId: 'DEFAULT',
        localDateStart: dayFromNow(0),
        localDateEnd: dayFromNow(10),
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(11);
    expect(res.body[0]).toMatchObject({
      localDate: dayFromNow(0),
      status: 'CLOSED',
      available: false,
      vacancies: 0,
    });
    const open = res.body.filter((day: any) => day.available);
    expect(open.length).toBeGreaterThanOrEqual(5);
    expect(open[0]).toMatchObject({ status: 'AVAILABLE', vacancies: 100, capacity: 100, openingHours: [] });
    expect(open[0].unitPricingFrom.map((p: any) => p.retail)).toEqual([3000, 1500, 0]);
  });

  it.each([
    ['without localDateStart', { localDateEnd: '2030-01-01' }],
    ['with the end before the start', { localDateStart: '2030-01-02', localDateEnd: '2030-01-01' }],
    [
      'over more than 31 days (bounded work per call)',
      { localDateStart: '2030-01-01', localDateEnd: '2030-02-01' },
    ],
  ])('the calendar %s is BAD_REQUEST', async (_label, dates) => {
    const res = await octo('POST', '/availability/calendar', {
      token: reseller,
      body: { productId: walk.id, optionId: 'DEFAULT', ...dates },
    });
    expectOctoError(res, 'BAD_REQUEST');
  });

  it('the check spans at most 31 days: 31 answer, 32 are BAD_REQUEST', async () => {
    const check = (days: number) =>
      octo('POST', '/availability', {
        token: reseller,
        body: {
          productId: boat.id,
          optionId: 'DEFAULT',
          localDateStart: dayFromNow(0),
          localDateEnd: dayFromNow(days - 1),
        },
      });
    expect((await check(31)).status).toBe(200);
    expectOctoError(await check(32), 'BAD_REQUEST');
  });

  it('the check lists departures with local times in the tour zone, by range, day or ids', async () => {
    const range = await octo('POST', '/availability', {
      token: reseller,
      body: {
        productId: boat.id,
        optionId: 'DEFAULT',
        localDateStart: dayFromNow(0),
        localDateEnd: dayFromNow(30),
      },
    });
    expect(range.status).toBe(200);
    expect(range.body.map((a: any) => a.id)).toEqual(boatDepartures.map((d) => d.id));
    const [first] = range.body;
    expect(first).toMatchObject({
      allDay: false,
      available: true,
      status: 'AVAILABLE',
      vacancies: 10,
      capacity: 10,
      maxUnits: null,
      utcCutoffAt: expect.stringMatching(UTC_SECONDS),
      localDateTimeStart: expect.stringMatching(LOCAL),
    });
    expect(Date.parse(first.localDateTimeStart)).toBe(
      Date.parse(boatDepartures[0].startsAt) - (Date.parse(boatDepartures[0].startsAt) % 1000),
    );
    expect(Date.parse(first.localDateTimeEnd) - Date.parse(first.localDateTimeStart)).toBe(120 * 60_000);
    expect(first.localDateTimeStart).toMatch(/-0[45]:00$/);
    const byIds = await octo('POST', '/availability', {
      token: reseller,
      body: { productId: boat.id, optionId: 'DEFAULT', availabilityIds: [first.id, walkDepartures[0].id] },
    });
    expect(byIds.body.map((a: any) => a.id)).toEqual([first.id]);
    const byDay = await octo('POST', '/availability', {
      token: reseller,
      body: { productId: boat.id, optionId: 'DEFAULT', localDate: first.localDateTimeStart.slice(0, 10) },
    });
    expect(byDay.body.map((a: any) => a.id)).toContain(first.id);
  });

  it.each([
    ['no dates and no ids', {}],
    ['dates and ids', { localDateStart: '2030-01-01', localDateEnd: '2030-01-02', availabilityIds: ['x'] }],
    ['a start without an end', { localDateStart: '2030-01-01' }],
    ['a date that does not exist', { localDate: '2030-02-30' }],
  ])('a check with %s is BAD_REQUEST', async (_label, body) => {
    const res = await octo('POST', '/availability', {
      token: reseller,
      body: { productId: walk.id, optionId: 'DEFAULT', ...body },
    });
    expectOctoError(res, 'BAD_REQUEST');
  });

  it('an unknown product, option or unit is refused with its id', async () => {
    const body = { productId: walk.id, optionId: 'DEFAULT', localDate: dayFromNow(3) };
    const product = await octo('POST', '/availability', {
      token: reseller,
      body: { ...body, productId: 'nope' },
    });
    expect(product.body).toMatchObject({ error: 'INVALID_PRODUCT_ID', productId: 'nope' });
    const option = await octo('POST', '/availability', {
      token: reseller,
      body: { ...body, optionId: 'nope' },
    });
    expect(option.body).toMatchObject({ error: 'INVALID_OPTION_ID', optionId: 'nope' });
    const unit = await octo('POST', '/availability/calendar', {
      token: reseller,
      body: {
        ...body,
        localDateStart: dayFromNow(3),
        localDateEnd: dayFromNow(4),
        units: [{ id: 'nope', quantity: 1 }],
      },
    });
    expect(unit.body).toMatchObject({ error: 'INVALID_UNIT_ID', unitId: 'nope' });
  });
});

describe('a reservation', () => {
  it('is an ON_HOLD booking: a PENDING MANUAL booking holding its seats, made by the connection', async () => {
    const before = Date.now();
    const { Adult, Child } = units(walk);
    const booking = await reserved({
      expirationMinutes: 20,
      notes: 'Window seats please',
      unitItems: [{ unitId: Adult, resellerReference: 'TKT-1' }, { unitId: Child }],
    });
    expect(booking).toMatchObject({
      id: expect.stringMatching(/^bkg_/),
      uuid: expect.stringMatching(UUID),
      supplierReference: booking.id,
      status: 'ON_HOLD',
      productId: walk.id,
      optionId: 'DEFAULT',
      availabilityId: walkDepartures[0].id,
      cancellable: true,
      cancellation: null,
      notes: 'Window seats please',
      utcConfirmedAt: null,
      voucher: { redemptionMethod: 'MANIFEST', deliveryOptions: [] },
    });
    const expires = Date.parse(booking.utcExpiresAt);
    expect(expires).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 20 * 60_000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 20 * 60_000);
    expect(booking.unitItems.map((item: any) => [item.unitId, item.resellerReference])).toEqual([
      [Adult, 'TKT-1'],
      [Child, null],
    ]);
    expect(new Set(booking.unitItems.map((item: any) => item.uuid)).size).toBe(2);
    const stored = await getBooking(t, ws, booking.id);
    expect(stored).toMatchObject({
      status: 'PENDING',
      paymentMode: 'MANUAL',
      participantCount: 2,
      totalAmount: 4500,
    });
    // The reseller pays the operator: no payment page.
    expect(stored).not.toHaveProperty('checkoutUrl');
    expect(stored.paymentIntentId).toBeNull();
    // OCTO shows the expiry to the second.
    expect(Math.floor(Date.parse(stored.expiresAt) / 1000) * 1000).toBe(Date.parse(booking.utcExpiresAt));
    const history = await native(t, ws, 'GET', `/bookings/${booking.id}/history`);
    expect(history[0]).toMatchObject({ toStatus: 'PENDING', actor: { type: 'api_token', id: resellerId } });
    const departure = await native(t, ws, 'GET', `/availability?tourId=${walk.id}&limit=100`);
    expect(departure.find((d: any) => d.id === walkDepartures[0].id)).toMatchObject({ heldSeats: 2 });
  });

  it('expirationMinutes is capped at 60; the default hold is 30 minutes', async () => {
    const long = await reserved({ expirationMinutes: 600 });
    expect(Date.parse(long.utcExpiresAt) - Date.now()).toBeLessThanOrEqual(60 * 60_000);
    expect(Date.parse(long.utcExpiresAt) - Date.now()).toBeGreaterThan(58 * 60_000);
    const plain = await reserved();
    expect(Date.parse(plain.utcExpiresAt) - Date.now()).toBeLessThanOrEqual(30 * 60_000);
    expect(Date.parse(plain.utcExpiresAt) - Date.now()).toBeGreaterThan(28 * 60_000);
  });

  it('the same uuid reserves once: the same booking, one hold (sequential and concurrent)', async () => {
    const uuid = crypto.randomUUID();
    const first = await reserved({ uuid });
    const again = await reserved({ uuid, unitItems: unitItems(units(walk).Adult, units(walk).Adult) });
    expect(again.id).toBe(first.id);
    expect(again.unitItems).toHaveLength(1);
    const twin = crypto.randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        reserve({
          uuid: twin,
          availabilityId: walkDepartures[1].id,
          unitItems: unitItems(units(walk).Adult),
        }),
      ),
    );
    expect(answers.map((res) => res.status)).toEqual(Array(6).fill(200));
    expect(new Set(answers.map((res) => res.body.id)).size).toBe(1);
    const count = await t.api.database
      .knex('octo_bookings')
      .where({ uuid: twin })
      .count<{ count: string }[]>('* as count');
    expect(Number(count[0]?.count)).toBe(1);
  });

  it.each([
    ['an unknown product', { productId: 'invalidProductId' }, 'INVALID_PRODUCT_ID', 'productId'],
    ['an unpublished product', 'unpublished', 'INVALID_PRODUCT_ID', 'productId'],
    ['an unknown option', { optionId: 'invalidOptionId' }, 'INVALID_OPTION_ID', 'optionId'],
    [
      'an unknown availability',
      { availabilityId: 'invalidAvailabilityId' },
      'INVALID_AVAILABILITY_ID',
      'availabilityId',
    ],
    ["another product's availability", 'boat', 'INVALID_AVAILABILITY_ID', 'availabilityId'],
    ['an unknown unit', { unitItems: [{ unitId: 'invalidUnitId' }] }, 'INVALID_UNIT_ID', 'unitId'],
  ])('with %s is refused with its id', async (_label, change, error, field) => {
    let body: Record<string, unknown> = change as Record<string, unknown>;
    if (change === 'unpublished') {
      body = {
        productId: (
          await native(t, ws, 'POST', '/tours', ticketedTour(`hidden-${Date.now()}`, { isPublic: false }))
        ).id,
      };
    }
    if (change === 'boat') body = { availabilityId: boatDepartures[0].id };
    const res = await reserve({
      availabilityId: walkDepartures[0].id,
      unitItems: unitItems(units(walk).Adult),
      ...body,
    });
    expectOctoError(res, error);
    expect(res.body[field]).toEqual(expect.any(String));
  });

  it.each([
    ['missing unit items', undefined],
    ['no unit items', []],
  ])('with %s is UNPROCESSABLE_ENTITY', async (_label, items) => {
    const res = await reserve({ availabilityId: walkDepartures[0].id, ...(items && { unitItems: items }) });
    expectOctoError(res, 'UNPROCESSABLE_ENTITY');
  });

  it('breaking a ticket rule (a child alone) is UNPROCESSABLE_ENTITY; a malformed body BAD_REQUEST', async () => {
    const alone = await reserve({
      availabilityId: walkDepartures[0].id,
      unitItems: unitItems(units(walk).Child),
    });
    expectOctoError(alone, 'UNPROCESSABLE_ENTITY');
    expect(alone.body.errorMessage).toMatch(/adult/i);
    const malformed = await t.request('POST', '/octo/bookings', {
      token: reseller,
      rawBody: '{"productId": ',
      headers: { 'Content-Type': 'application/json', 'Octo-Capabilities': '' },
    });
    contract.check('POST', '/bookings', malformed);
    expectOctoError(malformed, 'BAD_REQUEST');
    const wrongType = await reserve({ availabilityId: walkDepartures[0].id, unitItems: 'adult' });
    expectOctoError(wrongType, 'BAD_REQUEST');
    expect(wrongType.body.errorMessage).toContain('unitItems');
    const email = await reserve({
      availabilityId: walkDepartures[0].id,
      unitItems: unitItems(units(walk).Adult),
      contact: { emailAddress: 'not an e-mail' },
    });
    expectOctoError(email, 'BAD_REQUEST');
    expect(email.body.errorMessage).toContain('contact.emailAddress');
    const empty = await reserved({ contact: { fullName: 'No Mail', emailAddress: '', phoneNumber: '' } });
    expect(empty.contact).toMatchObject({ fullName: 'No Mail', emailAddress: null, phoneNumber: '' });
  });
});

describe('a reservation then', () => {
  it('extend: expirationMinutes more, at most 60 past now; a confirmed booking is UNPROCESSABLE_ENTITY', async () => {
    const booking = await reserved({ expirationMinutes: 10 });
    const res = await octo('POST', `/bookings/${booking.uuid}/extend`, {
      token: reseller,
      body: { expirationMinutes: 31 },
    });
    expect(res.status).toBe(200);
    expect(Date.parse(res.body.utcExpiresAt) - Date.parse(booking.utcExpiresAt)).toBe(31 * 60_000);
    const capped = await octo('POST', `/bookings/${booking.uuid}/extend`, {
      token: reseller,
      body: { expirationMinutes: 60 },
    });
    expect(Date.parse(capped.body.utcExpiresAt) - Date.now()).toBeLessThanOrEqual(60 * 60_000);
    expect(Date.parse(capped.body.utcExpiresAt)).toBeGreaterThan(Date.parse(res.body.utcExpiresAt));
    const stored = await getBooking(t, ws, booking.id);
    expect(Math.floor(Date.parse(stored.expiresAt) / 1000) * 1000).toBe(Date.parse(capped.body.utcExpiresAt));
    await octo('POST', `/bookings/${booking.uuid}/confirm`, { token: reseller, body: { contact: {} } });
    expectOctoError(
      await octo('POST', `/bookings/${booking.uuid}/extend`, { token: reseller, body: {} }),
      'UNPROCESSABLE_ENTITY',
    );
  });

  it('confirm: CONFIRMED with the contact and reference, filed under the contact customer, booking.confirmed', async () => {
    const booking = await reserved({ unitItems: unitItems(units(walk).Adult, units(walk).Adult) });
    const email = `guest.${Date.now()}@example.com`;
    const res = await octo('POST', `/bookings/${booking.uuid}/confirm`, {
      token: reseller,
      capabilities: 'octo/pricing',
      body: {
        resellerReference: 'GYG-123 456',
        contact: {
          firstName: 'Grace',
          lastName: 'Hopper',
          emailAddress: email,
          phoneNumber: '+1 555 0100',
          notes: 'Vegan',
          locales: ['en-US'],
        },
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      uuid: booking.uuid,
      status: 'CONFIRMED',
      resellerReference: 'GYG-123 456',
      utcExpiresAt: null,
      utcConfirmedAt: expect.stringMatching(UTC_SECONDS),
      cancellable: true,
      contact: {
        fullName: null,
        firstName: 'Grace',
        lastName: 'Hopper',
        emailAddress: email,
        notes: 'Vegan',
        locales: ['en-US'],
      },
      voucher: { deliveryOptions: [{ deliveryFormat: 'QRCODE', deliveryValue: booking.id }] },
      pricing: { retail: 6000, currency: 'EUR' },
    });
    expect(res.body.unitItems.map((item: any) => item.uuid)).toEqual(
      booking.unitItems.map((item: any) => item.uuid),
    );
    expect(res.body.unitItems.every((item: any) => item.status === 'CONFIRMED')).toBe(true);
    const stored = await getBooking(t, ws, booking.id);
    expect(stored).toMatchObject({ status: 'CONFIRMED', expiresAt: null });
    expect(stored.participants.map((p: any) => p.name)).toEqual(['Grace Hopper', 'Grace Hopper']);
    const customer = await native(t, ws, 'GET', `/customers/${stored.customerId}`);
    expect(customer).toMatchObject({ email, name: 'Grace Hopper', phone: '+1 555 0100' });
    const events = await t.api.database
      .knex('outbox_events')
      .where({ aggregate_id: booking.id })
      .orderBy('seq');
    expect(events.map((e: any) => e.type)).toContain('booking.confirmed');
  });

  it('confirm with new unit items changes the seats; with an unknown unit INVALID_UNIT_ID; twice is allowed', async () => {
    const { Adult } = units(walk);
    const booking = await reserved({
      availabilityId: walkDepartures[2].id,
      unitItems: unitItems(Adult, Adult),
    });
    const invalid = await octo('POST', `/bookings/${booking.uuid}/confirm`, {
      token: reseller,
      body: {
        contact: { fullName: 'John Doe' },
        unitItems: [{ unitId: 'invalidUnitId' }, { unitId: 'invalidUnitId' }],
      },
    });
    expect(invalid.body).toMatchObject({ error: 'INVALID_UNIT_ID', unitId: 'invalidUnitId' });
    const res = await octo('POST', `/bookings/${booking.uuid}/confirm`, {
      token: reseller,
      body: { contact: { fullName: 'John Doe' }, unitItems: unitItems(Adult, Adult, Adult) },
    });
    expect(res.status).toBe(200);
    expect(res.body.unitItems).toHaveLength(3);
    const departure = (await native(t, ws, 'GET', `/availability?tourId=${walk.id}&limit=100`)).find(
      (d: any) => d.id === walkDepartures[2].id,
    );
    expect(departure.bookedSeats).toBe(3);
    const again = await octo('POST', `/bookings/${booking.uuid}/confirm`, {
      token: reseller,
      body: { contact: { fullName: 'John Doe' }, resellerReference: 'SECOND' },
    });
    expect(again.body).toMatchObject({ status: 'CONFIRMED', resellerReference: 'SECOND' });
  });

  it('update: another date, then units (kept uuids stay, others go), contact and notes, another product', async () => {
    const { Adult, Child } = units(walk);
    const booking = await reserved({ unitItems: unitItems(Adult, Adult) });
    const moved = await octo('PATCH', `/bookings/${booking.uuid}`, {
      token: reseller,
      body: { availabilityId: walkDepartures[3].id },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body).toMatchObject({
      availabilityId: walkDepartures[3].id,
      availability: { id: walkDepartures[3].id },
    });
    const [keep] = booking.unitItems;
    const changed = await octo('PATCH', `/bookings/${booking.uuid}`, {
      token: reseller,
      body: {
        unitItems: [{ uuid: keep.uuid, unitId: Adult }, { unitId: Child }, { unitId: Child }],
        contact: { fullName: 'Ada Lovelace', emailAddress: 'ada.octo@example.com' },
        notes: 'Birthday',
      },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.unitItems.map((item: any) => item.unitId)).toEqual([Adult, Child, Child]);
    expect(changed.body.unitItems[0].uuid).toBe(keep.uuid);
    expect(changed.body.unitItems.map((item: any) => item.uuid)).not.toContain(booking.unitItems[1].uuid);
    expect(changed.body).toMatchObject({ notes: 'Birthday', contact: { fullName: 'Ada Lovelace' } });
    const stored = await getBooking(t, ws, booking.id);
    expect(stored).toMatchObject({ participantCount: 3, totalAmount: 6000, notes: 'Birthday' });
    const product = await octo('PATCH', `/bookings/${booking.uuid}`, {
      token: reseller,
      body: {
        productId: boat.id,
        optionId: 'DEFAULT',
        availabilityId: boatDepartures[2].id,
        unitItems: unitItems(units(boat).Adult),
      },
    });
    expect(product.status, JSON.stringify(product.body)).toBe(200);
    expect(product.body).toMatchObject({
      productId: boat.id,
      availabilityId: boatDepartures[2].id,
      status: 'ON_HOLD',
    });
    expect(await getBooking(t, ws, booking.id)).toMatchObject({
      tourId: boat.id,
      participantCount: 1,
      totalAmount: 3000,
    });
    const seats = async (tourId: string, id: string) =>
      (await native(t, ws, 'GET', `/availability?tourId=${tourId}&limit=100`)).find((d: any) => d.id === id)
        .bookedSeats;
    expect(await seats(walk.id, walkDepartures[3].id)).toBe(0);
    expect(await seats(boat.id, boatDepartures[2].id)).toBeGreaterThanOrEqual(1);
  });

  it('update or cancel after the cancellation cutoff is UNPROCESSABLE_ENTITY; a hold is released any time', async () => {
    const soon = await native(t, ws, 'POST', '/availability', { tourId: walk.id, startsAt: fromNow(0, 5) });
    const hold = await reserved({ availabilityId: soon.id });
    const released = await octo('POST', `/bookings/${hold.uuid}/cancel`, {
      token: reseller,
      body: { reason: 'Changed plans' },
    });
    expect(released.status).toBe(200);
    expect(released.body).toMatchObject({
      status: 'CANCELLED',
      cancellable: false,
      utcExpiresAt: null,
      cancellation: {
        refund: 'NONE',
        reason: 'Changed plans',
        utcCancelledAt: expect.stringMatching(UTC_SECONDS),
      },
    });
    const sold = await reserved({ availabilityId: soon.id });
    await octo('POST', `/bookings/${sold.uuid}/confirm`, {
      token: reseller,
      body: { contact: { fullName: 'Late Guest' } },
    });
    const got = await octo('GET', `/bookings/${sold.uuid}`, { token: reseller });
    expect(got.body).toMatchObject({ status: 'CONFIRMED', cancellable: false });
    expectOctoError(
      await octo('POST', `/bookings/${sold.uuid}/cancel`, { token: reseller, body: {} }),
      'UNPROCESSABLE_ENTITY',
    );
    expectOctoError(
      await octo('PATCH', `/bookings/${sold.uuid}`, { token: reseller, body: { notes: 'too late' } }),
      'UNPROCESSABLE_ENTITY',
    );
    expect(await getBooking(t, ws, sold.id)).toMatchObject({ status: 'CONFIRMED', notes: null });
  });

  it('cancel a confirmed booking before the cutoff: CANCELLED, seats back, the policy refund', async () => {
    const booking = await reserved({ availabilityId: walkDepartures[4].id });
    await octo('POST', `/bookings/${booking.uuid}/confirm`, {
      token: reseller,
      body: { contact: { fullName: 'Ann' } },
    });
    const res = await octo('POST', `/bookings/${booking.uuid}/cancel`, {
      token: reseller,
      body: { reason: 'Ill' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'CANCELLED', cancellation: { refund: 'FULL', reason: 'Ill' } });
    expect(await getBooking(t, ws, booking.id)).toMatchObject({
      status: 'CANCELLED',
      cancellationReason: 'Ill',
    });
    expectOctoError(
      await octo('POST', `/bookings/${booking.uuid}/cancel`, { token: reseller }),
      'UNPROCESSABLE_ENTITY',
    );
  });

  it('expire: past its hold it is EXPIRED (confirm refused), and the worker releases its seats', async () => {
    const departure = await native(t, ws, 'POST', '/availability', {
      tourId: walk.id,
      startsAt: fromNow(12),
      capacity: 2,
    });
    const booking = await reserved({
      availabilityId: departure.id,
      unitItems: unitItems(units(walk).Adult, units(walk).Adult),
    });
    await t.api.database
      .knex('bookings')
      .where({ id: booking.id })
      .update({ expires_at: new Date(Date.now() - 1000) });
    const lapsed = await octo('GET', `/bookings/${booking.uuid}`, { token: reseller });
    expect(lapsed.body).toMatchObject({
      status: 'EXPIRED',
      cancellable: false,
      cancellation: { reason: 'EXPIRED' },
    });
    expectOctoError(
      await octo('POST', `/bookings/${booking.uuid}/confirm`, { token: reseller, body: { contact: {} } }),
      'UNPROCESSABLE_ENTITY',
    );
    expect(
      await expireHolds({ uow: createUnitOfWork(t.api.database.knex), clock: { now: () => new Date() } }),
    ).toBeGreaterThanOrEqual(1);
    const expired = await octo('GET', `/bookings/${booking.uuid}`, { token: reseller });
    expect(expired.body).toMatchObject({
      status: 'EXPIRED',
      utcExpiresAt: null,
      cancellation: { refund: 'NONE', reason: 'EXPIRED' },
    });
    const check = await octo('POST', '/availability', {
      token: reseller,
      body: { productId: walk.id, optionId: 'DEFAULT', availabilityIds: [departure.id] },
    });
    expect(check.body[0]).toMatchObject({ vacancies: 2, status: 'LIMITED', available: true });
  });
});

describe('seats are shared with every channel', () => {
  it('sold out: a reservation for more seats than are left is UNPROCESSABLE_ENTITY; the departure shows SOLD_OUT', async () => {
    const departure = await native(t, ws, 'POST', '/availability', {
      tourId: walk.id,
      startsAt: fromNow(14),
      capacity: 2,
    });
    const { Adult } = units(walk);
    expectOctoError(
      await reserve({ availabilityId: departure.id, unitItems: unitItems(Adult, Adult, Adult) }),
      'UNPROCESSABLE_ENTITY',
    );
    const last = await reserved({ availabilityId: departure.id, unitItems: unitItems(Adult, Adult) });
    // The reservation's own answer counts its seats.
    expect(last.availability).toMatchObject({ status: 'SOLD_OUT', available: false, vacancies: 0 });
    const check = await octo('POST', '/availability', {
      token: reseller,
      body: { productId: walk.id, optionId: 'DEFAULT', availabilityIds: [departure.id] },
    });
    expect(check.body[0]).toMatchObject({ status: 'SOLD_OUT', available: false, vacancies: 0 });
    expectOctoError(
      await reserve({ availabilityId: departure.id, unitItems: unitItems(Adult) }),
      'UNPROCESSABLE_ENTITY',
    );
  });

  it("a shared boat caps OCTO too: vacancies are the boat's, a reservation beyond them is UNPROCESSABLE_ENTITY (docs/resources.md)", async () => {
    const marlin = await native(t, ws, 'POST', '/resources', {
      kind: 'BOAT',
      name: 'Marlin',
      seats: 3,
      sharing: 'SHARED_SEATS',
    });
    const charter = await native(t, ws, 'POST', '/tours', {
      ...ticketedTour('octo-charter'),
      isPublic: false,
    });
    const startsAt = `${dayFromNow(15)}T17:00:00.000Z`;
    const departure = await native(t, ws, 'POST', '/availability', {
      tourId: walk.id,
      startsAt,
      capacity: 10,
      resourceIds: [marlin.id],
    });
    const other = await native(t, ws, 'POST', '/availability', {
      tourId: charter.id,
      startsAt,
      resourceIds: [marlin.id],
    });
    // Two seats sold natively on the charter leave one on the boat for the walk.
    await native(t, ws, 'POST', '/bookings', {
      availabilityId: other.id,
      paymentMode: 'MANUAL',
      customer: { name: 'Ada Lovelace', email: 'ada.octo.boat@example.com' },
      participants: [
        { name: 'Ada', ticketTypeId: units(charter).Adult },
        { name: 'Bob', ticketTypeId: units(charter).Adult },
      ],
    });
    const check = await octo('POST', '/availability', {
      token: reseller,
      body: { productId: walk.id, optionId: 'DEFAULT', availabilityIds: [departure.id] },
    });
    expect(check.body[0]).toMatchObject({ vacancies: 1, available: true });
    const { Adult } = units(walk);
    expectOctoError(
      await reserve({ availabilityId: departure.id, unitItems: unitItems(Adult, Adult) }),
      'UNPROCESSABLE_ENTITY',
    );
    const last = await reserved({ availabilityId: departure.id, unitItems: unitItems(Adult) });
    expect(last.availability).toMatchObject({ status: 'SOLD_OUT', available: false, vacancies: 0 });
  });

  it('a reseller and a native booking race for the last seat: exactly one wins, seats exact', async () => {
    for (let round = 0; round < 5; round++) {
      const departure = await native(t, ws, 'POST', '/availability', {
        tourId: walk.id,
        startsAt: fromNow(15 + round),
        capacity: 1,
      });
      const [viaOcto, viaApi] = await Promise.all([
        reserve({ availabilityId: departure.id, unitItems: unitItems(units(walk).Adult) }),
        t.request('POST', bookingsPath(ws), {
          token: ws.token,
          body: bookingInput(departure.id, {
            paymentMode: 'MANUAL',
            participants: [{ name: 'Native', ageBand: 'ADULT' }],
          }),
        }),
      ]);
      const wins = [viaOcto.status === 200, viaApi.status === 201];
      expect(wins.filter(Boolean), JSON.stringify([viaOcto.body, viaApi.body])).toHaveLength(1);
      if (viaOcto.status !== 200) expectOctoError(viaOcto, 'UNPROCESSABLE_ENTITY');
      if (viaApi.status !== 201) expect(viaApi.status).toBe(409);
      const row = await t.api.database.knex('availability').where({ id: departure.id }).first();
      expect(row.booked_seats).toBe(1);
      const live = await t.api.database
        .knex('bookings')
        .where({ availability_id: departure.id })
        .whereNot({ status: 'CANCELLED' });
      expect(live).toHaveLength(1);
    }
  });

  it('a native booking fills what OCTO shows, and the operator sees OCTO bookings among its own', async () => {
    const departure = await native(t, ws, 'POST', '/availability', {
      tourId: walk.id,
      startsAt: fromNow(20),
      capacity: 3,
    });
    await book(t, ws, departure.id, { paymentMode: 'MANUAL', participants: [{ name: 'A' }, { name: 'B' }] });
    const check = await octo('POST', '/availability', {
      token: reseller,
      body: { productId: walk.id, optionId: 'DEFAULT', availabilityIds: [departure.id] },
    });
    expect(check.body[0]).toMatchObject({ vacancies: 1, status: 'LIMITED' });
    const booking = await reserved({ availabilityId: departure.id });
    const listed = await native(t, ws, 'GET', `/availability/${departure.id}/manifest`);
    expect(listed.bookings.map((b: any) => b.id)).toContain(booking.id);
  });
});

describe('reading bookings', () => {
  it('get by uuid; an unknown uuid, or another connection booking, is INVALID_BOOKING_UUID', async () => {
    const booking = await reserved();
    const res = await octo('GET', `/bookings/${booking.uuid}`, { token: reseller });
    expect(res.body).toMatchObject({ id: booking.id, uuid: booking.uuid, status: 'ON_HOLD' });
    const unknown = await octo('GET', '/bookings/invalidUUID', { token: reseller });
    expect(unknown.body).toMatchObject({ error: 'INVALID_BOOKING_UUID', uuid: 'invalidUUID' });
    const other = await t.createToken(ws.workspaceId, 'RESELLER');
    expectOctoError(
      await octo('GET', `/bookings/${booking.uuid}`, { token: other.token }),
      'INVALID_BOOKING_UUID',
    );
    for (const path of ['/confirm', '/extend', '/cancel']) {
      const res = await octo('POST', `/bookings/${booking.uuid}${path}`, {
        token: other.token,
        body: { contact: {} },
      });
      expectOctoError(res, 'INVALID_BOOKING_UUID');
    }
    expectOctoError(
      await octo('PATCH', `/bookings/${booking.uuid}`, { token: other.token, body: {} }),
      'INVALID_BOOKING_UUID',
    );
    expect(await getBooking(t, ws, booking.id)).toMatchObject({ status: 'PENDING' });
  });

  it('list by resellerReference, supplierReference or local dates; none is BAD_REQUEST', async () => {
    const reference = `REF-${Date.now()}`;
    const booking = await reserved({ availabilityId: walkDepartures[5].id, resellerReference: reference });
    const byReseller = await octo('GET', `/bookings?resellerReference=${reference}`, { token: reseller });
    expect(byReseller.body.map((b: any) => b.id)).toEqual([booking.id]);
    const bySupplier = await octo('GET', `/bookings?supplierReference=${booking.id}`, { token: reseller });
    expect(bySupplier.body.map((b: any) => b.id)).toEqual([booking.id]);
    const day = booking.availability.localDateTimeStart.slice(0, 10);
    const byDay = await octo('GET', `/bookings?localDate=${day}`, { token: reseller });
    expect(byDay.body.map((b: any) => b.id)).toContain(booking.id);
    expect(byDay.body.every((b: any) => b.availability.localDateTimeStart.startsWith(day))).toBe(true);
    const byRange = await octo('GET', `/bookings?localDateStart=${day}&localDateEnd=${day}`, {
      token: reseller,
    });
    expect(byRange.body.map((b: any) => b.id)).toEqual(byDay.body.map((b: any) => b.id));
    expectOctoError(await octo('GET', '/bookings', { token: reseller }), 'BAD_REQUEST');
    expectOctoError(await octo('GET', `/bookings?localDateStart=${day}`, { token: reseller }), 'BAD_REQUEST');
    const native1 = await book(t, ws, walkDepartures[5].id, { paymentMode: 'MANUAL' });
    const nativeList = await octo('GET', `/bookings?supplierReference=${native1.id}`, { token: reseller });
    expect(nativeList.body).toEqual([]);
  });

  it('an unknown operation is 404 in OCTO shape', async () => {
    const res = await octo('GET', '/nope', { token: reseller });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error: 'NOT_FOUND', errorMessage: expect.any(String) });
  });
});
