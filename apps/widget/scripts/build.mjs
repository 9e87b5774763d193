// Bundles the widget into one file, dist/widget.js (esbuild: Preact, minified, an IIFE for <script src>).
//   node scripts/build.mjs            build
//   node scripts/build.mjs --report   build, print the size (raw and gzip) and fail over the budget
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUTFILE = join(root, 'dist', 'widget.js');

/** What a guest's phone downloads at most: 35 kB of gzipped JavaScript (the budget). */
export const GZIP_BUDGET_BYTES = 35_000;

/** The bundle's text, and its sizes. `write` also puts it at dist/widget.js. */
export async function buildWidget({ write = true } = {}) {
  const result = await build({
    entryPoints: [join(root, 'src', 'main.ts')],
    bundle: true,
    minify: true,
    format: 'iife',
    target: ['es2020', 'chrome90', 'firefox90', 'safari15'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    // Workspace packages (@travelops/client) from their TypeScript source, as in the tests.
    conditions: ['source'],
    legalComments: 'eof',
    write: false,
    logLevel: 'silent',
  });
  const text = result.outputFiles[0].text;
  if (write) {
    await mkdir(dirname(OUTFILE), { recursive: true });
    await writeFile(OUTFILE, text);
  }
  return { text, bytes: Buffer.byteLength(text), gzipBytes: gzipSync(text, { level: 9 }).length };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { bytes, gzipBytes } = await buildWidget();
  if (process.argv.includes('--report')) {
    process.stdout.write(
      `dist/widget.js: ${(bytes / 1000).toFixed(1)} kB, ${(gzipBytes / 1000).toFixed(1)} kB gzip (budget ${GZIP_BUDGET_BYTES / 1000} kB)\n`,
    );
    if (gzipBytes > GZIP_BUDGET_BYTES) process.exit(1);
  }
}
