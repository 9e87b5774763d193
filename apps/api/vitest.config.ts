import { defineConfig, mergeConfig } from 'vitest/config';
import { sharedVitestConfig } from '../../vitest.shared.ts';

export default mergeConfig(
  sharedVitestConfig,
  defineConfig({
    test: {
      // Each file has its own database; two files at a time suit a 2-core machine.
      maxWorkers: 2,
    },
  }),
);
