import { apiRoutes } from '@travelops/http';
import { octoRoutes } from '@travelops/octo';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookingInput, participants } from '../support/booking-fixtures.js';
import { createDeparture, createTour, type TestWorkspace } from '../support/fixtures.js';
import { startTestApi, type TestApi, type TestSession } from '../support/harness.js';

// A query or path value is text from a stranger: as a key of a plain object it would find
// Object.prototype's members (`?done=constructor` found a function, and the page a 500).
const NAMES = Object.getOwnPropertyNames(Object.prototype);

let t: TestApi;
let ws: TestWorkspace;
let session: TestSession;
/** For `/auth/*`, whose sign-out would end the session the other routes use. */
let authSession: TestSession;
let reseller: string;
/** A guest's booking token and a payment page token: real, so a query value reaches the page. */
let publicToken: string;
let payToken: string;
let openApi: any;

beforeAll(async () => {
  t = await startTestApi();
  ws = await t.createWorkspace('ADMIN');
  session = await t.memberSession(ws.workspaceId, 'ADMIN');
  authSession = await t.memberSession(ws.workspaceId, 'ADMIN');
  reseller = (await t.createToken(ws.workspaceId, 'RESELLER')).token;
  const tour = await createTour(t, ws, { isPublic: true, basePrice: 4_000, currency: 'EUR' });
  const departure = await createDeparture(t, ws, tour.id, { capacity: 30 });
  const res = await t.request('POST', `/public/${ws.slug}/bookings`, {
    body: bookingInput(departure.id, { participants: participants(1) }),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  publicToken = res.body.data.publicToken;
  payToken = new URL(res.body.data.checkoutUrl).pathname.split('/').at(-1) as string;
  openApi = (await t.request('GET', '/openapi.json')).body;
}, 60_000);
afterAll(() => t?.close());

interface Probe {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/** What a refusal must look like: the API's envelope, OCTO's error, or (pages) anything but a 5xx. */
type Refusal = 'envelope' | 'octo' | 'page';

const refusedAs: Record<Refusal, (body: any) => boolean> = {
  envelope: (body) => typeof body?.error?.code === 'string' && typeof body.error.requestId === 'string',
  octo: (body) => typeof body?.error === 'string' && typeof body.errorMessage === 'string',
  page: () => true,
};

const parsed = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** Sends probes a few at a time; the ones answered 5xx (or refused in another shape) come back. */
async function failuresOf(probes: Probe[], refusal: Refusal): Promise<string[]> {
  const failures: string[] = [];
  const queue = [...probes];
  const worker = async () => {
    for (let probe = queue.shift(); probe; probe = queue.shift()) {
      const res = await fetch(`${t.baseUrl}${probe.path}`, {
        method: probe.method,
        headers: probe.headers,
        body: probe.body,
        redirect: 'manual',
      });
      const text = await res.text();
      if (res.status >= 500 || (res.status >= 400 && !refusedAs[refusal](parsed(text))))
        failures.push(`${probe.method} ${probe.path}: ${res.status} ${text.slice(0, 200)}`);
    }
  };
  await Promise.all(Array.from({ length: 6 }, worker));
  return failures;
}

/** The pages, each parameter written `{}`. */
const PAGE_ROUTES: [string, string][] = [
  ['GET', '/b/{}'],
  ['GET', '/b/{}/booking.ics'],
  ['POST', '/b/{}/waiver'],
  ['POST', '/b/{}/pay'],
  ['POST', '/b/{}/cancel'],
  ['GET', '/pay/{}'],
  ['GET', '/pay/{}/done'],
  ['GET', '/sandbox/pay/{}'],
  ['POST', '/sandbox/pay/{}'],
  ['GET', '/mail/unsubscribe/{}'],
  ['POST', '/mail/unsubscribe/{}'],
  ['GET', '/dev/mail/{}'],
  ['GET', '/dev/mail/{}/html'],
  ['GET', '/docs/{}'],
  ['GET', '/app/assets/{}'],
  ['GET', '/app/{}'],
];

/** The pages with a real token, so the query reaches them (not a 404 before it is read). */
const PAGES_WITH_QUERY = () => [
  `/b/${publicToken}`,
  `/b/${publicToken}/booking.ics`,
  `/pay/${payToken}/done`,
  `/sandbox/pay/${payToken}`,
  `/mail/unsubscribe/${publicToken}`,
  '/dev/mail',
  '/docs',
  '/',
];

const form = { 'Content-Type': 'application/x-www-form-urlencoded' };

describe('every Object.prototype name, in every page and route parameter: never a 500', () => {
  it(`pages: ${NAMES.length} names as path segments, query values and query names`, async () => {
    const probes: Probe[] = [];
    for (const name of NAMES) {
      const segment = encodeURIComponent(name);
      for (const [method, template] of PAGE_ROUTES) {
        probes.push({
          method,
          path: template.replace('{}', segment),
          ...(method === 'POST' && { headers: form, body: `outcome=${segment}&confirm=yes` }),
        });
      }
      for (const page of PAGES_WITH_QUERY()) {
        probes.push({ method: 'GET', path: `${page}?done=${segment}&cancelled=${segment}` });
        probes.push({ method: 'GET', path: `${page}?${segment}=${segment}` });
      }
    }
    expect(await failuresOf(probes, 'page')).toEqual([]);
  }, 120_000);

  it(`the API's routes (apiRoutes): each name in each path parameter and as every query value`, async () => {
    const probes: Probe[] = [];
    for (const route of apiRoutes) {
      const method = route.method.toUpperCase();
      const operation = openApi.paths[route.path]?.[route.method];
      const example = operation?.requestBody?.content?.['application/json']?.example;
      const bearer = typeof route.access === 'object' && route.access.sessionOnly !== true;
      const signedIn = route.access === 'session' ? authSession : session;
      const headers: Record<string, string> = bearer
        ? { Authorization: `Bearer ${ws.token}` }
        : { Cookie: signedIn.cookie, 'X-CSRF-Token': signedIn.csrfToken };
      if (example !== undefined) headers['Content-Type'] = 'application/json';
      const body = example === undefined ? undefined : JSON.stringify(example);
      const parameters = [...route.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1] as string);
      // The others real where they can be (the workspace), so the name reaches past admission.
      const real = (parameter: string, name: string) =>
        parameter === 'workspaceId' ? ws.workspaceId : parameter === 'workspaceSlug' ? ws.slug : name;
      const pathWith = (name: string, target?: string) =>
        route.path.replace(/\{(\w+)\}/g, (_, parameter: string) =>
          encodeURIComponent(parameter === target ? name : real(parameter, name)),
        );
      const queryNames = Object.keys(route.query?.entries ?? {});
      for (const name of NAMES) {
        for (const parameter of parameters) {
          probes.push({ method, path: pathWith(name, parameter), headers, ...(body && { body }) });
        }
        // One at a time (another's invalid value would stop the request before it is read), then as a name.
        const queries = [
          ...queryNames.map((q) => `${q}=${encodeURIComponent(name)}`),
          `${encodeURIComponent(name)}=1`,
        ];
        for (const query of queries) {
          probes.push({ method, path: `${pathWith(name)}?${query}`, headers, ...(body && { body }) });
        }
      }
    }
    expect(await failuresOf(probes, 'envelope')).toEqual([]);
  }, 600_000);

  it('the OCTO routes (octoRoutes): each name in each path parameter and as every query value', async () => {
    const probes: Probe[] = [];
    const headers = {
      Authorization: `Bearer ${reseller}`,
      'Octo-Capabilities': 'octo/pricing',
      'Content-Type': 'application/json',
    };
    for (const route of octoRoutes) {
      const method = route.method.toUpperCase();
      const queryNames = Object.keys(route.query?.entries ?? {});
      for (const name of NAMES) {
        const path = `/octo${route.path.replace(/\{(\w+)\}/g, () => encodeURIComponent(name))}`;
        const body = method === 'GET' ? undefined : JSON.stringify({ productId: name, optionId: name });
        probes.push({ method, path, headers, ...(body && { body }) });
        for (const q of [...queryNames, name]) {
          const query = `${encodeURIComponent(q)}=${encodeURIComponent(name)}`;
          probes.push({ method, path: `${path}?${query}`, headers, ...(body && { body }) });
        }
      }
    }
    expect(await failuresOf(probes, 'octo')).toEqual([]);
  }, 120_000);
});
