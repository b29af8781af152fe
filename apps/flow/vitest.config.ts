import { defineConfig } from 'vitest/config';
import { excludeSoloTiers } from '../../vitest.tiers.js';

export default defineConfig({ test: { name: 'flow', exclude: excludeSoloTiers, testTimeout: 60_000, hookTimeout: 120_000 } });
