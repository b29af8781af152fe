import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { name: 'shortener', testTimeout: 90_000, hookTimeout: 60_000 } });
