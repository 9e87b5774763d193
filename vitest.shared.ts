import { defineConfig } from 'vitest/config';

// Workspace packages resolve to their TypeScript source in tests (the `source` export
// condition), so a test run never depends on a stale `dist/`.
const conditions = ['source', 'module', 'node', 'development|production'];

export const sharedVitestConfig = defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    environment: 'node',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
