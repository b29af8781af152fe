import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const REPO = resolve(import.meta.dirname, '../..');
const SCRIPT = join(REPO, 'scripts/check-references.mjs');

/** scripts/check-references.mjs over ROOT (run from ROOT): its finding lines and exit code. */
function check(root: string) {
  const run = spawnSync('node', [SCRIPT, root], { cwd: root, encoding: 'utf8' });
  return { lines: run.stdout.split('\n').filter(Boolean), rc: run.status };
}

/** A tree of the given files (not a git repository: the script walks it). */
function tree(files: Record<string, string>) {
  const root = mkdtempSync(join(tmpdir(), 'refs-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

/** Files that name only what exists, in the shapes the rule must leave alone. */
const CLEAN = {
  'docs/guide.md': [
    '# Guide',
    'See [errors](errors.md), [the app](../apps/a/README.md#setup), [home](https://example.com/issue/12),',
    '`apps/a/src/main.ts`, apps/*/src/domain and `apps/${app}/README.md`; README.md; 525 docs/s.',
    'HTTP 404 issues no body; RFC 9110; it issued 3 tokens.',
    '`kubectl -n x exec deploy/feedback-gateway -- feedbackctl seed`',
  ].join('\n'),
  'docs/errors.md': '# Errors\n',
  'apps/a/README.md': '# A\n',
  'apps/a/src/main.ts': [
    "const issues = 'issue 12 and docs/missing.md in a string are not prose';",
    'const re = /\\/\\/ issue 7/; // a regular expression literal is code too',
    '// docs/errors.md exists',
    'export { issues, re };',
  ].join('\n'),
  'infra/run.sh': '#!/bin/sh\n# infra/run.sh says what it does\necho "$#"\n',
};

describe('the reference check (./stack test checks)', () => {
  it('passes on the repository', () => {
    expect(check(REPO)).toEqual({ lines: [], rc: 0 });
  });

  it('passes on a tree whose prose names only what exists', () => {
    expect(check(tree(CLEAN))).toEqual({ lines: [], rc: 0 });
  });

  it('fails on a comment or a document citing an issue number', () => {
    const root = tree({
      ...CLEAN,
      'apps/a/src/cache.ts': '/**\n * Cached for a minute (issue\n * 12).\n */\nexport const TTL = 60_000;\n',
      'infra/run.sh': '#!/bin/sh\n# the retry from issue #9\necho ok\n',
      'docs/errors.md': '# Errors\nCodes 13xxx (issues 10-13).\n',
    });
    const { lines, rc } = check(root);
    expect({ lines: lines.sort(), rc }).toEqual({
      lines: [
        'apps/a/src/cache.ts:2: cites an issue number: "issue * 12"',
        'docs/errors.md:2: cites an issue number: "issues 10"',
        'infra/run.sh:2: cites an issue number: "issue #9"',
        '3 reference(s) to an issue or to a file the repository does not have',
      ].sort(),
      rc: 1,
    });
  });

  it('fails on a link, a path or a document name the tree does not have', () => {
    const root = tree({
      ...CLEAN,
      'docs/guide.md': '# Guide\nSee [errors](./error.md), `apps/a/src/domain/rules.ts` and DESIGN.md section 3.\n',
      'apps/a/src/main.ts': '// The rule lives in packages/kit/src/rules.ts.\nexport const x = 1;\n',
    });
    const { lines, rc } = check(root);
    expect({ lines: lines.sort(), rc }).toEqual({
      lines: [
        '4 reference(s) to an issue or to a file the repository does not have',
        'apps/a/src/main.ts:1: names packages/kit/src/rules.ts, which the repository does not have',
        'docs/guide.md:2: names DESIGN.md, which the repository does not have',
        'docs/guide.md:2: names apps/a/src/domain/rules.ts, which the repository does not have',
        'docs/guide.md:2: names the link ./error.md, which does not exist',
      ],
      rc: 1,
    });
  });
});
