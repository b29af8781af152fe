import { configDefaults, defineConfig } from 'vitest/config';

// test/fuzz/ is the `fuzz` project of the root vitest.config.ts, run as a step of its own.
export default defineConfig({ test: { name: 'gateway', exclude: [...configDefaults.exclude, 'test/fuzz/**'] } });
