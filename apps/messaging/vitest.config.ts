import { defineConfig } from 'vitest/config';

// The Kannel tests start bearerbox, smsbox and fakesmsc when they are not running.
export default defineConfig({ test: { name: 'messaging', testTimeout: 60_000, hookTimeout: 120_000 } });
