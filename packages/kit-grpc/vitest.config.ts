import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { name: 'kit-grpc', testTimeout: 15_000 } });
