import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { name: 'kit-metrics', testTimeout: 15_000 } });
