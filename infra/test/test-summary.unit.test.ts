import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SCRIPT = resolve(import.meta.dirname, '../../scripts/test-summary.mjs');

/** The closing line and exit code of scripts/test-summary.mjs over one vitest JSON report. */
function summarize(report: unknown, checksFailed = '0', vitestRc = '1') {
  const file = join(mkdtempSync(join(tmpdir(), 'summary-')), 'report.json');
  writeFileSync(file, JSON.stringify(report));
  const run = spawnSync('node', [SCRIPT, file, checksFailed, vitestRc], { encoding: 'utf8' });
  return { line: run.stdout.trim(), rc: run.status };
}

const file = (status: string, ...assertions: string[]) => ({ status, assertionResults: assertions.map((s) => ({ status: s })) });

describe('the closing line of ./stack test', () => {
  it('counts passed and failed tests, and exits 0 only when nothing failed', () => {
    expect(summarize({ numPassedTests: 3, numFailedTests: 0, testResults: [file('passed', 'passed')] }, '0', '0')).toEqual({
      line: '3 passed, 0 failed',
      rc: 0,
    });
    expect(summarize({ numPassedTests: 3, numFailedTests: 1, testResults: [file('failed', 'passed', 'failed')] })).toEqual({
      line: '3 passed, 1 failed',
      rc: 1,
    });
  });

  it('counts a file whose hook threw (its tests reported skipped) as a failure, not as skipped tests only', () => {
    const report = { numPassedTests: 5, numFailedTests: 0, numPendingTests: 2, testResults: [file('failed', 'skipped', 'skipped')] };
    expect(summarize(report)).toEqual({ line: '5 passed, 1 failed, 2 skipped', rc: 1 });
  });

  it('counts a file that did not load, a failed check and a missing report', () => {
    expect(summarize({ numPassedTests: 5, numFailedTests: 0, testResults: [file('failed')] }, '1')).toEqual({
      line: '5 passed, 2 failed',
      rc: 1,
    });
    const run = spawnSync('node', [SCRIPT, '/nonexistent/report.json', '0', '1'], { encoding: 'utf8' });
    expect([run.stdout.trim(), run.status]).toEqual(['0 passed, 1 failed', 1]);
  });
});
