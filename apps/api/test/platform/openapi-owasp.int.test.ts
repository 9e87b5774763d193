import { join } from 'node:path';
import * as SpectralCore from '@stoplight/spectral-core';
import owasp from '@stoplight/spectral-owasp-ruleset';
import * as SpectralParsers from '@stoplight/spectral-parsers';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../support/harness.js';

// CommonJS packages: their named exports sit on `default` when imported from ESM.
const { Document, Ruleset, Spectral } = ((SpectralCore as any).default ??
  SpectralCore) as typeof SpectralCore;
const { Json } = ((SpectralParsers as any).default ?? SpectralParsers) as typeof SpectralParsers;

/** Paths served outside the route table: probes, the document itself, the sandbox pages. */
const SYSTEM_PATHS = [
  '/healthz',
  '/readyz',
  '/openapi.json',
  '/docs',
  '/sandbox/pay/{token}',
  // The payment entry and its return page: served outside the route table, like the sandbox's.
  '/pay/{token}',
  '/pay/{token}/done',
];
const pointer = (path: string) =>
  `openapi.json#/paths/${encodeURIComponent(path.replaceAll('~', '~0').replaceAll('/', '~1'))}`;

/**
 * The OWASP API Security Top 10 ruleset, every rule on, except these, each for a reason:
 */
const ruleset = {
  extends: [[owasp, 'all']],
  rules: {
    // Input bounds live in the valibot schemas that validate every request: strings have a
    // length limit or a format, numbers a range, lists a maximum, and request bodies publish
    // them (maxLength, minimum/maximum, maxItems). These rules also demand limits on every
    // response schema, which describe what the service writes, and on path ids (bounded at
    // 100 by the server); inventing them there would change the contract for no defence.
    'owasp:api4:2023-string-limit': 'off',
    'owasp:api4:2023-string-restricted': 'off',
    'owasp:api4:2023-integer-limit': 'off',
    'owasp:api4:2023-array-limit': 'off',
    // Amounts are integers up to 10^12 (minor units): neither int32 nor int64 says that, and
    // JSON carries them as safe integers. The ranges are in the request schemas.
    'owasp:api4:2023-integer-format': 'off',
    // CORS only where browsers on other sites need it: `/public/` answers any origin without
    // credentials (booking widgets) and `/widget.js` loads anywhere. Integrations call server to
    // server (the spec forbids tokens in client-side code) and the first-party application is
    // same-origin, so nothing authenticated allows cross-origin reads (platform/cors.int.test.ts).
    'owasp:api8:2023-define-cors-origin': 'off',
    // `/public/` is unauthenticated by the spec: a booking widget books (rate limited per IP,
    // idempotent), and a guest acts on one booking through its unguessable token.
    'owasp:api2:2023-write-restricted': 'off',
    // The guest token in the path is the spec's design (>= 128 bits, rotatable; answers carry
    // Cache-Control: no-store and Referrer-Policy: no-referrer, and logs keep the route pattern).
    'owasp:api2:2023-no-credentials-in-url': 'off',
    // One server: this deployment's PUBLIC_BASE_URL, public by nature; x-internal adds nothing.
    'owasp:api9:2023-inventory-access': 'off',
  },
  overrides: [
    {
      // These answers do carry the X-RateLimit headers (probes report without counting); they
      // are documented on every API operation, not on these pages and probes.
      files: SYSTEM_PATHS.map(pointer),
      rules: { 'owasp:api4:2023-rate-limit': 'off' },
    },
  ],
};

let t: TestApi;
beforeAll(async () => {
  // As deployed: served over https (the rule against http servers stays on).
  t = await startTestApi({ PUBLIC_BASE_URL: 'https://api.travelops.dev' });
});
afterAll(() => t.close());

it("serves an /openapi.json with no error under Spectral's OWASP ruleset", async () => {
  const served = await t.request('GET', '/openapi.json');
  const spectral = new Spectral();
  // Sources are names only (nothing is read from disk): overrides match the document's.
  spectral.setRuleset(new Ruleset(ruleset as any, { source: join(import.meta.dirname, 'owasp-ruleset') }));
  const source = join(import.meta.dirname, 'openapi.json');
  const results = await spectral.run(new Document(JSON.stringify(served.body), Json, source));
  const errors = results.filter((result) => result.severity === 0);
  expect(errors.map((e) => `${e.code} at ${e.path.join('.')}: ${e.message}`)).toEqual([]);
}, 60_000);
