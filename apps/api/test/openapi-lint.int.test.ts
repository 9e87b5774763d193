import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApi, type TestApi } from './harness.js';

const run = promisify(execFile);
let t: TestApi;
let dir: string;
beforeAll(async () => {
  t = await startTestApi({ PUBLIC_BASE_URL: 'https://api.travelops.dev' });
  dir = await mkdtemp(join(tmpdir(), 'travelops-openapi-'));
});
afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

it('serves an /openapi.json that passes the Redocly linter with no errors or warnings', async () => {
  const doc = await t.request('GET', '/openapi.json');
  expect(doc.body.openapi).toMatch(/^3\.1\./);
  const file = join(dir, 'openapi.json');
  await writeFile(file, JSON.stringify(doc.body));
  const result = await run(
    join(import.meta.dirname, '..', 'node_modules', '.bin', 'redocly'),
    ['lint', file, '--config', join(import.meta.dirname, '..', 'redocly.yaml'), '--format', 'json'],
    { env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } },
  ).catch((error: { stdout: string; stderr: string }) => error);
  const report = JSON.parse(result.stdout) as {
    problems: Array<{ ruleId: string; severity: string; message: string; location: unknown }>;
  };
  expect(
    report.problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} ${JSON.stringify(p.location)}`),
  ).toEqual([]);
}, 60_000);
