import { defineConfig } from 'vitest/config';
import { excludeSoloTiers } from '../../vitest.tiers.js';

export default defineConfig({ test: { name: 'flow', exclude: excludeSoloTiers } });
