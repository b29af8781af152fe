import { defineConfig } from 'vitest/config';
import { excludeSoloTiers } from '../../vitest.tiers.js';

// Each test runs feedbackctl (node + tsx) several times against the stack.
export default defineConfig({ test: { name: 'cli', exclude: excludeSoloTiers, testTimeout: 60_000, hookTimeout: 120_000 } });
