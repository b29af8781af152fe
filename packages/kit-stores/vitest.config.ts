import { defineConfig } from 'vitest/config';
import { excludeSoloTiers } from '../../vitest.tiers.js';

export default defineConfig({ test: { name: 'kit-stores', exclude: excludeSoloTiers, testTimeout: 120000, hookTimeout: 120_000 } });
