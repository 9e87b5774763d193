import { defineConfig } from 'tsup';

export default defineConfig({
  // An app, not a library: the process is its only entry.
  entry: ['src/main.ts'],
  format: ['esm'],
  sourcemap: true,
  clean: true,
  target: 'node20',
});
