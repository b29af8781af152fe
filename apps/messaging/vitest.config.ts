import { configDefaults, defineConfig } from 'vitest/config';

// The Kannel tests start bearerbox, smsbox and fakesmsc when they are not running.
// *.faults.test.ts (dispatchers killed or cut off) belong to the root's `solo-faults` project,
// run alone after every other suite: they load the machine and make network namespaces.
export default defineConfig({
  test: { name: 'messaging', testTimeout: 60_000, hookTimeout: 120_000, exclude: [...configDefaults.exclude, 'test/**/*.faults.test.ts'] },
});
