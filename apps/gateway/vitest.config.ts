import { configDefaults, defineConfig } from 'vitest/config';

// test/fuzz/ and test/faults/ are the `fuzz` and `faults` projects of the root vitest.config.ts,
// each run as a pass of its own after this one (the fault tests kill the servers others use).
export default defineConfig({ test: { name: 'gateway', exclude: [...configDefaults.exclude, 'test/fuzz/**', 'test/faults/**'] } });
