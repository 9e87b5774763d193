import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { type AddressInfo, createServer } from 'node:net';
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

it('pnpm start finds a taken port before it builds anything, in one line', async () => {
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '0.0.0.0', resolve));
  const port = (taken.address() as AddressInfo).port;
  try {
    const start = run('node', ['scripts/start.mjs'], { PORT: String(port), DATA_DIR: dataDir });
    expect(await start.exited).toBe(1);
    expect(start.output()).toContain(
      `TravelOps API could not start. PORT: ${port} is in use on 0.0.0.0 (another TravelOps?). Stop that process or start with another port, e.g. PORT=${port + 1}.`,
    );
    expect(start.output()).not.toContain('checking the build');
  } finally {
    await new Promise((resolve) => taken.close(resolve));
  }
});

it('pnpm test stops on Ctrl-C during its build, running nothing after', async () => {
  const test = run('node', ['scripts/test.mjs'], { FORCE_COLOR: '0' });
  // Biome, dependency-cruiser and knip first; then turbo's build, where Ctrl-C used to be ignored.
  await expect
    .poll(() => test.output(), { timeout: 180_000, interval: 200 })
    .toMatch(/Running build, typecheck/);
  process.kill(-(test.child.pid as number), 'SIGINT');
  const code = await Promise.race([
    test.exited,
    new Promise((resolve) => setTimeout(() => resolve('still running'), 30_000)),
  ]);
  expect(code, test.output()).toBe(130);
  expect(test.output()).toContain('pnpm test: interrupted, nothing more runs.');
  expect(test.output()).not.toMatch(/Running test in/);
}, 240_000);
