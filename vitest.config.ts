import { defineConfig } from 'vitest/config';
import { tierFiles } from './vitest.tiers.js';

export default defineConfig({
  test: {
    projects: [
      'packages/*',
      'apps/*',
      'infra',
      // The `solo-` projects must run alone: `./stack test` runs them one after the other after every
      // other project (`--project '!solo-*'`, which run in parallel):
      // schemathesis over the OpenAPI documents (a time budget nothing else may share; `./stack fuzz`
      // alone), then the fault tests (they kill -9 and restart the stack's servers; `./stack faults`), then
      // the chart on a Kubernetes control plane.
      {
        test: { name: 'solo-fuzz', include: tierFiles('fuzz'), testTimeout: 300_000, hookTimeout: 180_000 },
      },
      {
        test: {
          name: 'solo-faults',
          // Every *.faults.test.ts of the repository: the gateway's (test/faults/) and messaging's
          // (several dispatchers, one killed or cut off).
          include: tierFiles('faults'),
          testTimeout: 300_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
      // The Helm chart on a real Kubernetes control plane (infra/kube.sh): an API server, its controllers
      // and helm take both cores for minutes; the last pass. Its first start waits for the Kubernetes build.
      {
        test: {
          name: 'solo-cluster',
          include: ['infra/test/chart-cluster.process.test.ts'],
          testTimeout: 300_000,
          hookTimeout: 1_800_000,
        },
      },
    ],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
