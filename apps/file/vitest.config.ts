import { defineConfig } from 'vitest/config';

// Integration tests stream tens of MiB through gRPC, S3 and Kafka: give them the root's limits.
export default defineConfig({ test: { name: 'file', testTimeout: 60_000, hookTimeout: 120_000 } });
