import { defineConfig } from 'vitest/config';

// Each test runs feedbackctl (node + tsx) several times against the stack.
export default defineConfig({ test: { name: 'cli', testTimeout: 60_000 } });
