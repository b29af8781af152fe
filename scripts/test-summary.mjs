// Prints the one closing line CI reads, "N passed, N failed[, N skipped]", from vitest's JSON
// report, and exits non-zero when a test failed, a check failed, or vitest itself broke.
import { readFileSync } from 'node:fs';

const [file, checksFailed = '0', vitestRc = '0'] = process.argv.slice(2);
let report;
try {
  report = JSON.parse(readFileSync(file, 'utf8'));
} catch {
  console.error(`test-summary: no vitest report at ${file} (vitest exit code ${vitestRc})`);
  console.log('0 passed, 1 failed');
  process.exit(1);
}
const passed = report.numPassedTests ?? 0;
// A suite that fails to load has no tests to count; count it as one failure so it is seen.
const brokenSuites = (report.testResults ?? []).filter(
  (s) => s.status === 'failed' && (s.assertionResults ?? []).length === 0,
).length;
const failed = (report.numFailedTests ?? 0) + brokenSuites + (checksFailed === '1' ? 1 : 0);
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
if (checksFailed === '1') console.error('test-summary: a check (proto, typecheck or lint) failed; counted as one failure');
if (brokenSuites) console.error(`test-summary: ${brokenSuites} test file(s) failed to run`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || (vitestRc !== '0' && passed === 0) ? 1 : 0);
