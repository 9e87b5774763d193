import { expect } from 'vitest';
import type { TestApi, TestResponse } from './harness.js';

/** What `t.createWorkspace` gives: a workspace and a token in it. */
export type TestWorkspace = Awaited<ReturnType<TestApi['createWorkspace']>>;

/** A UTC timestamp as the service answers it: milliseconds and `Z`. */
export const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** Well-formed ids that name no record. */
export const UNKNOWN_IDS = {
  tour: `tour_${'0'.repeat(22)}`,
  availability: `avl_${'0'.repeat(22)}`,
  customer: `cus_${'0'.repeat(22)}`,
  workspace: `ws_${'0'.repeat(22)}`,
} as const;

export const tourInput = (overrides: Record<string, unknown> = {}) => ({
  name: 'Harbour Walk',
  durationMinutes: 90,
  basePrice: 2500,
  currency: 'EUR',
  capacity: 12,
  ...overrides,
});

let customerCounter = 0;
export const customerInput = (overrides: Record<string, unknown> = {}) => ({
  name: 'Ada Lovelace',
  email: `ada.${process.pid}.${customerCounter++}@example.com`,
  ...overrides,
});

/**
 * The documented order of tours and customers: createdAt descending, then id descending
 * (ids compare bytewise). Two records created in one millisecond are ordered by id.
 */
export function newestFirst<T extends { createdAt: string; id: string }>(items: T[]): T[] {
  const desc = (x: string, y: string) => (x < y ? 1 : x > y ? -1 : 0);
  return [...items].sort((a, b) => desc(a.createdAt, b.createdAt) || desc(a.id, b.id));
}

/** An ISO timestamp `days` days (and `hours` hours) from now; negative is the past. */
export function fromNow(days: number, hours = 0): string {
  return new Date(Date.now() + days * 86_400_000 + hours * 3_600_000).toISOString();
}

function created<T = any>(what: string, res: TestResponse, status = 201): T {
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data as T;
}

export async function createTour(t: TestApi, ws: TestWorkspace, overrides: Record<string, unknown> = {}) {
  const res = await t.request('POST', `/workspaces/${ws.workspaceId}/tours`, {
    token: ws.token,
    body: tourInput(overrides),
  });
  return created('create tour', res);
}

export async function createDeparture(
  t: TestApi,
  ws: TestWorkspace,
  tourId: string,
  overrides: Record<string, unknown> = {},
) {
  const res = await t.request('POST', `/workspaces/${ws.workspaceId}/availability`, {
    token: ws.token,
    body: { tourId, startsAt: fromNow(30), ...overrides },
  });
  return created('create departure', res);
}

export async function createCustomer(t: TestApi, ws: TestWorkspace, overrides: Record<string, unknown> = {}) {
  const res = await t.request('POST', `/workspaces/${ws.workspaceId}/customers`, {
    token: ws.token,
    body: customerInput(overrides),
  });
  return created('create customer', res);
}

/** Moves a departure to a status directly in the database (for states the API reaches in steps). */
export async function setDepartureColumns(t: TestApi, id: string, columns: Record<string, unknown>) {
  const updated = await t.api.database.knex('availability').where({ id }).update(columns);
  if (updated !== 1) throw new Error(`no departure ${id}`);
}

/**
 * Follows `nextCursor` from the first page to the last; every page must be 200.
 * `path` may already carry a query string.
 */
export async function collectPages(t: TestApi, path: string, token: string, limit: number) {
  const items: any[] = [];
  const pages: { count: number; hasMore: boolean; nextCursor: string | null }[] = [];
  let cursor: string | null = null;
  const join = path.includes('?') ? '&' : '?';
  do {
    const query: string = `limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const res: TestResponse = await t.request('GET', `${path}${join}${query}`, { token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    items.push(...res.body.data);
    pages.push({ count: res.body.data.length, ...res.body.pagination });
    cursor = res.body.pagination.nextCursor;
    if (pages.length > 1000) throw new Error('pagination does not end');
  } while (cursor);
  return { items, pages };
}

export const detail = (field: string, issue: string) => ({ field, issue });

/**
 * The spec's failure envelope: `{ error: { code, message, details?, requestId } }`, the
 * request id equal to the `X-Request-Id` header. `details`, when given, must match exactly.
 */
export function expectError(
  res: TestResponse,
  status: number,
  code: string,
  details?: { field: string; issue: string }[],
) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(Object.keys(res.body)).toEqual(['error']);
  expect(res.body.error).toMatchObject({ code, message: expect.any(String) });
  expect(res.body.error.message.length).toBeGreaterThan(0);
  const requestId = res.headers.get('x-request-id');
  expect(requestId).toBeTruthy();
  expect(res.body.error.requestId).toBe(requestId);
  if (details) expect(res.body.error.details).toEqual(details);
}
