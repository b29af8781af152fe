#!/usr/bin/env node
// Fails naming every test file whose name does not end in one of the six tiers: the tier decides
// where and how a test runs (the root vitest.config.ts runs *.faults and *.fuzz alone, after the
// rest), so a file without one would run in the wrong pass or be missed. The scheme: docs/testing.md.
//
//   node scripts/check-test-names.mjs [ROOT]   ROOT defaults to the repository; exit 1 on a finding
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const TIERS = ['unit', 'integration', 'e2e', 'process', 'faults', 'fuzz'];
const TEST_FILE = /\.(?:test|spec)\.[cm]?[jt]sx?$/;
const TIERED = new RegExp(`\\.(?:${TIERS.join('|')})\\.test\\.ts$`);
const SKIPPED_DIRS = new Set(['node_modules', '.git', '.local', 'dist', '.turbo']);

/** The files to read: git's (tracked and untracked, not ignored), else a walk of the folder. */
function listFiles(root) {
  try {
    const top = execFileSync('git', ['rev-parse', '--show-toplevel'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    if (resolve(top.trim()) === resolve(root)) {
      const out = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--deduplicate'], {
        cwd: root,
        encoding: 'utf8',
      });
      return out.split('\0').filter(Boolean);
    }
  } catch {
    // not a repository: walk it
  }
  const files = [];
  const walk = (dir) => {
    for (const e of readdirSync(join(root, dir), { withFileTypes: true })) {
      const rel = dir ? `${dir}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (!SKIPPED_DIRS.has(e.name)) walk(rel);
      } else if (e.isFile()) files.push(rel);
    }
  };
  walk('');
  return files;
}

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
