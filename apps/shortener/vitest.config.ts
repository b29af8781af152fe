import { defineConfig } from 'vitest/config';
import { excludeSoloTiers } from '../../vitest.tiers.js';

export default defineConfig({ test: { name: 'shortener', exclude: excludeSoloTiers, testTimeout: 90_000, hookTimeout: 60_000 } });
