import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  // Declarations from the entries alone: composite (for `tsc -b`, tsconfig.base.json) would want every file.
  dts: { compilerOptions: { composite: false } },
  sourcemap: true,
  clean: true,
  target: 'node20',
});
