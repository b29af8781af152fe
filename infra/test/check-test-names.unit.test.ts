import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const REPO = resolve(import.meta.dirname, '../..');
const SCRIPT = join(REPO, 'scripts/check-test-names.mjs');

/** scripts/check-test-names.mjs over a tree of the given (empty) files: its finding lines and exit code. */
function check(paths: string[]) {
  const root = mkdtempSync(join(tmpdir(), 'test-names-'));
  for (const path of paths) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), '');
  }
  const run = spawnSync('node', [SCRIPT, root], { cwd: root, encoding: 'utf8' });
  return {
    files: run.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => l.split(':')[0]),
    rc: run.status,
  };
}

const TIERED = [
  'apps/a/test/link.repository.integration.test.ts',
  'apps/a/test/short-code.unit.test.ts',
  'apps/a/test/e2e/links.e2e.test.ts',
  'apps/a/test/start-serving.process.test.ts',
  'apps/a/test/faults/kafka.faults.test.ts',
  'apps/a/test/fuzz/schemathesis.fuzz.test.ts',
  'apps/a/src/domain/rules.unit.test.ts',
  'infra/test/prometheus/rules.test.yaml', // promtool's, not vitest's
  'apps/a/node_modules/dep/index.test.ts', // someone else's
];

describe('check-test-names', () => {
  it('passes a tree whose every test file names its tier', () => {
    expect(check(TIERED)).toEqual({ files: [], rc: 0 });
  });

  it('fails naming each test file without a tier, whatever role or folder it has', () => {
    const bad = [
      'apps/a/test/link.repository.test.ts',
      'apps/a/test/e2e/links.test.ts',
      'apps/a/test/faults/kafka.test.ts',
      'packages/k/test/unit.test.ts',
      'packages/k/test/errors.spec.ts',
      'infra/test/summary.test.mjs',
    ];
    expect(check([...TIERED, ...bad])).toEqual({ files: [...bad].sort(), rc: 1 });
  });
});
