// `npm run pack:integrators [folder]` (or pnpm): the two packages integrators install, @travelops/client and
// @travelops/webhooks, built (with their type declarations) and packed as `pnpm publish` would
// send them (publishConfig applied, catalog: versions written out), into `packs/` or the folder
// given. An integrator installs a tarball with `npm install <path to the .tgz>`.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const destination = resolve(process.argv[2] ?? join(root, 'packs'));
const PACKAGES = ['client', 'webhooks'];
const say = (line) => process.stderr.write(`${line}\n`);

function run(command, args, cwd) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, {
      cwd,
      // With type declarations, whatever built them before.
      env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1', TRAVELOPS_BUILD_TYPES: '1' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child.stdout.on('data', () => {});
    child.on('close', (code) =>
      code === 0 ? resolvePromise() : reject(new Error(`${command} ${args.join(' ')} exited with ${code}`)),
    );
  });
}

// pnpm packs (npm pack would leave `catalog:` in the manifest): the one running this, else the
// one on the PATH, else npx's.
const execPath = process.env.npm_execpath ?? '';
const pnpm = /pnpm/.test(execPath)
  ? [process.execPath, [execPath]]
  : spawnSync('pnpm', ['--version']).status === 0
    ? ['pnpm', []]
    : ['npx', ['--yes', 'pnpm@10']];

say('TravelOps: building @travelops/client and @travelops/webhooks');
await run(
  join(root, 'node_modules', '.bin', 'turbo'),
  ['run', 'build', ...PACKAGES.map((name) => `--filter=@travelops/${name}`), '--output-logs=errors-only'],
  root,
);
mkdirSync(destination, { recursive: true });
const before = new Set(readdirSync(destination));
for (const name of PACKAGES) {
  await run(pnpm[0], [...pnpm[1], 'pack', '--pack-destination', destination], join(root, 'packages', name));
}
const made = readdirSync(destination).filter((file) => file.endsWith('.tgz') && !before.has(file));
for (const file of made.length ? made : readdirSync(destination).filter((f) => f.endsWith('.tgz')))
  process.stdout.write(`${join(destination, file)}\n`);
say('Install one in a project of yours with: npm install <one of the paths above>');
