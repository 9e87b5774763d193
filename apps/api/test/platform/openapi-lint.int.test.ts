import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApi } from '../support/harness.js';

const run = promisify(execFile);
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'travelops-openapi-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

// The served document differs by payment provider (the sandbox's pages, or Stripe's webhooks).
it.each([
  ['the sandbox', {}],
  [
    'Stripe',
    {
      PAYMENT_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: 'sk_test_lint',
      STRIPE_WEBHOOK_SECRET: 'whsec_lint',
      STRIPE_API_URL: 'http://127.0.0.1:9',
    },
  ],
])(
  'serves an /openapi.json that passes the Redocly linter with no errors or warnings (%s)',
  async (name, env) => {
    const t = await startTestApi({ PUBLIC_BASE_URL: 'https://api.travelops.dev', ...env });
    try {
      const doc = await t.request('GET', '/openapi.json');
      expect(doc.body.openapi).toMatch(/^3\.1\./);
      const file = join(dir, `openapi-${name.replace(/\W/g, '')}.json`);
      await writeFile(file, JSON.stringify(doc.body));
      const result = await run(
        join(import.meta.dirname, '..', '..', 'node_modules', '.bin', 'redocly'),
        ['lint', file, '--config', join(import.meta.dirname, '..', '..', 'redocly.yaml'), '--format', 'json'],
        { env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } },
      ).catch((error: { stdout: string; stderr: string }) => error);
      const report = JSON.parse(result.stdout) as {
        problems: Array<{ ruleId: string; severity: string; message: string; location: unknown }>;
      };
      expect(
        report.problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} ${JSON.stringify(p.location)}`),
      ).toEqual([]);
    } finally {
      await t.close();
    }
  },
  60_000,
);
