import type { KnipConfig } from 'knip';

// `pnpm knip`: unused files, dependencies and exports, in every workspace. An export of one
// workspace package that only another workspace package imports counts as used.
// Entries knip adds by itself, so they are not repeated here (it says so when they are):
// each package.json `exports` map (the `source` condition: src/index.ts, db's src/testing.ts),
// the tsup entries (apps/api src/server.ts, apps/worker src/main.ts), and vitest/tsup configs.
const packageLayout = {
  entry: ['src/**/*.test.ts'],
  project: ['src/**/*.ts', '*.ts'],
};

export default {
  // A package's index.ts is its face: what nobody imports there is dead, too.
  includeEntryExports: true,
  workspaces: {
    '.': {
      entry: ['vitest.shared.ts'],
      project: ['*.ts'],
    },
    'packages/*': packageLayout,
    'packages/webhooks': {
      ...packageLayout,
      // Published for integrators (see its README): the exports of src/index.ts are the public
      // API whether or not the apps use them all. Exports that index.ts does not re-export are
      // still checked.
      includeEntryExports: false,
    },
    'packages/client': {
      ...packageLayout,
      // Published for integrators like @travelops/webhooks: its exports are the public API.
      includeEntryExports: false,
    },
    'apps/api': {
      entry: ['src/cli.ts', 'test/**/*.ts', 'src/**/*.test.ts'],
      project: ['src/**/*.ts', 'test/**/*.ts', '*.ts'],
      // Found by path, not imported: redocly's binary (test/platform/openapi-lint.int.test.ts).
      ignoreDependencies: ['@redocly/cli'],
      // A system binary the integration tests start (test/support/processes.ts), not an npm package.
      ignoreBinaries: ['redis-server'],
    },
    'apps/widget': {
      // The bundle's entry (esbuild, scripts/build.mjs) and its unit tests.
      entry: ['src/main.ts', 'src/**/*.test.ts', 'test/**/*.test.ts', 'scripts/*.mjs'],
      project: ['src/**/*.{ts,tsx}', 'test/**/*.ts', 'scripts/*.mjs', '*.ts'],
      // The types of build.mjs for its test; the script itself is what is checked.
      ignore: ['scripts/build.d.mts'],
    },
    // `pnpm bench` (bench/README.md): run, not imported.
    bench: {
      entry: ['run.ts'],
      project: ['*.ts'],
    },
    'apps/worker': {
      entry: ['src/**/*.test.ts'],
      project: ['src/**/*.ts', '*.ts'],
    },
  },
} satisfies KnipConfig;
