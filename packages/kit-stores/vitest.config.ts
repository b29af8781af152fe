import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { name: 'kit-stores', testTimeout: 120000 } });
