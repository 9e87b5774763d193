import { execFile } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

const repo = join(import.meta.dirname, '../../../..');
const depcruise = join(repo, 'node_modules/.bin/depcruise');

/**
 * One probe per rule of .dependency-cruiser.cjs: a file that breaks exactly that rule, with the
 * files it imports. Each is written into a temporary copy of the configuration and must be refused.
 */
const PROBES: Record<string, Record<string, string>> = {
  'domain-imports-no-workspace-package': {
    'packages/domain/src/bookings/probe.ts': "export * from '@travelops/db';",
  },
  'domain-imports-only-valibot': { 'packages/domain/src/bookings/probe.ts': "export * from 'express';" },
  'domain-imports-no-node-module': { 'packages/domain/src/bookings/probe.ts': "export * from 'node:fs';" },
  'domain-context-through-its-face': {
    'packages/domain/src/bookings/probe.ts': "export * from '../catalog/tours.js';",
    'packages/domain/src/catalog/tours.ts': 'export const tours = 1;',
  },
  'domain-consumers-use-context-subpaths': {
    'packages/http/src/probe.ts': "export * from '../../domain/src/catalog/tours.js';",
    'packages/domain/src/catalog/tours.ts': 'export const tours = 1;',
  },
  'http-imports-no-db': { 'packages/http/src/probe.ts': "export * from '@travelops/db';" },
  'inner-packages-import-no-http': { 'packages/db/src/probe.ts': "export * from '@travelops/http';" },
  'octo-imports-the-domain-http-and-auth-only': {
    'packages/octo/src/probe.ts': "export * from '@travelops/db';",
  },
  'stripe-imports-only-the-domain': { 'packages/stripe/src/probe.ts': "export * from '@travelops/auth';" },
  'only-the-adapter-imports-the-stripe-sdk': { 'packages/http/src/probe.ts': "export * from 'stripe';" },
  'packages-import-no-app': {
    'packages/http/src/probe.ts': "export * from '../../../apps/first/src/server.js';",
    'apps/first/src/server.ts': 'export const server = 1;',
  },
  'apps-import-no-other-app': {
    'apps/first/src/probe.ts': "export * from '../../second/src/main.js';",
    'apps/second/src/main.ts': 'export const main = 1;',
  },
  'no-cycle-between-packages': {
    'packages/auth/src/probe.ts': "export * from '../../domain/src/shared/probe.js';\nexport const a = 1;",
    'packages/domain/src/shared/probe.ts': "export * from '../../../auth/src/probe.js';",
  },
  'db-imports-only-the-domain': { 'packages/db/src/probe.ts': "export * from '@travelops/auth';" },
  'auth-imports-only-the-domain': { 'packages/auth/src/probe.ts': "export * from '@travelops/db';" },
  'jobs-import-the-domain-webhooks-and-mail-only': {
    'packages/jobs/src/probe.ts': "export * from '@travelops/db';",
  },
  'jobs-drive-no-database-or-server': { 'packages/jobs/src/probe.ts': "export * from 'knex';" },
  'mail-imports-the-domain-and-html-only': {
    'packages/mail/src/probe.ts': "export * from '@travelops/jobs';",
  },
  'logging-imports-only-the-domain': { 'packages/logging/src/probe.ts': "export * from '@travelops/html';" },
  'webhooks-import-no-workspace-package': {
    'packages/webhooks/src/probe.ts': "export * from '@travelops/domain/shared';",
  },
  'browser-apps-talk-through-the-client': {
    'apps/console/src/probe.ts': "export * from '@travelops/domain/bookings';",
  },
  'not-to-unresolvable': { 'packages/auth/src/probe.ts': "export * from './missing.js';" },
  'html-imports-nothing': { 'packages/html/src/probe.ts': "export * from 'node:fs';" },
};

/**
 * Made-up apps of the temporary tree (the configuration reads every app's name from its
 * package.json): the probes never name a real app's files.
 */
const APPS = ['first', 'second', 'console'];

/** The rule names depcruise reports as errors for the probe's files. */
async function refusals(probe: Record<string, string>): Promise<string[]> {
  // Paths relative to the tree's root, as the rules expect: the configuration, the apps, the probe.
  const dir = mkdtempSync(join(tmpdir(), 'house-rules-'));
  for (const file of ['.dependency-cruiser.cjs', 'tsconfig.base.json'])
    copyFileSync(join(repo, file), join(dir, file));
  for (const app of APPS) {
    mkdirSync(join(dir, 'apps', app), { recursive: true });
    writeFileSync(join(dir, 'apps', app, 'package.json'), JSON.stringify({ name: `@probe/${app}` }));
  }
  for (const [file, text] of Object.entries(probe)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), `${text}\n`);
  }
  const sources = Object.keys(probe).filter((file) => file.endsWith('probe.ts'));
  // depcruise exits non-zero when it finds a violation; its JSON report is on stdout either way.
  const output = await run(
    depcruise,
    [...sources, '--config', '.dependency-cruiser.cjs', '--output-type', 'json'],
    {
      cwd: dir,
    },
  )
    .then(
      ({ stdout }) => stdout,
      (error: { stdout: string }) => error.stdout,
    )
    .finally(() => rmSync(dir, { recursive: true, force: true }));
  const result = JSON.parse(output) as {
    summary: { violations: { rule: { name: string; severity: string } }[] };
  };
  return result.summary.violations.filter((v) => v.rule.severity === 'error').map((v) => v.rule.name);
}

describe('the house rules (.dependency-cruiser.cjs)', () => {
  it('has a probe for every rule of severity error', () => {
    const config = readFileSync(join(repo, '.dependency-cruiser.cjs'), 'utf8');
    const errorRules = [...config.matchAll(/name: '([^']+)',\s*severity: 'error'/g)].map((match) => match[1]);
    expect(errorRules.sort()).toEqual(Object.keys(PROBES).sort());
  });

  it.concurrent.each(Object.entries(PROBES))('refuses a probe that breaks %s', async (rule, probe) => {
    expect(await refusals(probe)).toContain(rule);
  });

  it('keeps process.env out of packages: the apps parse their environment and pass plain options', () => {
    const reads = readdirSync(join(repo, 'packages'), { recursive: true, encoding: 'utf8' })
      .filter(
        (file) => /\/src\/.*\.ts$/.test(file) && !file.endsWith('.test.ts') && !file.includes('node_modules'),
      )
      // The test harness of packages/db finds the test server the way every test run does.
      .filter((file) => file !== 'db/src/testing.ts')
      .filter((file) => readFileSync(join(repo, 'packages', file), 'utf8').includes('process.env'));
    expect(reads).toEqual([]);
  });
});
