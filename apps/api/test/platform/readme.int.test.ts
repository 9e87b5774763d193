import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createUnitOfWork } from '@travelops/db';
import { createJobs, createWorker, outboxWakeUps } from '@travelops/jobs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { seedDemo } from '../../src/cli/seed.js';
import { systemClock } from '../../src/compose.js';
import { startTestApi, type TestApi } from '../support/harness.js';
import { freePort } from '../support/processes.js';

// The README's walk-throughs, run as pasted with bash against the real API (and its worker's
// jobs), with the values a newcomer pastes: the demo workspace's id and token.
const root = join(import.meta.dirname, '..', '..', '..', '..');
const quiet = { info() {}, warn() {}, error() {} };
let t: TestApi;
let worker: ReturnType<typeof createWorker>;
let listener: { close(): Promise<void> } | undefined;
let readme: string;
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
  readme = await readFile(join(root, 'README.md'), 'utf8');
  // A scratch directory for the files the commands write; `packages` as in a clone.
  cwd = await mkdtemp(join(tmpdir(), 'travelops-readme-'));
  await symlink(join(root, 'packages'), join(cwd, 'packages'));
});
afterAll(async () => {
  await listener?.close();
  await worker?.stop();
  await t.close();
  await rm(cwd, { recursive: true, force: true });
});

/** The fenced blocks of one `## ` section of the README, in order. */
function blocksOf(heading: string, language: string): string[] {
  const start = readme.indexOf(`\n## ${heading}`);
  expect(start, heading).toBeGreaterThan(-1);
  const end = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, end === -1 ? undefined : end);
  return [...section.matchAll(new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``, 'g'))].map(
    (m) => m[1] as string,
  );
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

it('the receiver and the client script shown in the README are the example files, word for word', async () => {
  const receiver = await readFile(join(root, 'packages', 'webhooks', 'examples', 'receiver.mjs'), 'utf8');
  expect(blocksOf('Receive webhooks', 'js')).toEqual([receiver]);
  const client = await readFile(join(root, 'packages', 'client', 'examples', 'next-departures.mjs'), 'utf8');
  expect(blocksOf('Typed client', 'js')).toEqual([client]);
});

it('the quick start, booking, API-key and webhook walk-throughs run as pasted', async () => {
  const demo = await seedDemo(t.commandDeps);
  await t.createMember(demo.workspaceId, 'ADMIN', {
    email: 'you@example.com',
    password: 'at least twelve chars',
  });
  const [install, quickStart] = blocksOf('Quick start', 'sh');
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
    ...blocksOf('Book a seat (walk-through)', 'sh'),
    ...blocksOf('Typed client', 'sh'),
    ...blocksOf('Sign in and manage API keys', 'sh'),
    ...blocksOf('Receive webhooks', 'sh').map((block) =>
      block.replaceAll('localhost:4000', `localhost:${receiverPort}`),
    ),
  ].join('\n');
  const { code, output } = await bash(script, { RECEIVER_PORT: String(receiverPort) });
  expect(code, output).toBe(0);
  expect(output).toContain('"slug":"old-town-walk"');
  expect(output).toContain('{"data":{"status":"ok"}}');
  expect(output).toMatch(/^avl_\w+ \d{4}-\d\d-\d\dT[\d:.]+Z \d+ seats left$/m);
  expect(output).toMatch(/^PENDING$/m);
  expect(output).toMatch(/^CONFIRMED$/m);
  expect(output).toMatch(/^PAID$/m);
  expect(output).toMatch(/^401$/m);
  expect(output).toMatch(/^received booking\.cancelled for bkg_\w+ \(evt_\w+\)$/m);
  expect(output).toContain('"status":"SUCCEEDED"');
}, 90_000);
