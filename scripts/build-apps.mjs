// The build `pnpm start` and `npm run cli` need, through turbo (cached: a second run rebuilds
// nothing), printing one line per package it compiles and the full log only if it fails.
// Runtime JavaScript only: no type declarations (TRAVELOPS_BUILD_TYPES=0; `pnpm build` and the
// tests make them), every package turbo can run at once in parallel.
import { spawn } from 'node:child_process';
import { join } from 'node:path';

/**
 * Builds the apps named (and what they import); resolves `{ code, signal, log }`. `onFirst`
 * is called before the first package that is not cached, to say that building starts.
 */
export function buildApps(root, apps, { say, onFirst }) {
  const turbo = join(root, 'node_modules', '.bin', 'turbo');
  const args = ['run', 'build', ...apps.map((app) => `--filter=@travelops/${app}`), '--output-logs=new-only'];
  const child = spawn(turbo, args, {
    cwd: root,
    env: {
      ...process.env,
      TURBO_TELEMETRY_DISABLED: '1',
      FORCE_COLOR: '0',
      // `pnpm test` sets 1: its own build (with types) then serves the starts its tests make.
      TRAVELOPS_BUILD_TYPES: process.env.TRAVELOPS_BUILD_TYPES ?? '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  let compiled = 0;
  const onData = (chunk) => {
    log += chunk;
    for (const match of String(chunk).matchAll(/^(@travelops\/[\w-]+):build: cache miss, executing/gm)) {
      if (compiled++ === 0) onFirst();
      say(`  building ${match[1]}`);
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  return new Promise((resolve) => {
    child.on('close', (code, signal) => resolve({ code, signal, log }));
  });
}
