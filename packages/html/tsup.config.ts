import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  // Declarations from the entries alone: composite (for `tsc -b`, tsconfig.base.json) would want every file.
  // None when TRAVELOPS_BUILD_TYPES=0: `pnpm start` and the CLI need the JavaScript alone.
  dts: process.env.TRAVELOPS_BUILD_TYPES === '0' ? false : { compilerOptions: { composite: false } },
  sourcemap: true,
  clean: true,
  target: 'node20',
});
