import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

/** tsx, resolved from here, so the CLI can run from any working directory. */
const tsxLoader = import.meta.resolve('tsx');

export const apiDir = join(import.meta.dirname, '..', '..');

/** Runs the operator CLI from source, as `pnpm cli` does. */
export function runCli(args: string[], env: Record<string, string>, cwd = apiDir) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(
      process.execPath,
      ['--conditions=source', '--import', tsxLoader, join(apiDir, 'src', 'cli.ts'), ...args],
      { cwd, env: { PATH: process.env.PATH ?? '', ...env } },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs the operator CLI as `npm run cli` does: `scripts/cli.mjs`, the built code (built first if stale). */
export function runBuiltCli(args: string[], cwd: string) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const script = join(apiDir, '..', '..', 'scripts', 'cli.mjs');
    const child = spawn(process.execPath, [script, ...args], { cwd, env: { PATH: process.env.PATH ?? '' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (typeof address !== 'object' || !address) throw new Error('no port');
  return address.port;
}

/** Starts the built server (`dist/server.js`, what `pnpm start` runs) and waits until it listens. */
export async function startBuiltServer(env: Record<string, string>, cwd: string) {
  const entry = join(apiDir, 'dist', 'server.js');
  if (!existsSync(entry)) throw new Error(`${entry} is missing: run the build first (pnpm test does)`);
  const child: ChildProcess = spawn(process.execPath, [entry], {
    cwd,
    env: { PATH: process.env.PATH ?? '', ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk) => (stdout += chunk));
  child.stderr?.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    const timer = setInterval(() => {
      // The banner (URL, first-run token) goes to stderr right after the listening log line.
      if (stdout.includes('TravelOps API listening') && stderr.includes('TravelOps API: ')) {
        clearInterval(timer);
        resolve();
      }
    }, 50);
    void exited.then((code) => {
      clearInterval(timer);
      reject(new Error(`server exited with ${code}: ${stdout}\n${stderr}`));
    });
  });
  return {
    output: () => ({ stdout, stderr }),
    async stop(): Promise<number | null> {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

/** A Redis of this test's own (the shared one on 6379 stays up), stopped and started at will. */
export function startRedis(port: number) {
  const child: ChildProcess = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = new Promise<void>((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk) => {
      output += chunk;
      if (output.includes('Ready to accept connections')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${output}`)));
  });
  return {
    ready,
    pause: () => child.kill('SIGSTOP'),
    resume: () => child.kill('SIGCONT'),
    async stop() {
      child.kill('SIGCONT');
      child.kill('SIGKILL');
      await exited;
    },
  };
}
