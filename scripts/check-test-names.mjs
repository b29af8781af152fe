#!/usr/bin/env node
// Fails naming every test file whose name does not end in one of the six tiers: the tier decides
// where and how a test runs (the root vitest.config.ts runs *.faults and *.fuzz alone, after the
// rest), so a file without one would run in the wrong pass or be missed. The scheme: docs/testing.md.
//
//   node scripts/check-test-names.mjs [ROOT]   ROOT defaults to the repository; exit 1 on a finding
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { listFiles } from './repo-files.mjs';

export const TIERS = ['unit', 'integration', 'e2e', 'process', 'faults', 'fuzz'];
const TEST_FILE = /\.(?:test|spec)\.[cm]?[jt]sx?$/;
const TIERED = new RegExp(`\\.(?:${TIERS.join('|')})\\.test\\.ts$`);

export function untiered(files) {
  return files.filter((f) => TEST_FILE.test(f) && !TIERED.test(f)).sort();
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(process.argv[2] ?? join(fileURLToPath(import.meta.url), '../..'));
  const found = untiered(listFiles(root));
  for (const f of found)
    console.log(`${f}: a test file's name ends in .<tier>.test.ts, the tier one of ${TIERS.join(', ')} (docs/testing.md)`);
  if (found.length > 0) {
    console.error(`check-test-names: ${found.length} test file(s) without a tier suffix`);
    process.exit(1);
  }
}
