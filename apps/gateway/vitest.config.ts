import { defineConfig } from 'vitest/config';
import { excludeSoloTiers } from '../../vitest.tiers.js';

// *.fuzz.test.ts and *.faults.test.ts are the `solo-fuzz` and `solo-faults` projects of the root
// vitest.config.ts, each run as a pass of its own after this one (the fault tests kill the servers others use).
// Its e2e tests wait on the stack's consumers (webhooks, clicks, retention settings), which may
// still be joining their groups when the tests start: the patience of the other apps' projects.
export default defineConfig({ test: { name: 'gateway', exclude: excludeSoloTiers, testTimeout: 60_000, hookTimeout: 120_000 } });
