import { defineConfig } from 'tsup';

export default defineConfig({
  // An app, not a library: the server and the operator CLI are its only entries.
  entry: ['src/server.ts', 'src/cli.ts'],
  format: ['esm'],
  sourcemap: true,
  clean: true,
  target: 'node20',
});
