import { readdirSync } from 'node:fs';
import { defineConfig } from 'tsup';

// One entry per context: each is a subpath of the package (`@travelops/domain/bookings`).
const contexts = readdirSync(new URL('./src', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

export default defineConfig({
  entry: Object.fromEntries(contexts.map((context) => [`${context}/index`, `src/${context}/index.ts`])),
  format: ['esm'],
  // Declarations from the entries alone: composite (for `tsc -b`, tsconfig.base.json) would want every file.
  dts: { compilerOptions: { composite: false } },
  sourcemap: true,
  clean: true,
  target: 'node20',
});
