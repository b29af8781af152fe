import { defineConfig } from 'vitest/config';
import { excludeSoloTiers } from '../../vitest.tiers.js';

export default defineConfig({ test: { name: 'kit-metrics', exclude: excludeSoloTiers, testTimeout: 15_000, hookTimeout: 60_000 } });
