import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { name: 'kit-limits', testTimeout: 60_000 } });
