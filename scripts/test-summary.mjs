// Prints the one closing line CI reads, "N passed, N failed[, N skipped]", from vitest's JSON
// report, and exits non-zero when a test failed, a check failed, or vitest itself broke.
import { readFileSync } from 'node:fs';

// FILES: one vitest JSON report, or several separated by commas (e.g. runs of separate vitest
// projects); their counts are added up.
const [files, checksFailed = '0', vitestRc = '0'] = process.argv.slice(2);
const reports = [];
let missing = 0;
for (const file of files.split(',')) {
  try {
    reports.push(JSON.parse(readFileSync(file, 'utf8')));
  } catch {
    // A run that left no report broke before counting: one failure, so that it is seen.
    console.error(`test-summary: no vitest report at ${file} (vitest exit code ${vitestRc})`);
    missing += 1;
  }
}
const sum = (f) => reports.reduce((n, r) => n + f(r), 0);
const passed = sum((r) => r.numPassedTests ?? 0);
// A file that failed with no failed test in it (it did not load, or a beforeAll/afterAll hook threw and
// its tests were reported as skipped) counts as one failure, so that it is seen.
const brokenSuites = sum(
  (r) =>
    (r.testResults ?? []).filter((s) => s.status === 'failed' && !(s.assertionResults ?? []).some((a) => a.status === 'failed')).length,
);
const failed = sum((r) => r.numFailedTests ?? 0) + brokenSuites + missing + (checksFailed === '1' ? 1 : 0);
const skipped = sum((r) => (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0));
if (checksFailed === '1') console.error('test-summary: a check (proto, typecheck or lint) failed; counted as one failure');
if (brokenSuites) console.error(`test-summary: ${brokenSuites} test file(s) failed outside their tests (loading or a hook)`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || (vitestRc !== '0' && passed === 0) ? 1 : 0);
