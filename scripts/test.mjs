// `pnpm test`: every check, as CI runs them, one step after another; the first that fails stops
// the run. Turborepo's telemetry stays off, and Ctrl-C stops the run where it is: a step
// interrupted is never followed by the next one, and the run exits 130, as a shell does.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { scripts } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

const STEPS = [
  scripts.lint,
  scripts['deps:check'],
  scripts.knip,
  'turbo run build typecheck --output-logs=errors-only',
  'turbo run test --concurrency=1',
];

let interrupted = false;
// The terminal sends Ctrl-C to the running step as well (one process group): it stops, then so do we.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    interrupted = true;
  });
}

const env = {
  ...process.env,
  PATH: `${join(root, 'node_modules', '.bin')}${delimiter}${process.env.PATH ?? ''}`,
  TURBO_TELEMETRY_DISABLED: '1',
  // Builds with type declarations, and the same for the starts the tests make (scripts/build-apps.mjs):
  // one hash, so a test's `pnpm start` finds this build in turbo's cache instead of rebuilding
  // (and deleting) the dist/ other tests are reading.
  TRAVELOPS_BUILD_TYPES: '1',
};
for (const step of STEPS) {
  const code = await new Promise((resolve) => {
    const child = spawn(step, { cwd: root, env, stdio: 'inherit', shell: true });
    child.on('close', (exitCode, signal) => resolve(exitCode ?? (signal ? 130 : 1)));
  });
  if (interrupted) {
    process.stderr.write('\npnpm test: interrupted, nothing more runs.\n');
    process.exit(130);
  }
  if (code !== 0) process.exit(code);
}
