import { readFileSync } from 'node:fs';
import { octoRoutes } from '@travelops/octo';
import { describe, expect, it } from 'vitest';
import { createOctoContract } from '../support/octo-fixtures.js';

/**
 * The /octo routes are described by OCTO's own document (`@octocloud/types`), not repeated in
 * /openapi.json (docs/octo.md says why). The router serves exactly `octoRoutes` (packages/octo
 * app.test.ts); here each of them must be an operation of OCTO's document and in docs/octo.md.
 */
describe('the OCTO routes are documented', () => {
  const operations = new Set(createOctoContract().operations());
  const guide = readFileSync(new URL('../../../../docs/octo.md', import.meta.url), 'utf8');

  it.each(octoRoutes.map((route) => [`${route.method.toUpperCase()} /octo${route.path}`, route] as const))(
    '%s',
    (name, route) => {
      expect(operations).toContain(`${route.method.toUpperCase()} ${route.path.replace(/\{[^}]+\}/g, '{}')}`);
      expect(guide).toContain(`\`${name}\``);
    },
  );
});
