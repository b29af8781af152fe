import { defineConfig } from 'vitest/config';

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
        test: { name: 'solo-fuzz', root: 'apps/gateway', include: ['test/fuzz/**/*.test.ts'], testTimeout: 300_000, hookTimeout: 180_000 },
      },
      {
        test: {
          name: 'solo-faults',
          root: 'apps/gateway',
          // The messaging fault tests (several dispatchers, one killed or cut off) run here too.
          include: ['test/faults/**/*.test.ts', '../messaging/test/**/*.faults.test.ts'],
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
