// Prints the one closing line CI reads, "N passed, N failed[, N skipped]", from vitest's JSON
// report, and exits non-zero when a test failed, a check failed, or vitest itself broke.
import { readFileSync } from 'node:fs';

// FILES: one vitest JSON report, or several separated by commas (e.g. runs of separate vitest
// projects); their counts are added up. TIMINGS (optional): ./stack test's parts, one
// "name<TAB>start<TAB>end<TAB>exit code" line each (infra/lib.sh timed), printed as a table first.
const [files, checksFailed = '0', vitestRc = '0', timingsFile] = process.argv.slice(2);
if (timingsFile) printTimings(timingsFile);
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

/** Where the run's time went: when each part started (from the run's start), how long it took. */
function printTimings(file) {
  let lines;
  try {
    lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
  } catch {
    return;
  }
  const parts = lines
    .map((l) => l.split('\t'))
    .map(([name, start, end, rc]) => ({ name, start: Number(start), seconds: Number(end) - Number(start), rc }))
    .sort((a, b) => a.start - b.start);
  if (parts.length === 0) return;
  const t0 = parts[0].start;
  const clock = (s) => `${Math.floor(s / 60)}:${String(Math.floor(s % 60)).padStart(2, '0')}`;
  console.log('Time per part (start is minutes:seconds into the run; parts overlap where run side by side):');
  console.log(`  ${'start'.padStart(6)}  ${'seconds'.padStart(8)}  part`);
  for (const p of parts)
    console.log(
      `  ${clock(p.start - t0).padStart(6)}  ${p.seconds.toFixed(1).padStart(8)}  ${p.name}${p.rc === '0' ? '' : ` (exit code ${p.rc})`}`,
    );
}
