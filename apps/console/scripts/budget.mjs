// The console's first-load budget: the JavaScript /app/ loads before it can draw, gzip-compressed
// as the API serves it (level 9), at most 200 kB. Reads the build (pnpm --filter
// @travelops/console build first); exits 1 over budget. The browser test
// (apps/api/test/platform/console.int.test.ts) measures the same on the wire, and page changes.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const BUDGET = 200 * 1024;
const say = (line) => process.stdout.write(`${line}\n`);
const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const html = readFileSync(join(dist, 'index.html'), 'utf8');
if (/<script(?![^>]*\bsrc=)[^>]*>/.test(html)) {
  say('budget: index.html has an inline script, which the page policy refuses');
  process.exit(1);
}
// The entry script and whatever it preloads; chunks loaded later (none today) do not count.
const files = [
  ...html.matchAll(/<(?:script[^>]*\bsrc|link[^>]*rel="modulepreload"[^>]*\bhref)="\/app\/([^"]+\.js)"/g),
].map((match) => match[1]);
let total = 0;
for (const file of files) {
  const gzip = gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
  total += gzip;
  say(`  ${file}  ${(gzip / 1024).toFixed(1)} kB gzip`);
}
const verdict = total <= BUDGET ? 'within' : 'OVER';
say(
  `first load of /app/: ${(total / 1024).toFixed(1)} kB of JavaScript (gzip), ${verdict} the 200 kB budget`,
);
process.exit(total <= BUDGET ? 0 : 1);
