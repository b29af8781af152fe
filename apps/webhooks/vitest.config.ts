import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { name: 'webhooks', testTimeout: 60_000, hookTimeout: 120_000 } });
