/**
 * The processes a bench run starts: the API and the worker as production runs them (the
 * built `dist/`, which `buildApps` brings up to date; BENCH_FROM_SOURCE=1 runs the sources
 * through tsx instead, for quick turns while profiling), the floor's `serve` and `tx`
 * (../shared/bench/floor.mjs, outside this repository), and the sampling of the API's
 * resident memory.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';

const repoRoot = join(import.meta.dirname, '..');
const tsxLoader = import.meta.resolve('tsx');
const fromSource = process.env.BENCH_FROM_SOURCE === '1';

/**
 * The API's V8 flags, as docs/deploy.md runs it: a young generation of at most 2 x 6 MB instead
 * of Node's 2 x 16 MB. Under the bench's 50 clients the API's RSS peaked at 263 MB without it
 * and 237 MB with it (the trade-off, measured: docs/performance.md).
 */
const API_NODE_FLAGS = ['--max-semi-space-size=6'];

/** The command line of an app's entry: its build, or its source through tsx. */
const entryOf = (app: 'api' | 'worker') => {
  const dir = join(repoRoot, 'apps', app);
  const [source, built] =
    app === 'api' ? ['src/server.ts', 'dist/server.js'] : ['src/main.ts', 'dist/main.js'];
  const flags = app === 'api' ? API_NODE_FLAGS : [];
  return fromSource
    ? [...flags, '--conditions=source', '--import', tsxLoader, join(dir, source)]
    : [...flags, join(dir, built)];
};

/** Builds the API and the worker as `pnpm start` does (turbo: cached when nothing changed). */
export function buildApps(): Promise<void> {
  if (fromSource) return Promise.resolve();
  return new Promise((done, reject) => {
    const child = spawn(
      join(repoRoot, 'node_modules', '.bin', 'turbo'),
      ['run', 'build', '--filter=@travelops/api', '--filter=@travelops/worker', '--output-logs=errors-only'],
      {
        cwd: repoRoot,
        env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' },
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
    child.once('exit', (code) => (code === 0 ? done() : reject(new Error(`the build failed (${code})`))));
  });
}

/**
 * The floor is not part of this repository: BENCH_FLOOR names it, else it is looked for
 * beside the checkout (`../shared/bench/floor.mjs` from the repository root).
 */
export function floorScript(): string {
  const path = resolve(process.env.BENCH_FLOOR ?? join(repoRoot, '..', 'shared', 'bench', 'floor.mjs'));
  if (!existsSync(path))
    throw new Error(`The floor is missing at ${path}: set BENCH_FLOOR to the path of floor.mjs.`);
  return path;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  await new Promise((done) => server.close(done));
  if (typeof address !== 'object' || !address) throw new Error('no free port');
  return address.port;
}

export interface Started {
  pid: number;
  /** SIGTERM (a clean stop), or SIGKILL (a crash); resolves when the process has exited. */
  stop(signal?: NodeJS.Signals): Promise<void>;
  output(): string;
}

function start(
  args: string[],
  env: Record<string, string>,
  options: { keepOutput: boolean } = { keepOutput: false },
): { child: ChildProcess; started: Started } {
  const child = spawn(process.execPath, args, {
    // From the repository root, as docs/deploy.md runs them.
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? '', ...env },
    // Logs go nowhere (as to a file nobody reads): their cost is measured, not their reading.
    stdio: ['ignore', options.keepOutput ? 'pipe' : 'ignore', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  return {
    child,
    started: {
      pid: child.pid as number,
      async stop(signal: NodeJS.Signals = 'SIGTERM') {
        if (child.exitCode === null && child.signalCode === null) child.kill(signal);
        await exited;
      },
      output: () => output,
    },
  };
}

async function waitFor(check: () => Promise<boolean>, what: string, child: Started, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((done) => setTimeout(done, 100));
  }
  throw new Error(`${what} did not come up in ${timeoutMs / 1000} s:\n${child.output()}`);
}

/** The API (`dist/server.js`), configured through its environment like production; BENCH_CPU_PROF=dir profiles it. */
export async function startApi(env: Record<string, string>, port: number): Promise<Started> {
  const profile = process.env.BENCH_CPU_PROF;
  const { started } = start(
    [...(profile ? ['--cpu-prof', `--cpu-prof-dir=${resolve(profile)}`] : []), ...entryOf('api')],
    { ...env, PORT: String(port), HOST: '127.0.0.1', WORKER_IN_PROCESS: 'false' },
  );
  await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/healthz`)).ok, 'the API', started);
  return started;
}

/** The worker (`apps/worker/dist/main.js`). */
export async function startWorker(env: Record<string, string>): Promise<Started> {
  const { started } = start(entryOf('worker'), env, { keepOutput: true });
  await waitFor(async () => started.output().includes('worker started'), 'the worker', started);
  return started;
}

/** `floor.mjs` finds `pg` through a package of ours that depends on it. */
const floorEnv = (databaseUrl: string) => ({
  DATABASE_URL: databaseUrl,
  FLOOR_RESOLVE_FROM: join(repoRoot, 'packages', 'db'),
});

/** The floor's bare node:http server (`floor.mjs serve`): a token check and one booking read. */
export async function startFloorServer(databaseUrl: string, port: number): Promise<Started> {
  const { started } = start(
    [floorScript(), 'serve'],
    { ...floorEnv(databaseUrl), PORT: String(port) },
    {
      keepOutput: true,
    },
  );
  await waitFor(async () => started.output().includes('"listening"'), 'the floor server', started);
  return started;
}

export interface FloorTx {
  perSecond: number;
  p50: number;
  p99: number;
  errors: number;
}

/** One run of the floor's booking transaction (`floor.mjs tx seconds connections`). */
export function runFloorTx(databaseUrl: string, seconds: number, connections: number): Promise<FloorTx> {
  return new Promise((done, reject) => {
    const { child, started } = start(
      [floorScript(), 'tx', String(seconds), String(connections)],
      floorEnv(databaseUrl),
      { keepOutput: true },
    );
    child.once('exit', (code) => {
      const line = started
        .output()
        .split('\n')
        .find((l) => l.includes('"floor-booking-tx"'));
      if (code !== 0 || !line) reject(new Error(`floor tx exited with ${code}: ${started.output()}`));
      else done(JSON.parse(line) as FloorTx);
    });
  });
}

/** Samples a process's resident set (VmRSS) while it runs; `peak` also reads the kernel's high-water mark. */
/** CPU time (user + system) the process has used so far, in ms (from /proc; 0 elsewhere). */
export function cpuMs(pid: number): number {
  try {
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}
/** Linux's USER_HZ: 100 on every mainstream architecture. */
const CLOCK_TICKS_PER_SECOND = 100;

export function sampleRss(pid: number, everyMs = 250) {
  const read = (field: 'VmRSS' | 'VmHWM') => {
    try {
      const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      return match ? Number(match[1]) / 1024 : 0;
    } catch {
      return 0;
    }
  };
  let maxRss = 0;
  const timer = setInterval(() => {
    maxRss = Math.max(maxRss, read('VmRSS'));
  }, everyMs);
  timer.unref();
  return {
    /** Highest sampled RSS and the kernel's high-water mark, in MB. */
    peak: () => ({ sampledMb: Math.round(maxRss), highWaterMb: Math.round(read('VmHWM')) }),
    stop: () => clearInterval(timer),
  };
}
