import type { HttpDeps } from '@travelops/http';
import { toExpressPath } from '@travelops/http';
import { describe, expect, it } from 'vitest';
import { capabilitiesOf, createOctoRouter } from './router.js';
import { octoRoutes } from './routes.js';

describe('Octo-Capabilities', () => {
  it.each([
    [undefined, []],
    ['', []],
    ['octo/pricing', ['octo/pricing']],
    [' octo/content , octo/pricing ', ['octo/pricing']],
    ['octo/content,octo/pickups', []],
  ])('%j -> %j (what is served of what was asked)', (header, served) => {
    expect(capabilitiesOf(header)).toEqual(served);
  });
});

interface Layer {
  route?: { path: string; methods: Record<string, boolean> };
}

describe('createOctoRouter', () => {
  it("serves exactly the OCTO route table, which OCTO's own document describes (docs/octo.md)", () => {
    // Building the router reads only the public URL (each route's endpoint); requests read the rest.
    const deps = { config: { publicBaseUrl: 'http://localhost:3000' } } as HttpDeps;
    const router = createOctoRouter(deps) as unknown as { stack: Layer[] };
    const served = router.stack.flatMap((layer) =>
      layer.route ? Object.keys(layer.route.methods).map((method) => `${method} ${layer.route?.path}`) : [],
    );
    const table = octoRoutes.map((route) => `${route.method} ${toExpressPath(route.path)}`);
    expect(served.length).toBeGreaterThanOrEqual(13);
    expect(new Set(served)).toEqual(new Set(table));
  });
});
