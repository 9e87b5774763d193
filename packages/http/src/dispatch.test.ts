import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeDispatcher } from './dispatch.js';
import { toExpressPath } from './register.js';
import type { RouteDefinition } from './route.js';

const route = (operationId: string, method: RouteDefinition['method'], path: string) =>
  ({ operationId, method, path }) as RouteDefinition;

// Two routes that match `/workspaces/w/bookings/export` (the first registered wins), and neighbours.
const routes = [
  route('exportBookings', 'get', '/workspaces/{workspaceId}/bookings/export'),
  route('getBooking', 'get', '/workspaces/{workspaceId}/bookings/{bookingId}'),
  route('getTour', 'get', '/workspaces/{workspaceId}/tours/{tourId}'),
  route('createBooking', 'post', '/workspaces/{workspaceId}/bookings'),
  route('publicTours', 'get', '/public/{workspaceSlug}/tours'),
  route('publicBooking', 'get', '/public/bookings/{publicToken}'),
];

const app = express();
app.use(
  routeDispatcher(routes, (router, r) => {
    router[r.method](toExpressPath(r.path), (req, res) => {
      res.json({ op: r.operationId, params: req.params });
    });
  }),
);
app.use((_req, res) => {
  res.status(404).json({ op: null });
});
let base = '';
let server: ReturnType<typeof app.listen>;
beforeAll(async () => {
  server = app.listen(0);
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const call = async (method: string, path: string) => {
  const res = await fetch(`${base}${path}`, { method });
  const body = method === 'HEAD' ? null : ((await res.json()) as { op: string | null; params?: unknown });
  return { status: res.status, body };
};

describe('routeDispatcher', () => {
  it.each([
    ['GET', '/workspaces/ws_1/bookings/export', 'exportBookings'],
    ['GET', '/workspaces/ws_1/bookings/bkg_2', 'getBooking'],
    ['GET', '/WORKSPACES/ws_1/Bookings/bkg_2', 'getBooking'],
    ['GET', '/workspaces/ws_1/bookings/bkg_2/', 'getBooking'],
    ['GET', '/workspaces/ws_1/tours/tour_3', 'getTour'],
    ['POST', '/workspaces/ws_1/bookings', 'createBooking'],
    ['GET', '/public/bookings/tours', 'publicTours'],
    ['GET', '/public/bookings/tok_4', 'publicBooking'],
  ])('%s %s -> %s, as one router in the table order would', async (method, path, op) => {
    const { status, body } = await call(method, path);
    expect(status).toBe(200);
    expect(body?.op).toBe(op);
  });

  it('hands the route its path parameters', async () => {
    expect((await call('GET', '/workspaces/ws_1/bookings/bkg_2')).body?.params).toEqual({
      workspaceId: 'ws_1',
      bookingId: 'bkg_2',
    });
  });

  it('HEAD is served by the GET route; a shape no route has, or another method, falls through', async () => {
    expect((await call('HEAD', '/workspaces/ws_1/tours/tour_3')).status).toBe(200);
    expect((await call('GET', '/workspaces/ws_1/bookings/bkg_2/extra')).status).toBe(404);
    expect((await call('DELETE', '/workspaces/ws_1/bookings/bkg_2')).status).toBe(404);
    expect((await call('GET', '/nowhere')).status).toBe(404);
  });

  it('OPTIONS walks every route, as Express answers it (the allowed methods)', async () => {
    const res = await fetch(`${base}/workspaces/ws_1/bookings`, { method: 'OPTIONS' });
    expect(res.status).toBe(200);
    expect(res.headers.get('allow')).toBe('POST');
  });
});
