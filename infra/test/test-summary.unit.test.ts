import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
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

describe("./stack test's table of times", () => {
  it('prints each timed part (start into the run, seconds, a failed exit code) before the closing line, which stays last', () => {
    const dir = mkdtempSync(join(tmpdir(), 'summary-'));
    const report = join(dir, 'report.json');
    writeFileSync(report, JSON.stringify({ numPassedTests: 2, numFailedTests: 0, testResults: [file('passed', 'passed', 'passed')] }));
    const timings = join(dir, 'timings.tsv');
    writeFileSync(timings, ['tests: main\t1100.5\t1400.5\t0', 'whole run\t1000\t1500\t0', 'check: types\t1010\t1090.25\t2', ''].join('\n'));
    const run = spawnSync('node', [SCRIPT, report, '0', '0', timings], { encoding: 'utf8' });
    const lines = run.stdout.trim().split('\n');
    expect(lines.slice(2).map((l) => l.trim().split(/\s{2,}/))).toEqual([
      ['0:00', '500.0', 'whole run'],
      ['0:10', '80.3', 'check: types (exit code 2)'],
      ['1:40', '300.0', 'tests: main'],
      ['2 passed, 0 failed'],
    ]);
    expect(run.status).toBe(0);
  });

  it('infra/lib.sh timed and in_background record each part with its exit code; background_wait returns the job’s', () => {
    const dir = mkdtempSync(join(tmpdir(), 'timed-'));
    const lib = resolve(import.meta.dirname, '../lib.sh');
    const script = `source "$1"; timed ok true; timed broken false || echo "broken: $?"
      in_background "side job" bash -c 'exit 3'; background_wait "side job" 2>/dev/null || echo "side job: $?"`;
    const run = spawnSync('bash', ['-c', script, 'bash', lib], {
      encoding: 'utf8',
      env: { ...process.env, TIMINGS_FILE: join(dir, 't.tsv'), FEEDBACK_LOCAL_DIR: dir },
    });
    expect(run.stdout.trim().split('\n')).toEqual(['broken: 1', 'side job: 3']);
    const rows = readFileSync(join(dir, 't.tsv'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => l.split('\t'));
    expect(rows.map(([name, , , rc]) => [name, rc])).toEqual([
      ['ok', '0'],
      ['broken', '1'],
      ['side job', '3'],
    ]);
    for (const [, start, end] of rows) expect(Number(end)).toBeGreaterThanOrEqual(Number(start));
  });
});
