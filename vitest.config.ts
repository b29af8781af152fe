import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/*', 'infra'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
