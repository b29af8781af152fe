import { defineConfig } from 'vitest/config';
import { excludeSoloTiers } from '../../vitest.tiers.js';

export default defineConfig({ test: { name: 'kit-kafka', exclude: excludeSoloTiers, testTimeout: 60000, hookTimeout: 120_000 } });
