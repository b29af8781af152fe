import { defineConfig } from 'vitest/config';
import { excludeSoloTiers } from '../../vitest.tiers.js';

// *.fuzz.test.ts and *.faults.test.ts are the `solo-fuzz` and `solo-faults` projects of the root
// vitest.config.ts, each run as a pass of its own after this one (the fault tests kill the servers others use).
export default defineConfig({ test: { name: 'gateway', exclude: excludeSoloTiers } });
