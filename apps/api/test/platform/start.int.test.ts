import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort } from '../support/processes.js';

// The newcomer's commands, run as they type them, from the repository root.
const root = join(import.meta.dirname, '..', '..', '..', '..');
let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'travelops-start-'));
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

function run(command: string, args: string[], env: Record<string, string> = {}) {
  // Its own process group, as a terminal's foreground job: Ctrl-C goes to every process in it.
  const child = spawn(command, args, { cwd: root, env: { ...process.env, ...env }, detached: true });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

it('npm and npx print no warning about the project config', async () => {
  const npm = run('npm', ['config', 'get', 'registry']);
  expect(await npm.exited).toBe(0);
  expect(npm.output()).not.toContain('Unknown project config');
});

it('pnpm start says what it does before the API starts, serves the console and the widget, and Ctrl-C ends it quietly with 0', async () => {
  const port = await freePort();
  const start = run('pnpm', ['start'], { PORT: String(port), DATA_DIR: dataDir });
  await expect
    .poll(() => start.output(), { timeout: 120_000, interval: 200 })
    .toContain(`TravelOps API: http://localhost:${port}`);
  expect(start.output()).toMatch(/TravelOps: checking the build[\s\S]*TravelOps: starting the API/);
  expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
  // It builds the console and the widget and tells the API where they are.
  expect((await fetch(`http://127.0.0.1:${port}/app/`)).status).toBe(200);
  expect((await fetch(`http://127.0.0.1:${port}/widget.js`)).status).toBe(200);

  process.kill(-(start.child.pid as number), 'SIGINT');
  expect(await start.exited).toBe(0);
  expect(start.output()).toContain('"msg":"shutting down","signal":"SIGINT"');
  expect(start.output()).not.toMatch(/ELIFECYCLE|Command failed/);
}, 180_000);
