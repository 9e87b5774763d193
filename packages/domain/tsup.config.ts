import { defineConfig } from 'tsup';
import packageJson from './package.json' with { type: 'json' };

// One entry per context, read from the package's `exports` (`./bookings` -> `src/bookings/index.ts`),
// so the built subpaths are exactly the published ones.
const entry = Object.fromEntries(
  Object.entries(packageJson.exports).map(([subpath, target]) => [
    `${subpath.slice(2)}/index`,
    target.source.slice(2),
  ]),
);

export default defineConfig({
  entry,
  format: ['esm'],
  // Declarations from the entries alone: composite (for `tsc -b`, tsconfig.base.json) would want every file.
  // None when TRAVELOPS_BUILD_TYPES=0: `pnpm start` and the CLI need the JavaScript alone.
  dts: process.env.TRAVELOPS_BUILD_TYPES === '0' ? false : { compilerOptions: { composite: false } },
  sourcemap: true,
  clean: true,
  target: 'node20',
});
