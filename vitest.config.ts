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
      // alone), then the fault tests (they kill -9 and restart the stack's servers; `./stack faults`).
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
    ],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
