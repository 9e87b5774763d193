import { expect } from 'vitest';
import { customerInput, type TestWorkspace } from './fixtures.js';
import type { TestApi, TestResponse } from './harness.js';

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;

/** `n` participants with names only. */
export const participants = (n: number, prefix = 'Guest') =>
  Array.from({ length: n }, (_, i) => ({ name: `${prefix} ${i + 1}` }));

/** A BookingCreate body for one participant and a fresh customer. */
export const bookingInput = (availabilityId: string, overrides: Record<string, unknown> = {}) => ({
  availabilityId,
  customer: customerInput(),
  participants: participants(1),
  ...overrides,
});

export const bookingsPath = (ws: TestWorkspace, bookingId?: string, suffix = '') =>
  `/workspaces/${ws.workspaceId}/bookings${bookingId ? `/${bookingId}` : ''}${suffix}`;

function expectStatus(what: string, res: TestResponse, status: number) {
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
}

/** createBooking that must answer 201; the booking as answered (with its one-time links). */
export async function book(
  t: TestApi,
  ws: TestWorkspace,
  availabilityId: string,
  overrides: Record<string, unknown> = {},
) {
  const res = await t.request('POST', bookingsPath(ws), {
    token: ws.token,
    body: bookingInput(availabilityId, overrides),
  });
  expectStatus('create booking', res, 201);
  return res.body.data;
}

export async function getBooking(t: TestApi, ws: TestWorkspace, bookingId: string) {
  const res = await t.request('GET', bookingsPath(ws, bookingId), { token: ws.token });
  expectStatus('get booking', res, 200);
  return res.body.data;
}

export function setStatus(
  t: TestApi,
  ws: TestWorkspace,
  bookingId: string,
  status: string,
  extra: Record<string, unknown> = {},
) {
  return t.request('POST', bookingsPath(ws, bookingId, '/status'), {
    token: ws.token,
    body: { status, ...extra },
  });
}

/** A MANUAL booking moved to CONFIRMED by status. */
export async function confirmedBooking(
  t: TestApi,
  ws: TestWorkspace,
  availabilityId: string,
  overrides: Record<string, unknown> = {},
) {
  const booking = await book(t, ws, availabilityId, { paymentMode: 'MANUAL', ...overrides });
  const res = await setStatus(t, ws, booking.id, 'CONFIRMED');
  expectStatus('confirm booking', res, 200);
  return res.body.data;
}

/** The departure as listAvailability shows it now. */
async function departureNow(t: TestApi, ws: TestWorkspace, departure: { id: string; tourId: string }) {
  const res = await t.request(
    'GET',
    `/workspaces/${ws.workspaceId}/availability?tourId=${departure.tourId}&limit=100`,
    { token: ws.token },
  );
  expectStatus('list availability', res, 200);
  const found = res.body.data.find((d: { id: string }) => d.id === departure.id);
  if (!found) throw new Error(`departure ${departure.id} is not listed`);
  return found;
}

/** Seats of the departure, checked to add up to its capacity. */
export async function seatsOf(t: TestApi, ws: TestWorkspace, departure: { id: string; tourId: string }) {
  const now = await departureNow(t, ws, departure);
  expect(now.seatsRemaining + now.bookedSeats).toBe(now.capacity);
  return { bookedSeats: now.bookedSeats as number, seatsRemaining: now.seatsRemaining as number };
}

export async function getCustomer(t: TestApi, ws: TestWorkspace, customerId: string) {
  const res = await t.request('GET', `/workspaces/${ws.workspaceId}/customers/${customerId}`, {
    token: ws.token,
  });
  expectStatus('get customer', res, 200);
  return res.body.data;
}

/** The outbox envelopes written for a booking, in delivery order. */
export async function eventsOf(t: TestApi, bookingId: string): Promise<any[]> {
  const rows = await t.api.database.knex('outbox_events').where({ aggregate_id: bookingId }).orderBy('seq');
  return rows.map((row) => row.payload);
}

export async function eventTypesOf(t: TestApi, bookingId: string): Promise<string[]> {
  return (await eventsOf(t, bookingId)).map((event) => event.type);
}

export async function countRows(t: TestApi, table: string, where: Record<string, unknown>) {
  const [row] = await t.api.database.knex(table).where(where).count('* as n');
  return Number(row?.n);
}

/** The booking's status history as the API lists it (oldest first). */
export async function historyOf(t: TestApi, ws: TestWorkspace, bookingId: string): Promise<any[]> {
  const res = await t.request('GET', `${bookingsPath(ws, bookingId, '/history')}?limit=100`, {
    token: ws.token,
  });
  expectStatus('list history', res, 200);
  return res.body.data;
}

/** Completes (or fails) a sandbox checkout page the API handed out, as the payer would. */
export async function pay(
  t: TestApi,
  url: string,
  outcome: 'succeeded' | 'failed' = 'succeeded',
): Promise<TestResponse> {
  const res = await fetch(t.local(url), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ outcome }),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

/** The sandbox page for a handed-out URL: status and HTML. */
export async function openPage(
  t: TestApi,
  url: string,
): Promise<{ status: number; headers: Headers; html: string }> {
  const res = await fetch(t.local(url));
  return { status: res.status, headers: res.headers, html: await res.text() };
}

/**
 * Lets the departure start: its start (and the copy on its bookings) moves into the past,
 * as if the clock had passed it.
 */
export async function startDeparture(t: TestApi, departureId: string) {
  const startsAt = new Date(Date.now() - HOUR);
  const knex = t.api.database.knex;
  await knex('availability')
    .where({ id: departureId })
    .update({ starts_at: startsAt, booking_cutoff_at: null });
  await knex('bookings').where({ availability_id: departureId }).update({ starts_at: startsAt });
}

/** Lets the booking's hold run out: its expiry, and its open payment pages', move into the past. */
export async function expireHold(t: TestApi, bookingId: string) {
  const past = new Date(Date.now() - MINUTE);
  const knex = t.api.database.knex;
  const updated = await knex('bookings').where({ id: bookingId }).update({ expires_at: past });
  if (updated !== 1) throw new Error(`no booking ${bookingId}`);
  await knex('payment_sessions').where({ booking_id: bookingId }).update({ expires_at: past });
}
