import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { name: 'kit-kafka', testTimeout: 60000 } });
