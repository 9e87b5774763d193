import { defineConfig, mergeConfig } from 'vitest/config';
import { sharedVitestConfig } from '../../vitest.shared.ts';

// Booting PGlite (WASM + initdb) is CPU-heavy: files run one after another, which here is
// about three times faster than letting two boots fight over the cores.
export default mergeConfig(sharedVitestConfig, defineConfig({ test: { fileParallelism: false } }));
