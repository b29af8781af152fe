import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const infrastructureModules = [
  '@grpc/*',
  'kafkajs',
  'mongodb',
  'minio',
  'ioredis',
  'fastify',
  '@fastify/*',
  'rate-limiter-flexible',
  'pino',
  '@feedback/proto',
  '@feedback/proto/*',
  '@feedback/kit-grpc',
  '@feedback/kit-kafka',
  '@feedback/kit-stores',
  '@feedback/kit-metrics',
  '@feedback/kit-limits',
  '@feedback/dev-stack',
  // What a process needs to run (its environment, logger, request context, shutdown, ports).
  '@feedback/kit-core/runtime',
  'close-with-grace',
  'zod',
  'node:async_hooks',
  'node:child_process',
  'node:worker_threads',
  'node:http',
  'node:net',
  'node:fs',
  'node:fs/promises',
];

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/.local/**', 'packages/proto/src/gen/**', '.turbo/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    // Domain code is plain TypeScript: rules only, its ports passed in. Adapters live elsewhere.
    files: ['**/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: infrastructureModules, message: 'domain/ must not import infrastructure; take a port as an argument instead.' },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: { globals: { console: 'readonly', process: 'readonly' } },
  },
);
