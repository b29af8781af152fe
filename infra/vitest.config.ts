import { defineConfig } from 'vitest/config';
import { excludeSoloTiers } from '../vitest.tiers.js';

// The chart on a Kubernetes control plane runs alone, as the root config's solo-cluster project.
export default defineConfig({ test: { name: 'infra', exclude: [...excludeSoloTiers, 'test/chart-cluster.process.test.ts'] } });
