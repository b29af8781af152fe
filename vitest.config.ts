import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      'packages/*',
      'apps/*',
      'infra',
      // schemathesis over the OpenAPI documents (a few minutes): `./stack fuzz` runs it on its own;
      // `./stack test` runs every other project (`--project '!fuzz'`).
      { test: { name: 'fuzz', root: 'apps/gateway', include: ['test/fuzz/**/*.test.ts'], testTimeout: 300_000, hookTimeout: 180_000 } },
    ],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
