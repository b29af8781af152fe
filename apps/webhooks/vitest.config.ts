import { configDefaults, defineConfig } from 'vitest/config';

// *.faults.test.ts (the stack's webhooks service killed mid-delivery) belong to the root's
// `solo-faults` project, run alone after every other suite.
export default defineConfig({
  test: { name: 'webhooks', testTimeout: 60_000, hookTimeout: 120_000, exclude: [...configDefaults.exclude, 'test/**/*.faults.test.ts'] },
});
