// `node scripts/measure-first-start.mjs [runs]`: how long a first start takes, as from a fresh
// clone after its install: no build output (every package's and app's dist/ is deleted), an
// empty turbo cache and an empty data directory each run; the time from `npm start` to the
// banner with the URL, then Ctrl-C. Prints one line per run and the median. Deletes the build
// outputs of this checkout: run it where nothing else is building.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const runs = Number(process.argv[2] ?? 3);

const freePort = () =>
  new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

function removeBuilds() {
  for (const group of ['packages', 'apps'])
    for (const name of readdirSync(join(root, group)))
      rmSync(join(root, group, name, 'dist'), { recursive: true, force: true });
}

async function firstStart() {
  removeBuilds();
  const cache = mkdtempSync(join(tmpdir(), 'travelops-turbo-cache-'));
  const data = mkdtempSync(join(tmpdir(), 'travelops-data-'));
  const started = performance.now();
  const child = spawn(process.execPath, [join(root, 'scripts', 'start.mjs')], {
    cwd: root,
    env: { ...process.env, TURBO_CACHE_DIR: cache, DATA_DIR: data, PORT: String(await freePort()) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let output = '';
  const seconds = await new Promise((resolve, reject) => {
    child.stderr.on('data', (chunk) => {
      output += chunk;
      if (output.includes('TravelOps API: http')) resolve((performance.now() - started) / 1000);
    });
    child.on('exit', (code) => reject(new Error(`the start exited with ${code}:\n${output}`)));
  });
  child.removeAllListeners('exit');
  await new Promise((resolve) => {
    child.on('exit', resolve);
    child.kill('SIGINT');
  });
  rmSync(cache, { recursive: true, force: true });
  rmSync(data, { recursive: true, force: true });
  return seconds;
}

const figures = [];
for (let run = 1; run <= runs; run++) {
  const load = loadavg()[0].toFixed(2);
  const seconds = await firstStart();
  figures.push(seconds);
  process.stdout.write(`run ${run}: ${seconds.toFixed(1)} s to the URL (load average before: ${load})\n`);
}
const sorted = [...figures].sort((a, b) => a - b);
process.stdout.write(`median: ${sorted[Math.floor(sorted.length / 2)].toFixed(1)} s over ${runs} runs\n`);
