import { defineConfig } from 'vitest/config';
import { excludeSoloTiers } from '../../vitest.tiers.js';

// Integration tests stream tens of MiB through gRPC, S3 and Kafka: give them the root's limits.
export default defineConfig({ test: { name: 'file', exclude: excludeSoloTiers, testTimeout: 60_000, hookTimeout: 120_000 } });
