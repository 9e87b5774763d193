import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createUnitOfWork } from '@travelops/db';
import { createJobs, createWorker, outboxWakeUps } from '@travelops/jobs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { seedDemo } from '../../src/cli/seed.js';
import { systemClock } from '../../src/compose.js';
import { startTestApi, type TestApi } from '../support/harness.js';
import { freePort } from '../support/processes.js';

// The README's walk-through and the docs pages that continue it, run as pasted with bash against
// the real API (and its worker's jobs), with the values a newcomer pastes: the demo workspace's
// id and token.
const root = join(import.meta.dirname, '..', '..', '..', '..');
const quiet = { info() {}, warn() {}, error() {} };
let t: TestApi;
let worker: ReturnType<typeof createWorker>;
let listener: { close(): Promise<void> } | undefined;
/** README.md and the docs pages whose commands continue its walk-through, by path. */
const pages: Record<string, string> = {};
const PAGES = [
  'README.md',
  'docs/client.md',
  'docs/inventory.md',
  'docs/auth.md',
  'docs/webhooks.md',
  'docs/octo.md',
];
let cwd: string;
beforeAll(async () => {
  // The API hands out links (the checkout) on its public base URL: this server's own.
  const port = await freePort();
  t = await startTestApi({ PORT: String(port), PUBLIC_BASE_URL: `http://127.0.0.1:${port}` });
  worker = createWorker({
    jobs: createJobs(
      { uow: createUnitOfWork(t.api.database.knex), clock: systemClock, logger: quiet },
      { allowPrivateWebhookUrls: true },
    ),
    logger: quiet,
  });
  worker.start();
  // As the worker process does: a committed event wakes the delivery job (the poll is the safety net).
  listener = t.api.database.listenForOutbox(outboxWakeUps(worker, quiet));
  for (const page of PAGES) pages[page] = await readFile(join(root, page), 'utf8');
  // The commands run where a newcomer pastes them, a clone (`packages` as in one), and their
  // temporary folder ($TMPDIR) is one of this test's own, so what they write can be seen.
  cwd = await mkdtemp(join(tmpdir(), 'travelops-readme-'));
  // As in a clone: what `node packages/...` and `npm run cli` reach.
  for (const entry of ['packages', 'apps', 'scripts', 'node_modules', 'package.json'])
    await symlink(join(root, entry), join(cwd, entry));
  await mkdir(join(cwd, 'tmp'));
});
afterAll(async () => {
  await listener?.close();
  await worker?.stop();
  await t.close();
  await rm(cwd, { recursive: true, force: true });
});

/**
 * The fenced blocks of one section of a page, in order: from its heading line (`## Quick start`)
 * down to the next heading of the same level or above (a `#` comment inside a block is none).
 */
function blocksOf(page: string, heading: string, language: string): string[] {
  const lines = (pages[page] as string).split('\n');
  const start = lines.indexOf(heading);
  expect(start, `${page}: ${heading}`).toBeGreaterThan(-1);
  const level = heading.indexOf(' ');
  const blocks: string[] = [];
  let block: string[] | null = null;
  let fenced = false;
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith('```')) {
      if (fenced && block) blocks.push(`${block.join('\n')}\n`);
      block = !fenced && line === `\`\`\`${language}` ? [] : null;
      fenced = !fenced;
    } else if (fenced) {
      block?.push(line);
    } else if (/^#+ /.test(line) && line.indexOf(' ') <= level) {
      break;
    }
  }
  return blocks;
}

function bash(script: string, env: Record<string, string>) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn('bash', ['-c', script], {
      cwd,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? cwd, ...env },
      detached: true,
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => process.kill(-(child.pid as number), 'SIGKILL'), 60_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      // Whatever the script left running (the receiver, if it failed half-way) goes with it.
      try {
        process.kill(-(child.pid as number), 'SIGKILL');
      } catch {}
      resolve({ code, output });
    });
  });
}

it('the receiver and the client script shown in the docs are the example files, word for word', async () => {
  const receiver = await readFile(join(root, 'packages', 'webhooks', 'examples', 'receiver.mjs'), 'utf8');
  expect(blocksOf('docs/webhooks.md', '## Receive webhooks', 'js')).toEqual([receiver]);
  const client = await readFile(join(root, 'packages', 'client', 'examples', 'next-departures.mjs'), 'utf8');
  expect(blocksOf('docs/client.md', '## Next departures, through the client', 'js')).toEqual([client]);
});

it('the quick start, booking, client, ticket-type, API-key and webhook walk-throughs run as pasted, days after the first start, writing only into the temporary folder', async () => {
  // The demo was seeded three days ago: its first departures are in the past, as they are for
  // anyone who pastes the walk-through some days after the first start.
  const threeDaysAgo = () => new Date(Date.now() - 3 * 86_400_000);
  const demo = await seedDemo({ ...t.commandDeps, clock: { now: threeDaysAgo } });
  const departures = await t.api.database
    .knex('availability')
    .where({ workspace_id: demo.workspaceId })
    .orderBy('starts_at')
    .select('starts_at');
  expect(new Date(departures[0].starts_at).getTime()).toBeLessThan(Date.now());
  const [install, quickStart] = blocksOf('README.md', '## Quick start', 'sh');
  expect(install).toContain('pnpm@10 install');
  const pasted = 'export API=http://localhost:3000 TOKEN=tops_paste_yours WS=ws_paste_yours';
  expect(quickStart).toContain(pasted);
  const receiverPort = await freePort();
  const script = [
    'set -euo pipefail',
    (quickStart as string).replace(
      pasted,
      `export API=${t.baseUrl} TOKEN=${demo.token} WS=${demo.workspaceId}`,
    ),
    ...blocksOf('README.md', '## Book a seat (walk-through)', 'sh'),
    ...blocksOf('docs/client.md', '## Next departures, through the client', 'sh'),
    ...blocksOf('docs/inventory.md', '### Try it: a family at ticket-type prices', 'sh'),
    ...blocksOf('docs/auth.md', '## Sign in and manage API keys', 'sh'),
    ...blocksOf('docs/webhooks.md', '## Receive webhooks', 'sh').map((block) =>
      block.replaceAll('localhost:4000', `localhost:${receiverPort}`),
    ),
    ...blocksOf('docs/octo.md', '## Connecting a reseller', 'sh'),
  ].join('\n');
  // The CLI steps (npm run cli) reach this API's database, as on a machine with DATABASE_URL set.
  const { code, output } = await bash(script, {
    RECEIVER_PORT: String(receiverPort),
    TMPDIR: join(cwd, 'tmp'),
    DATABASE_URL: t.database.url,
  });
  expect(code, output).toBe(0);
  // Nothing landed in the clone; the contract and the cookie jar went to the temporary folder.
  expect((await readdir(cwd)).sort()).toEqual([
    'apps',
    'node_modules',
    'package.json',
    'packages',
    'scripts',
    'tmp',
  ]);
  expect(await readdir(join(cwd, 'tmp'))).toEqual(['openapi.json']);
  expect(output).toContain('"slug":"old-town-walk"');
  expect(output).toContain('{"data":{"status":"ok"}}');
  expect(output).toMatch(/^avl_\w+ \d{4}-\d\d-\d\dT[\d:.]+Z \d+ seats left$/m);
  expect(output).toMatch(/^PENDING$/m);
  expect(output).toMatch(/^CONFIRMED$/m);
  expect(output).toMatch(/^PAID$/m);
  expect(output).toMatch(/^10000$/m);
  expect(output).toMatch(/^4000 4000 2000 0$/m);
  expect(output).toMatch(/^401$/m);
  expect(output).toMatch(/^received booking\.cancelled for bkg_\w+ \(evt_\w+\)$/m);
  expect(output).toContain('"status":"SUCCEEDED"');
  // The OCTO section's reseller key, made with the CLI, lists the demo's products.
  expect(output).toContain('"internalName":"Old Town Walking Tour"');
}, 90_000);

it('the one-boat walk-through runs as pasted: two tours never sell more than the boat seats', async () => {
  const demo = await seedDemo(t.commandDeps);
  const [, quickStart] = blocksOf('README.md', '## Quick start', 'sh');
  const pasted = 'export API=http://localhost:3000 TOKEN=tops_paste_yours WS=ws_paste_yours';
  const script = [
    'set -euo pipefail',
    (quickStart as string)
      .split('\n')[0]
      ?.replace(pasted, `export API=${t.baseUrl} TOKEN=${demo.token} WS=${demo.workspaceId}`),
    ...blocksOf('README.md', '## One boat, two tours (walk-through)', 'sh'),
  ].join('\n');
  const { code, output } = await bash(script, {});
  expect(code, output).toBe(0);
  expect(output.trim().split('\n')).toEqual(['4', 'resource_full']);
}, 60_000);
