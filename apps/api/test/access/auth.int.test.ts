import { createStores } from '@travelops/db';
import type { TokenRole } from '@travelops/domain/shared';
import { apiRoutes, type RouteDefinition } from '@travelops/http';
import { type OctoRouteDefinition, octoRoutes } from '@travelops/octo';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenRevoke } from '../../src/cli/commands.js';
import { book, bookingInput, confirmedBooking, pay } from '../support/booking-fixtures.js';
import {
  createCustomer,
  createDeparture,
  createTour,
  customerInput,
  expectError,
  fromNow,
  type TestWorkspace,
  tourInput,
  UNKNOWN_IDS,
} from '../support/fixtures.js';
import { startTestApi, type TestApi } from '../support/harness.js';
import { createOctoContract, dayFromNow } from '../support/octo-fixtures.js';
import { must, newGuide, newMember, newVehicle, opsPath } from '../support/operations-fixtures.js';

interface Seeded {
  ws: TestWorkspace;
  tour: any;
  departure: any;
  customer: any;
  /** A CONFIRMED booking: every booking operation would apply to it. */
  booking: any;
  /** Room for the bookings the role probes make. */
  probeDeparture: any;
  /** A webhook endpoint subscribed to the booking's confirmation, and that event's delivery. */
  endpoint: any;
  delivery: any;
  /** CRM records: a company, a lead (with an e-mail, so it can be converted) and a task. */
  company: any;
  lead: any;
  task: any;
  /** Operations records: a blackout day, a guide with time off, a vehicle, a vendor, an incident, an itinerary with an item. */
  ops: Record<string, string>;
  /** Members not yet guides, one per createGuide probe. */
  spareMembers: string[];
  /** A schedule of the tour (with departures of its own). */
  schedule: any;
}

let t: TestApi;
let a: Seeded;
let b: Seeded;
/** Every token secret this file sends; none may ever reach the logs. */
const secrets = new Set<string>();

/** A webhook endpoint of the workspace (never delivered to: no delivery job runs here). */
async function webhookEndpoint(ws: TestWorkspace) {
  const res = await t.request('POST', `/workspaces/${ws.workspaceId}/webhook-endpoints`, {
    token: ws.token,
    body: { url: 'http://127.0.0.1:9/hooks', events: ['booking.confirmed'] },
  });
  if (res.status !== 201) throw new Error(`create endpoint: ${res.status} ${JSON.stringify(res.body)}`);
  secrets.add(res.body.data.secret);
  return res.body.data;
}

async function created(ws: TestWorkspace, path: string, body: unknown) {
  const res = await t.request('POST', `/workspaces/${ws.workspaceId}${path}`, { token: ws.token, body });
  if (res.status !== 201) throw new Error(`create ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

const newCompany = (ws: TestWorkspace, name = 'Probe Company') => created(ws, '/companies', { name });
const newLead = (ws: TestWorkspace, name = 'Probe Lead') =>
  created(ws, '/leads', {
    name,
    email: `${name.toLowerCase().replace(/\W+/g, '-')}-${Date.now()}-${Math.random()}@lead.example`,
  });
const newTask = (ws: TestWorkspace, title = 'Probe Task') => created(ws, '/crm-tasks', { title });

const dayAhead = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
/** A schedule of the tour: Sundays at `time`, for ten days a month ahead. */
const scheduleBody = (time: string) => ({
  daysOfWeek: ['SUN'],
  times: [time],
  startsOn: dayAhead(30),
  endsOn: dayAhead(40),
});
const newSchedule = (ws: TestWorkspace, tourId: string, time = '10:00') =>
  created(ws, `/tours/${tourId}/schedules`, scheduleBody(time));

async function seed(name: string): Promise<Seeded> {
  const ws = await t.createWorkspace('ADMIN');
  secrets.add(ws.token);
  const endpoint = await webhookEndpoint(ws);
  const tour = await createTour(t, ws, { name: `${name} Secret Tour`, slug: `${name.toLowerCase()}-secret` });
  const departure = await createDeparture(t, ws, tour.id, { capacity: 5 });
  const customer = await createCustomer(t, ws, { name: `${name} Secret Customer` });
  const probeDeparture = await createDeparture(t, ws, tour.id, { capacity: 1000 });
  const booking = await confirmedBooking(t, ws, departure.id, {
    customer: { name: `${name} Secret Booker`, email: customer.email },
    notes: `${name} Secret Notes`,
  });
  // The confirmation's delivery to the endpoint, as the worker's fan-out queues it.
  await createStores(t.api.database.knex).webhookDeliveries.fanOut(500);
  const deliveries = await t.request(
    'GET',
    `/workspaces/${ws.workspaceId}/webhook-endpoints/${endpoint.id}/deliveries`,
    {
      token: ws.token,
    },
  );
  const [delivery] = deliveries.body.data;
  if (!delivery) throw new Error(`no delivery: ${deliveries.status} ${JSON.stringify(deliveries.body)}`);
  const company = await newCompany(ws, `${name} Secret Company`);
  const lead = await newLead(ws, `${name} Secret Lead`);
  const task = await newTask(ws, `${name} Secret Task`);
  return {
    ws,
    tour,
    departure,
    customer,
    booking,
    probeDeparture,
    endpoint,
    delivery,
    company,
    lead,
    task,
    ops: await seedOperations(ws, customer.id),
    spareMembers: await Promise.all(Array.from({ length: 20 }, () => newMember(t, ws))),
    schedule: await newSchedule(ws, tour.id),
  };
}

let probeCounter = 0;

const blackoutDay = (ws: TestWorkspace) =>
  t
    .request('POST', opsPath(ws, '/blackout-dates'), {
      token: ws.token,
      body: {
        date: `2040-0${1 + Math.floor(probeCounter / 28)}-${String(1 + (probeCounter++ % 28)).padStart(2, '0')}`,
      },
    })
    .then((res) => must('blackout', res, 201));

const timeOff = (ws: TestWorkspace, memberId: string) =>
  t
    .request('POST', opsPath(ws, `/guides/${memberId}/time-off`), {
      token: ws.token,
      body: { startsAt: '2040-01-01T00:00:00Z', endsAt: '2040-01-02T00:00:00Z' },
    })
    .then((res) => must('time off', res, 201));

const vendor = (ws: TestWorkspace) =>
  t
    .request('POST', opsPath(ws, '/vendors'), { token: ws.token, body: { name: 'Probe', category: 'OTHER' } })
    .then((res) => must('vendor', res, 201));

const itineraryItem = (ws: TestWorkspace, itineraryId: string) =>
  t
    .request('POST', opsPath(ws, `/itineraries/${itineraryId}/items`), {
      token: ws.token,
      body: { type: 'OTHER', title: 'Probe', startsAt: '2040-01-01T10:00:00Z' },
    })
    .then((res) => must('item', res, 201));

const newResource = (ws: TestWorkspace) =>
  t
    .request('POST', opsPath(ws, '/resources'), {
      token: ws.token,
      body: { kind: 'ROOM', name: 'Probe room' },
    })
    .then((res) => must('resource', res, 201));

async function seedOperations(ws: TestWorkspace, customerId: string): Promise<Record<string, string>> {
  const memberId = await newGuide(t, ws);
  const incident = must(
    'incident',
    await t.request('POST', opsPath(ws, '/incidents'), {
      token: ws.token,
      body: { severity: 'LOW', title: 'Secret incident', occurredAt: '2040-01-01T00:00:00Z' },
    }),
    201,
  );
  const itinerary = must(
    'itinerary',
    await t.request('POST', opsPath(ws, '/itineraries'), {
      token: ws.token,
      body: { customerId, title: 'Secret trip', startsOn: '2040-01-01', endsOn: '2040-01-05' },
    }),
    201,
  );
  return {
    blackoutDateId: (await blackoutDay(ws)).id,
    memberId,
    timeOffId: (await timeOff(ws, memberId)).id,
    vehicleId: (await newVehicle(t, ws)).id,
    resourceId: (await newResource(ws)).id,
    vendorId: (await vendor(ws)).id,
    incidentId: incident.id,
    itineraryId: itinerary.id,
    itemId: (await itineraryItem(ws, itinerary.id)).id,
  };
}

async function token(workspace: TestWorkspace, role: TokenRole) {
  const created = await t.createToken(workspace.workspaceId, role);
  secrets.add(created.token);
  return created;
}

beforeAll(async () => {
  t = await startTestApi();
  a = await seed('Alpha');
  b = await seed('Bravo');
});
afterAll(() => t.close());

/**
 * The bearer-token matrix: every route a token may call. Session-only routes (sign-in,
 * API-key settings, members) have their own matrix in sessions/api-keys tests.
 */
const protectedRoutes = apiRoutes.filter(
  (route) => typeof route.access === 'object' && route.access.sessionOnly !== true,
);
const routeName = (route: RouteDefinition) => `${route.method.toUpperCase()} ${route.path}`;

/** The route's path for workspace `s`, naming `s`'s own records. */
function pathFor(route: RouteDefinition, s: Seeded, ids: Partial<Record<string, string>> = {}): string {
  const values: Record<string, string> = {
    workspaceId: s.ws.workspaceId,
    tourId: s.tour.id,
    availabilityId: s.departure.id,
    customerId: s.customer.id,
    bookingId: s.booking.id,
    endpointId: s.endpoint.id,
    deliveryId: s.delivery.id,
    companyId: s.company.id,
    leadId: s.lead.id,
    taskId: s.task.id,
    scheduleId: s.schedule.id,
    ...s.ops,
    ...ids,
  };
  const path = route.path.replace(/\{(\w+)\}/g, (_match, name: string) => {
    const value = values[name];
    if (!value) throw new Error(`no test value for path parameter ${name} of ${routeName(route)}`);
    return value;
  });
  return `${path}${REQUIRED_QUERIES[route.operationId] ?? ''}`;
}

/** The query of the reads that need one, so a refusal can only be the credential's doing. */
const REQUIRED_QUERIES: Record<string, string> = {
  getGuideSchedule: '?from=2040-01-01&to=2040-01-02',
  getResourceCalendar: '?date=2040-01-01',
};

/** A request each write route would accept, so a refusal can only be the role's doing. */
const VALID_BODIES: Record<string, (s: Seeded) => unknown> = {
  createTour: () => tourInput({ name: 'Role Probe' }),
  updateTour: () => ({ description: 'changed by a role probe' }),
  createAvailability: (s) => ({ tourId: s.tour.id, startsAt: fromNow(40) }),
  updateAvailability: () => ({ capacity: 7 }),
  createCustomer: () => customerInput({ name: 'Role Probe' }),
  createBooking: (s) => bookingInput(s.probeDeparture.id, { paymentMode: 'MANUAL' }),
  updateBooking: () => ({ notes: 'changed by a role probe' }),
  setBookingStatus: () => ({ status: 'CONFIRMED', reason: 'role probe' }),
  extendBookingHold: () => ({ minutes: 5 }),
  createPaymentLink: () => undefined,
  checkInBooking: () => ({}),
  rotateBookingPublicToken: () => undefined,
  createBookingRefund: () => ({ amount: 100, reason: 'role probe' }),
  createWebhookEndpoint: () => ({ url: 'http://127.0.0.1:9/probe', events: ['booking.created'] }),
  updateWebhookEndpoint: () => ({ description: 'changed by a role probe' }),
  deleteWebhookEndpoint: () => undefined,
  rotateWebhookEndpointSecret: () => ({}),
  resendWebhookDelivery: () => undefined,
  updateCustomer: () => ({ tags: ['role-probe'] }),
  createCustomerNote: () => ({ body: 'role probe' }),
  createCompany: () => ({ name: 'Role Probe Co' }),
  updateCompany: () => ({ notes: 'changed by a role probe' }),
  deleteCompany: () => undefined,
  createLead: () => ({ name: 'Role Probe Lead' }),
  updateLead: () => ({ notes: 'changed by a role probe' }),
  deleteLead: () => undefined,
  convertLead: () => ({}),
  createCrmTask: () => ({ title: 'Role probe' }),
  updateCrmTask: () => ({ priority: 'HIGH' }),
  deleteCrmTask: () => undefined,
  createBlackoutDate: () => ({ date: `2041-01-${String(1 + (probeCounter++ % 28)).padStart(2, '0')}` }),
  deleteBlackoutDate: () => undefined,
  createGuide: (s) => ({ memberId: s.spareMembers.shift() ?? 'mem_none', displayName: 'Probe' }),
  updateGuide: () => ({ phone: '+1 555 0100' }),
  createGuideTimeOff: () => ({ startsAt: '2041-02-01T00:00:00Z', endsAt: '2041-02-02T00:00:00Z' }),
  deleteGuideTimeOff: () => undefined,
  createVehicle: () => ({ name: 'Probe van', seats: 8 }),
  updateVehicle: () => ({ notes: 'changed by a role probe' }),
  deleteVehicle: () => undefined,
  createResource: () => ({ kind: 'BOAT', name: 'Probe boat', seats: 8, sharing: 'SHARED_SEATS' }),
  updateResource: () => ({ name: 'Renamed by a role probe' }),
  deleteResource: () => undefined,
  createVendor: () => ({ name: 'Probe', category: 'OTHER' }),
  updateVendor: () => ({ notes: 'changed by a role probe' }),
  deleteVendor: () => undefined,
  createIncident: () => ({ severity: 'LOW', title: 'Probe', occurredAt: '2041-01-01T00:00:00Z' }),
  updateIncident: () => ({ status: 'INVESTIGATING' }),
  createItinerary: (s) => ({
    customerId: s.customer.id,
    title: 'Probe',
    startsOn: '2041-01-01',
    endsOn: '2041-01-02',
  }),
  updateItinerary: () => ({ notes: 'changed by a role probe' }),
  createItineraryItem: () => ({ type: 'OTHER', title: 'Probe', startsAt: '2040-01-02T10:00:00Z' }),
  updateItineraryItem: () => ({ title: 'changed by a role probe' }),
  deleteItineraryItem: () => undefined,
  createSchedule: () => scheduleBody('12:15'),
  updateSchedule: () => ({ capacity: 7 }),
  deleteSchedule: () => undefined,
  eraseCustomer: () => ({ cancelUpcoming: true }),
};

/**
 * The state a booking write needs to succeed. Each role probe gets a fresh booking in that
 * state, so the second allowed role is not refused for what the first one changed.
 */
const PROBE_BOOKINGS: Record<string, (s: Seeded) => Promise<{ id: string }>> = {
  updateBooking: (s) => book(t, s.ws, s.probeDeparture.id),
  setBookingStatus: (s) => book(t, s.ws, s.probeDeparture.id, { paymentMode: 'MANUAL' }),
  extendBookingHold: (s) => book(t, s.ws, s.probeDeparture.id),
  createPaymentLink: (s) => book(t, s.ws, s.probeDeparture.id, { paymentMode: 'MANUAL' }),
  rotateBookingPublicToken: (s) => book(t, s.ws, s.probeDeparture.id),
  checkInBooking: (s) => confirmedBooking(t, s.ws, s.probeDeparture.id),
  createBookingRefund: async (s) => {
    const booking = await book(t, s.ws, s.probeDeparture.id);
    const paid = await pay(t, booking.checkoutUrl);
    if (paid.status !== 200) throw new Error(`pay: ${paid.status} ${JSON.stringify(paid.body)}`);
    return booking;
  },
};

/** Deleting an endpoint takes a fresh one, so the seeded endpoint outlives the probes. */
const PROBE_ENDPOINTS: Record<string, (s: Seeded) => Promise<{ id: string }>> = {
  deleteWebhookEndpoint: (s) => webhookEndpoint(s.ws),
};

/** Deletes and conversions take a fresh CRM record, so the seeded ones outlive the probes. */
const PROBE_CRM: Record<string, (s: Seeded) => Promise<Record<string, string>>> = {
  deleteCompany: async (s) => ({ companyId: (await newCompany(s.ws)).id }),
  deleteLead: async (s) => ({ leadId: (await newLead(s.ws)).id }),
  convertLead: async (s) => ({ leadId: (await newLead(s.ws)).id }),
  deleteCrmTask: async (s) => ({ taskId: (await newTask(s.ws)).id }),
  // Erasing takes a fresh customer, so the seeded one keeps its name for the other probes.
  eraseCustomer: async (s) => ({ customerId: (await createCustomer(t, s.ws)).id }),
};

/** Deleting an operations record takes a fresh one of its kind. */
const PROBE_RECORDS: Record<string, (s: Seeded) => Promise<Record<string, string>>> = {
  deleteBlackoutDate: async (s) => ({ blackoutDateId: (await blackoutDay(s.ws)).id }),
  deleteGuideTimeOff: async (s) => ({ timeOffId: (await timeOff(s.ws, s.ops.memberId as string)).id }),
  deleteVehicle: async (s) => ({ vehicleId: (await newVehicle(t, s.ws)).id }),
  deleteResource: async (s) => ({ resourceId: (await newResource(s.ws)).id }),
  deleteVendor: async (s) => ({ vendorId: (await vendor(s.ws)).id }),
  deleteItineraryItem: async (s) => ({ itemId: (await itineraryItem(s.ws, s.ops.itineraryId as string)).id }),
  deleteSchedule: async (s) => ({ scheduleId: (await newSchedule(s.ws, s.tour.id, '16:45')).id }),
};

/** The path a role probe of the route uses: a fresh booking (or endpoint) where the write changes one. */
async function probePath(route: RouteDefinition, s: Seeded) {
  const probe = PROBE_BOOKINGS[route.operationId];
  const endpoint = PROBE_ENDPOINTS[route.operationId];
  const crm = PROBE_CRM[route.operationId];
  const record = PROBE_RECORDS[route.operationId];
  return pathFor(route, s, {
    ...(crm && (await crm(s))),
    ...(probe && { bookingId: (await probe(s)).id }),
    ...(endpoint && { endpointId: (await endpoint(s)).id }),
    ...(record && (await record(s))),
  });
}

/**
 * Decisions §6: READ_ONLY reads; OPERATIONS also writes bookings (refunds included), check-ins,
 * availability and customers; ADMIN writes tours too.
 */
const WRITERS: Record<string, TokenRole[]> = {
  createTour: ['ADMIN'],
  updateTour: ['ADMIN'],
  createAvailability: ['OPERATIONS', 'ADMIN'],
  updateAvailability: ['OPERATIONS', 'ADMIN'],
  createCustomer: ['OPERATIONS', 'ADMIN'],
  createBooking: ['OPERATIONS', 'ADMIN'],
  updateBooking: ['OPERATIONS', 'ADMIN'],
  setBookingStatus: ['OPERATIONS', 'ADMIN'],
  extendBookingHold: ['OPERATIONS', 'ADMIN'],
  createPaymentLink: ['OPERATIONS', 'ADMIN'],
  rotateBookingPublicToken: ['OPERATIONS', 'ADMIN'],
  createBookingRefund: ['OPERATIONS', 'ADMIN'],
  checkInBooking: ['OPERATIONS', 'ADMIN'],
  // Webhook endpoints are ADMIN's (webhooks:manage), reads included.
  createWebhookEndpoint: ['ADMIN'],
  updateWebhookEndpoint: ['ADMIN'],
  deleteWebhookEndpoint: ['ADMIN'],
  rotateWebhookEndpointSecret: ['ADMIN'],
  resendWebhookDelivery: ['ADMIN'],
  listWebhookEndpoints: ['ADMIN'],
  getWebhookEndpoint: ['ADMIN'],
  listWebhookDeliveries: ['ADMIN'],
  // CRM (crm:write); the customer PATCH is a customer write (customers:write).
  updateCustomer: ['OPERATIONS', 'ADMIN'],
  createCustomerNote: ['OPERATIONS', 'ADMIN'],
  createCompany: ['OPERATIONS', 'ADMIN'],
  updateCompany: ['OPERATIONS', 'ADMIN'],
  deleteCompany: ['OPERATIONS', 'ADMIN'],
  createLead: ['OPERATIONS', 'ADMIN'],
  updateLead: ['OPERATIONS', 'ADMIN'],
  deleteLead: ['OPERATIONS', 'ADMIN'],
  convertLead: ['OPERATIONS', 'ADMIN'],
  createCrmTask: ['OPERATIONS', 'ADMIN'],
  updateCrmTask: ['OPERATIONS', 'ADMIN'],
  deleteCrmTask: ['OPERATIONS', 'ADMIN'],
  // Operations (docs/operations.md): the day-to-day resources are OPERATIONS' (availability:write,
  // incidents:write, itineraries:write); guide profiles are ADMIN's (members:manage).
  createBlackoutDate: ['OPERATIONS', 'ADMIN'],
  deleteBlackoutDate: ['OPERATIONS', 'ADMIN'],
  createGuide: ['ADMIN'],
  updateGuide: ['ADMIN'],
  createGuideTimeOff: ['OPERATIONS', 'ADMIN'],
  deleteGuideTimeOff: ['OPERATIONS', 'ADMIN'],
  createVehicle: ['OPERATIONS', 'ADMIN'],
  updateVehicle: ['OPERATIONS', 'ADMIN'],
  deleteVehicle: ['OPERATIONS', 'ADMIN'],
  createResource: ['OPERATIONS', 'ADMIN'],
  updateResource: ['OPERATIONS', 'ADMIN'],
  deleteResource: ['OPERATIONS', 'ADMIN'],
  createVendor: ['OPERATIONS', 'ADMIN'],
  updateVendor: ['OPERATIONS', 'ADMIN'],
  deleteVendor: ['OPERATIONS', 'ADMIN'],
  createIncident: ['OPERATIONS', 'ADMIN'],
  updateIncident: ['OPERATIONS', 'ADMIN'],
  createItinerary: ['OPERATIONS', 'ADMIN'],
  updateItinerary: ['OPERATIONS', 'ADMIN'],
  createItineraryItem: ['OPERATIONS', 'ADMIN'],
  updateItineraryItem: ['OPERATIONS', 'ADMIN'],
  deleteItineraryItem: ['OPERATIONS', 'ADMIN'],
  // Schedules generate and change departures: availability:write, as departures.
  createSchedule: ['OPERATIONS', 'ADMIN'],
  updateSchedule: ['OPERATIONS', 'ADMIN'],
  deleteSchedule: ['OPERATIONS', 'ADMIN'],
  // A customer's personal data, whole: ADMIN's alone (personal-data:manage, decisions §13).
  exportCustomerData: ['ADMIN'],
  eraseCustomer: ['ADMIN'],
};
/** RESELLER sells through `/octo/*` only: every native route refuses it, reads included. */
const ROLES: TokenRole[] = ['READ_ONLY', 'OPERATIONS', 'ADMIN', 'RESELLER'];

/** A GET that asks only for 'read', which every role has; other GETs are in WRITERS. */
const readableByAll = (route: RouteDefinition) =>
  route.method === 'get' && typeof route.access === 'object' && route.access.permission === 'read';

function send(
  route: RouteDefinition,
  path: string,
  options: { token?: string; headers?: Record<string, string> },
) {
  const factory = VALID_BODIES[route.operationId];
  return t.request(route.method.toUpperCase(), path, {
    ...options,
    ...(route.method !== 'get' && factory && { body: factory(a) }),
  });
}

/** Everything workspace `s` holds, to prove a refused request changed nothing. */
async function snapshot(s: Seeded) {
  const knex = t.api.database.knex;
  const where = { workspace_id: s.ws.workspaceId };
  return {
    tours: await knex('tours').where(where).orderBy('id'),
    availability: await knex('availability').where(where).orderBy('id'),
    customers: await knex('customers').where(where).orderBy('id'),
    bookings: await knex('bookings').where(where).orderBy('id'),
    history: await knex('booking_history').where(where).orderBy('seq'),
    events: await knex('outbox_events').where(where).orderBy('seq'),
    payments: await knex('payments').where(where).orderBy('seq'),
    sessions: await knex('payment_sessions').where(where).orderBy('id'),
    webhookEndpoints: await knex('webhook_endpoints').where(where).orderBy('id'),
    webhookDeliveries: await knex('webhook_deliveries').where(where).orderBy('id'),
    companies: await knex('companies').where(where).orderBy('id'),
    leads: await knex('leads').where(where).orderBy('id'),
    crmTasks: await knex('crm_tasks').where(where).orderBy('id'),
    customerNotes: await knex('customer_notes').where(where).orderBy('id'),
    blackoutDates: await knex('blackout_dates').where(where).orderBy('id'),
    guides: await knex('guide_profiles').where(where).orderBy('member_id'),
    timeOff: await knex('guide_time_off').where(where).orderBy('id'),
    vehicles: await knex('vehicles').where(where).orderBy('id'),
    resources: await knex('resources').where(where).orderBy('id'),
    vendors: await knex('vendors').where(where).orderBy('id'),
    incidents: await knex('incidents').where(where).orderBy('id'),
    itineraries: await knex('itineraries').where(where).orderBy('id'),
    itineraryItems: await knex('itinerary_items').where(where).orderBy('id'),
    schedules: await knex('schedules').where(where).orderBy('id'),
    resellerBookings: await knex('octo_bookings').where(where).orderBy('booking_id'),
  };
}

it('every route under /public/ needs no credential (so it is not in the matrix), the guest cancel among them', () => {
  for (const route of apiRoutes.filter((r) => r.path.startsWith('/public/'))) {
    expect(route.access, routeName(route)).toBe('public');
    expect(protectedRoutes, routeName(route)).not.toContain(route);
  }
  expect(apiRoutes.find((route) => route.operationId === 'cancelPublicBooking')).toMatchObject({
    access: 'public',
    path: '/public/bookings/{publicToken}/cancel',
  });
});

it('the route table has protected routes and every write route is in the role table', () => {
  expect(protectedRoutes.length).toBeGreaterThanOrEqual(10);
  for (const route of protectedRoutes) {
    if (readableByAll(route)) continue;
    expect(WRITERS, routeName(route)).toHaveProperty(route.operationId);
    if (route.method === 'get') continue;
    expect(VALID_BODIES, routeName(route)).toHaveProperty(route.operationId);
  }
});

describe.each(protectedRoutes.map((route) => [routeName(route), route] as const))('%s', (_name, route) => {
  const expect401 = async (headers: Record<string, string>) => {
    const res = await send(route, pathFor(route, a), { headers });
    expectError(res, 401, 'UNAUTHENTICATED');
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /);
    expect(JSON.stringify(res.body)).not.toContain('Alpha Secret');
    return res;
  };

  it('no Authorization header: 401 UNAUTHENTICATED', async () => {
    await expect401({});
  });

  it.each([
    ['an empty header', ''],
    ['the scheme alone', 'Bearer'],
    ['the scheme and a space', 'Bearer '],
    ['another scheme', 'Basic x'],
    ['Basic credentials', `Basic ${Buffer.from('user:pass').toString('base64')}`],
    ['two tokens', 'Bearer a b'],
    ['a token with symbols', 'Bearer tops_abc/def+ghi='],
    ['an absurdly long token', `Bearer ${'a'.repeat(5000)}`],
  ])('a malformed header (%s): 401 UNAUTHENTICATED', async (_label, value) => {
    await expect401({ Authorization: value });
  });

  it('an unknown token: 401 UNAUTHENTICATED', async () => {
    await expect401({ Authorization: `Bearer tops_${'x'.repeat(43)}` });
  });

  it('an expired token: 401 UNAUTHENTICATED', async () => {
    const expired = await token(a.ws, 'ADMIN');
    await t.api.database
      .knex('api_tokens')
      .where({ id: expired.tokenId })
      .update({ expires_at: new Date(Date.now() - 60_000) });
    await expect401({ Authorization: `Bearer ${expired.token}` });
  });

  it('a revoked token: 401 UNAUTHENTICATED', async () => {
    const revoked = await token(a.ws, 'ADMIN');
    const result = await tokenRevoke(t.commandDeps, { 'token-id': revoked.tokenId });
    expect(result.ok).toBe(true);
    await expect401({ Authorization: `Bearer ${revoked.token}` });
  });

  it("a token of workspace B on workspace A's path: 403 FORBIDDEN, no A data", async () => {
    const before = await snapshot(a);
    const res = await send(route, pathFor(route, a), { token: b.ws.token });
    expectError(res, 403, 'FORBIDDEN');
    const text = JSON.stringify(res.body);
    for (const secret of [
      a.tour.id,
      a.customer.id,
      a.departure.id,
      a.booking.id,
      a.company.id,
      a.lead.id,
      a.task.id,
      'Alpha Secret',
    ]) {
      expect(text).not.toContain(secret);
    }
    expect(await snapshot(a)).toEqual(before);
  });

  it('a valid token on a workspace that does not exist: 403 FORBIDDEN', async () => {
    const res = await send(route, pathFor(route, a, { workspaceId: UNKNOWN_IDS.workspace }), {
      token: a.ws.token,
    });
    expectError(res, 403, 'FORBIDDEN');
  });

  it.runIf(route.path.includes('{workspaceId}'))(
    "the workspace's slug where its id belongs: 400 naming workspaceId and saying an id is needed (decisions §10)",
    async () => {
      const before = await snapshot(a);
      const res = await send(route, pathFor(route, a, { workspaceId: a.ws.slug }), { token: a.ws.token });
      expectError(res, 400, 'VALIDATION_ERROR');
      expect(res.body.error.details).toEqual([{ field: 'workspaceId', issue: 'not_a_workspace_id' }]);
      expect(res.body.error.message).toMatch(/takes the workspace's id \(ws_\.\.\.\), not its slug/);
      expect(await snapshot(a)).toEqual(before);
    },
  );

  it('an unknown token on a foreign workspace is 401, not 403: authentication comes first', async () => {
    const res = await send(route, pathFor(route, b), { headers: { Authorization: 'Bearer tops_unknown' } });
    expectError(res, 401, 'UNAUTHENTICATED');
  });

  it.each(ROLES)('role %s', async (role) => {
    const { token: secret } = await token(a.ws, role);
    const allowed =
      (readableByAll(route) && role !== 'RESELLER') || (WRITERS[route.operationId] ?? []).includes(role);
    const path = await probePath(route, a);
    const before = await snapshot(a);
    const res = await send(route, path, { token: secret });
    if (allowed) {
      expect(res.status, JSON.stringify(res.body)).toBe(route.success.status);
      expect(res.body).toHaveProperty('data');
    } else {
      expectError(res, 403, 'FORBIDDEN');
      expect(await snapshot(a)).toEqual(before);
    }
  });
});

describe('revocation', () => {
  it('a token revoked with token:revoke fails on the very next request', async () => {
    const live = await token(a.ws, 'READ_ONLY');
    const path = `/workspaces/${a.ws.workspaceId}/tours`;
    expect((await t.request('GET', path, { token: live.token })).status).toBe(200);
    const revoked = await tokenRevoke(t.commandDeps, { 'token-id': live.tokenId });
    expect(revoked).toMatchObject({ ok: true, value: { tokenId: live.tokenId } });
    expectError(await t.request('GET', path, { token: live.token }), 401, 'UNAUTHENTICATED');
    // Other tokens of the workspace are untouched.
    expect((await t.request('GET', path, { token: a.ws.token })).status).toBe(200);
  });

  it('a token a read just used (remembered for reads) cannot start a write once revoked', async () => {
    const live = await token(a.ws, 'ADMIN');
    const path = `/workspaces/${a.ws.workspaceId}/customers`;
    expect((await t.request('GET', path, { token: live.token })).status).toBe(200);
    await tokenRevoke(t.commandDeps, { 'token-id': live.tokenId });
    const email = `after-revoke-${live.tokenId}@example.com`;
    const write = await t.request('POST', path, { token: live.token, body: { name: 'Late', email } });
    expectError(write, 401, 'UNAUTHENTICATED');
    expect(write.body.error.message).toBe('The bearer token is invalid, expired or revoked.');
    expect(await t.api.database.knex('customers').where({ email }).first()).toBeUndefined();
  });

  it('a revoked token a read remembered is refused by the re-check, then forgotten', async () => {
    const live = await token(a.ws, 'READ_ONLY');
    const path = `/workspaces/${a.ws.workspaceId}/tours`;
    expect((await t.request('GET', path, { token: live.token })).status).toBe(200);
    await tokenRevoke(t.commandDeps, { 'token-id': live.tokenId });
    const rechecked = await t.request('GET', path, { token: live.token });
    expectError(rechecked, 401, 'UNAUTHENTICATED');
    expect(rechecked.body).not.toHaveProperty('data');
    expect(rechecked.headers.get('www-authenticate')).toBe('Bearer realm="travelops"');
    // Refused by the database, the token is no longer remembered: the next request stops at admission.
    const next = await t.request('GET', path, { token: live.token });
    expectError(next, 401, 'UNAUTHENTICATED');
    expect(next.body.error.message).toBe('The bearer token is invalid, expired or revoked.');
  });

  it('a token expiring in the future still works', async () => {
    const live = await token(a.ws, 'READ_ONLY');
    await t.api.database
      .knex('api_tokens')
      .where({ id: live.tokenId })
      .update({ expires_at: new Date(Date.now() + 3_600_000) });
    expect(
      (await t.request('GET', `/workspaces/${a.ws.workspaceId}/tours`, { token: live.token })).status,
    ).toBe(200);
  });

  it('the scheme is case-insensitive', async () => {
    const res = await t.request('GET', `/workspaces/${a.ws.workspaceId}/tours`, {
      headers: { Authorization: `bearer ${a.ws.token}` },
    });
    expect(res.status).toBe(200);
  });
});

describe('records of another workspace', () => {
  const base = () => `/workspaces/${a.ws.workspaceId}`;

  const expectHidden = (res: Awaited<ReturnType<TestApi['request']>>) => {
    expectError(res, 404, 'NOT_FOUND');
    const text = JSON.stringify(res.body);
    for (const secret of [
      b.tour.id,
      b.tour.slug,
      b.customer.id,
      b.customer.email,
      b.departure.id,
      b.booking.id,
      b.booking.publicToken,
      'Bravo',
    ]) {
      expect(text).not.toContain(secret);
    }
  };

  it("GET and PATCH of B's tour under A: 404 and B's tour unchanged", async () => {
    const before = await snapshot(b);
    expectHidden(await t.request('GET', `${base()}/tours/${b.tour.id}`, { token: a.ws.token }));
    expectHidden(
      await t.request('PATCH', `${base()}/tours/${b.tour.id}`, {
        token: a.ws.token,
        body: { name: 'Hijacked' },
      }),
    );
    expect(await snapshot(b)).toEqual(before);
  });

  it("GET of B's customer under A: 404", async () => {
    expectHidden(await t.request('GET', `${base()}/customers/${b.customer.id}`, { token: a.ws.token }));
  });

  it("PATCH of B's departure under A: 404 and B's departure unchanged", async () => {
    const before = await snapshot(b);
    expectHidden(
      await t.request('PATCH', `${base()}/availability/${b.departure.id}`, {
        token: a.ws.token,
        body: { status: 'CANCELLED', capacity: 1 },
      }),
    );
    expect(await snapshot(b)).toEqual(before);
  });

  it.each([['application/json'], ['text/csv']])(
    "GET of B's departure manifest under A (Accept: %s): 404, nothing of B in it",
    async (accept) => {
      const res = await t.request('GET', `${base()}/availability/${b.departure.id}/manifest`, {
        token: a.ws.token,
        headers: { Accept: accept },
      });
      expectHidden(res);
      expect(JSON.stringify(res.body)).not.toContain('Bravo Secret Booker');
    },
  );

  it.each([
    ['GET', '', undefined],
    ['PATCH', '', { notes: 'Hijacked' }],
    ['POST', '/status', { status: 'CANCELLED' }],
    ['POST', '/checkin', {}],
    ['POST', '/payment-link', undefined],
    ['POST', '/public-token', undefined],
    ['POST', '/refunds', { amount: 100 }],
    ['POST', '/extend', { minutes: 5 }],
    ['GET', '/history', undefined],
  ])("%s of B's booking%s under A: 404, B's booking unchanged and unseen", async (method, suffix, body) => {
    const before = await snapshot(b);
    const res = await t.request(method, `${base()}/bookings/${b.booking.id}${suffix}`, {
      token: a.ws.token,
      ...(body !== undefined && { body }),
    });
    expectHidden(res);
    expect(await snapshot(b)).toEqual(before);
  });

  it.each([
    ['GET', 'companies', 'company', undefined],
    ['PATCH', 'companies', 'company', { name: 'Hijacked' }],
    ['DELETE', 'companies', 'company', undefined],
    ['GET', 'leads', 'lead', undefined],
    ['PATCH', 'leads', 'lead', { notes: 'Hijacked' }],
    ['DELETE', 'leads', 'lead', undefined],
    ['POST', 'leads', 'lead', {}, '/convert'],
    ['GET', 'crm-tasks', 'task', undefined],
    ['PATCH', 'crm-tasks', 'task', { title: 'Hijacked' }],
    ['DELETE', 'crm-tasks', 'task', undefined],
    ['PATCH', 'customers', 'customer', { name: 'Hijacked' }],
    ['POST', 'customers', 'customer', { body: 'Hijacked' }, '/notes'],
    ['GET', 'customers', 'customer', undefined, '/timeline'],
  ] as const)(
    "%s of B's %s record under A: 404, B unchanged",
    async (method, list, key, body, suffix?: string) => {
      const before = await snapshot(b);
      const res = await t.request(method, `${base()}/${list}/${b[key].id}${suffix ?? ''}`, {
        token: a.ws.token,
        ...(body !== undefined && { body }),
      });
      expectHidden(res);
      expect(await snapshot(b)).toEqual(before);
    },
  );

  it.each([
    ['GET', undefined],
    ['PATCH', { capacity: 1, times: ['03:00'] }],
    ['DELETE', undefined],
  ] as const)("%s of B's schedule under A (A's tour or B's): 404, B unchanged", async (method, body) => {
    const before = await snapshot(b);
    for (const tourId of [a.tour.id, b.tour.id]) {
      const res = await t.request(method, `${base()}/tours/${tourId}/schedules/${b.schedule.id}`, {
        token: a.ws.token,
        ...(body !== undefined && { body }),
      });
      expectHidden(res);
    }
    expect(await snapshot(b)).toEqual(before);
  });

  it("B's tour's schedules under A: the list is 404 and a new schedule is 404, B unchanged", async () => {
    const before = await snapshot(b);
    expectHidden(await t.request('GET', `${base()}/tours/${b.tour.id}/schedules`, { token: a.ws.token }));
    expectHidden(
      await t.request('POST', `${base()}/tours/${b.tour.id}/schedules`, {
        token: a.ws.token,
        body: scheduleBody('04:00'),
      }),
    );
    expect(await snapshot(b)).toEqual(before);
  });

  it("lists under A never include B's records", async () => {
    for (const list of [
      'tours',
      'availability',
      'customers',
      'bookings',
      'companies',
      'leads',
      'crm-tasks',
    ]) {
      const res = await t.request('GET', `${base()}/${list}?limit=100`, { token: a.ws.token });
      expect(res.status).toBe(200);
      const text = JSON.stringify(res.body);
      for (const secret of [b.tour.id, b.customer.id, b.departure.id, b.booking.id, 'Bravo'])
        expect(text).not.toContain(secret);
    }
  });
});

/**
 * The OCTO matrix (docs/octo.md): bearer tokens only, `octo:sell` (RESELLER and ADMIN), in
 * the token's own workspace; refusals in OCTO's shape, checked against OCTO's document.
 */
describe('OCTO routes', () => {
  const contract = createOctoContract();
  let product: any;
  let departure: any;
  const octoName = (route: OctoRouteDefinition) => `${route.method.toUpperCase()} /octo${route.path}`;

  beforeAll(async () => {
    product = await createTour(t, a.ws, { name: 'Alpha Sold Tour', slug: 'alpha-sold', isPublic: true });
    departure = await createDeparture(t, a.ws, product.id, { capacity: 1000 });
  });

  const bodies: Record<string, () => unknown> = {
    Availabilities_AvailabilityCalendar: () => ({
      productId: product.id,
      optionId: 'DEFAULT',
      localDateStart: dayFromNow(0),
      localDateEnd: dayFromNow(30),
    }),
    Availabilities_AvailabilityCheck: () => ({
      productId: product.id,
      optionId: 'DEFAULT',
      localDateStart: dayFromNow(0),
      localDateEnd: dayFromNow(30),
    }),
    Bookings_BookingReservation: () => ({
      productId: product.id,
      optionId: 'DEFAULT',
      availabilityId: departure.id,
      unitItems: [{ unitId: 'adult' }],
    }),
    Bookings_BookingUpdate: () => ({ notes: 'changed by a role probe' }),
    Bookings_BookingConfirmation: () => ({ contact: { fullName: 'Role Probe' } }),
    Bookings_ExtendReservation: () => ({ expirationMinutes: 5 }),
    Bookings_BookingCancellation: () => ({ reason: 'role probe' }),
  };

  /** The route's path; a booking path names a fresh reservation of `secret` (or an unknown uuid). */
  async function octoPath(route: OctoRouteDefinition, secret?: string) {
    let uuid: string = crypto.randomUUID();
    if (route.path.includes('{uuid}') && secret) {
      const res = await t.request('POST', '/octo/bookings', {
        token: secret,
        body: bodies.Bookings_BookingReservation?.(),
      });
      if (res.status !== 200) throw new Error(`reserve: ${res.status} ${JSON.stringify(res.body)}`);
      uuid = res.body.uuid;
    }
    const path = route.path.replace('{productId}', product.id).replace('{uuid}', uuid);
    return route.operationId === 'Bookings_GetBookings' ? `${path}?resellerReference=probe` : path;
  }

  const sendOcto = async (route: OctoRouteDefinition, path: string, headers: Record<string, string>) => {
    const body = bodies[route.operationId]?.();
    const res = await t.request(route.method.toUpperCase(), `/octo${path}`, {
      headers: { 'Octo-Capabilities': '', ...headers },
      ...(body !== undefined && { body }),
    });
    contract.check(route.method, path, res);
    return res;
  };

  it('every OCTO route is in this matrix', () => {
    expect(octoRoutes.length).toBeGreaterThanOrEqual(13);
    for (const route of octoRoutes) {
      if (route.method !== 'get' && !route.path.startsWith('/availability')) {
        expect(bodies, octoName(route)).toHaveProperty(route.operationId);
      }
    }
  });

  describe.each(octoRoutes.map((route) => [octoName(route), route] as const))('%s', (_name, route) => {
    const expect401 = async (headers: Record<string, string>) => {
      const before = await snapshot(a);
      const res = await sendOcto(route, await octoPath(route), headers);
      expect(res.status, JSON.stringify(res.body)).toBe(401);
      expect(res.body).toEqual({ error: 'UNAUTHORIZED', errorMessage: expect.any(String) });
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /);
      expect(await snapshot(a)).toEqual(before);
    };

    it.each([
      ['no Authorization header', {}],
      ['another scheme', { Authorization: 'Basic x' }],
      ['a malformed token', { Authorization: 'Bearer tops_abc/def' }],
      ['an unknown token', { Authorization: `Bearer tops_${'x'.repeat(43)}` }],
    ])('%s: 401 UNAUTHORIZED', async (_label, headers) => {
      await expect401(headers);
    });

    it('an expired or revoked token: 401 UNAUTHORIZED', async () => {
      const expired = await token(a.ws, 'RESELLER');
      await t.api.database
        .knex('api_tokens')
        .where({ id: expired.tokenId })
        .update({ expires_at: new Date(Date.now() - 60_000) });
      await expect401({ Authorization: `Bearer ${expired.token}` });
      const revoked = await token(a.ws, 'RESELLER');
      expect((await tokenRevoke(t.commandDeps, { 'token-id': revoked.tokenId })).ok).toBe(true);
      await expect401({ Authorization: `Bearer ${revoked.token}` });
    });

    it("a member's session (no bearer token) is 401: OCTO is for API tokens", async () => {
      const session = await t.memberSession(a.ws.workspaceId, 'ADMIN');
      const res = await sendOcto(route, await octoPath(route), {
        Cookie: session.cookie,
        'X-CSRF-Token': session.csrfToken,
      });
      expect(res.status).toBe(401);
    });

    it.each(ROLES)('role %s', async (role) => {
      const { token: secret } = await token(a.ws, role);
      const allowed = role === 'RESELLER' || role === 'ADMIN';
      const path = await octoPath(route, allowed ? secret : undefined);
      const before = await snapshot(a);
      const res = await sendOcto(route, path, { Authorization: `Bearer ${secret}` });
      if (allowed) {
        expect(res.status, JSON.stringify(res.body)).toBe(200);
      } else {
        expect(res.status, JSON.stringify(res.body)).toBe(403);
        expect(res.body).toEqual({ error: 'FORBIDDEN', errorMessage: expect.stringContaining('octo:sell') });
        expect(await snapshot(a)).toEqual(before);
      }
    });
  });

  it("a reseller of workspace B sees none of A's products or bookings", async () => {
    const { token: secret } = await token(a.ws, 'RESELLER');
    const reserved = await t.request('POST', '/octo/bookings', {
      token: secret,
      body: bodies.Bookings_BookingReservation?.(),
    });
    expect(reserved.status).toBe(200);
    const { token: foreign } = await token(b.ws, 'RESELLER');
    const products = await t.request('GET', '/octo/products', { token: foreign });
    expect(JSON.stringify(products.body)).not.toContain(product.id);
    const before = await snapshot(a);
    for (const [method, path, body] of [
      ['GET', `/octo/products/${product.id}`, undefined],
      ['GET', `/octo/bookings/${reserved.body.uuid}`, undefined],
      ['POST', `/octo/bookings/${reserved.body.uuid}/cancel`, {}],
      ['POST', '/octo/bookings', bodies.Bookings_BookingReservation?.()],
    ] as const) {
      const res = await t.request(method, path, { token: foreign, ...(body !== undefined && { body }) });
      contract.check(method, path.slice('/octo'.length), res);
      expect(res.status).toBe(400);
      expect(['INVALID_PRODUCT_ID', 'INVALID_BOOKING_UUID']).toContain(res.body.error);
      expect(JSON.stringify(res.body)).not.toContain('Alpha');
    }
    expect(await snapshot(a)).toEqual(before);
  });
});

describe('logs', () => {
  it('never contain a token secret or the Authorization header', () => {
    expect(secrets.size).toBeGreaterThan(10);
    expect(t.logs.length).toBeGreaterThan(100);
    const text = t.logs.join('\n');
    for (const secret of secrets) expect(text).not.toContain(secret);
    expect(text).not.toContain('tops_');
    expect(text.toLowerCase()).not.toContain('bearer ');
    expect(text.toLowerCase()).not.toContain('authorization');
  });
});
