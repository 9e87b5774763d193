import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTravelOpsClient } from './index.js';

// A plain HTTP server stands in for the API: what matters here is what the client sends.
let seen: { url?: string; headers?: IncomingHttpHeaders } = {};
const server = createServer((req, res) => {
  seen = { url: req.url, headers: req.headers };
  res.setHeader('Content-Type', 'application/json');
  res.end(JSON.stringify({ data: [], pagination: { hasMore: false, nextCursor: null } }));
});
let baseUrl = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

it('sends the token as a bearer credential and fills the path and query from typed parameters', async () => {
  const api = createTravelOpsClient({
    baseUrl,
    token: 'tops_example',
    headers: { 'X-Request-Id': 'trace-1' },
  });
  const { data } = await api.GET('/workspaces/{workspaceId}/tours', {
    params: { path: { workspaceId: 'ws_1' }, query: { limit: 5 } },
  });
  expect(data).toEqual({ data: [], pagination: { hasMore: false, nextCursor: null } });
  expect(seen.url).toBe('/workspaces/ws_1/tours?limit=5');
  expect(seen.headers?.authorization).toBe('Bearer tops_example');
  expect(seen.headers?.['x-request-id']).toBe('trace-1');
});

it('sends no Authorization header without a token (public operations)', async () => {
  const api = createTravelOpsClient({ baseUrl });
  await api.GET('/public/{workspaceSlug}/tours', { params: { path: { workspaceSlug: 'demo' } } });
  expect(seen.url).toBe('/public/demo/tours');
  expect(seen.headers?.authorization).toBeUndefined();
});
