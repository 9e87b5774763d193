// `npm run cli -- <command>`: the operator CLI, built (apps/api/dist/cli.js), run in this very
// process. Needs only Node and npm. When its sources changed since the last build (or there is
// none yet), it builds first, as `pnpm start` does, saying so on stderr; stdout stays the
// command's own (`--json` output can be piped).
import { readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildApps } from './build-apps.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const say = (line) => process.stderr.write(`${line}\n`);
const entry = join(root, 'apps', 'api', 'dist', 'cli.js');

/** The newest modification time of the sources under `dir` (tests aside), in ms. */
function newestSource(dir) {
  let newest = 0;
  for (const item of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, item.name);
    if (item.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (/\.tsx?$/.test(item.name) && !/\.test\.tsx?$/.test(item.name))
      newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

function isStale() {
  let built;
  try {
    built = statSync(entry).mtimeMs;
  } catch {
    return true;
  }
  const sources = [join(root, 'apps', 'api', 'src')];
  for (const name of readdirSync(join(root, 'packages'))) sources.push(join(root, 'packages', name, 'src'));
  return sources.some((dir) => {
    try {
      return newestSource(dir) > built;
    } catch {
      return false;
    }
  });
}

if (isStale()) {
  const result = await buildApps(root, ['api'], {
    say,
    onFirst: () => say('TravelOps: building the CLI (after a change, once)'),
  });
  if (result.code !== 0) {
    process.stderr.write(result.log);
    say(`TravelOps: the build failed (turbo exited with ${result.code ?? result.signal}); see above.`);
    process.exit(1);
  }
}
await import(pathToFileURL(entry).href);
