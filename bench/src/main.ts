import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { activeSurveysBench } from './active-surveys.bench.js';
import { campaignReportBench } from './campaign-report.bench.js';
import { consolePagesBench } from './console-pages.bench.js';
import { flowDetailsBench } from './flow-details.bench.js';
import { linkStatsBench } from './link-stats.bench.js';
import { mongoLookupsBench } from './mongo-lookups.bench.js';
import { redirectsBench } from './redirects.bench.js';
import { shortenBench } from './shorten.bench.js';
import { smsSharingBench } from './sms-sharing.bench.js';
import { medianLine, type BenchOptions, type BenchResult } from './repeat.js';
import { writeSummary } from './summary.js';
import { uploadBench } from './upload.bench.js';
import { webhooksBench } from './webhooks.bench.js';

// `./stack bench [all|name...]`: runs the named benchmarks (default: all) against the running stack;
// a run of several writes one markdown table of them to .local/bench/summary.md.
// `--connections=N` (the benchmarks that compare against a bare server at a fixed concurrency;
// default 16) and `--repeat=N` (N whole comparisons, then the median ratio and p99: one run's
// ratio moves by ±0.05 on a shared machine).
const BENCHES: Record<string, (o: BenchOptions) => Promise<unknown>> = {
  'active-surveys': activeSurveysBench,
  'campaign-report': campaignReportBench,
  'console-pages': consolePagesBench,
  'flow-details': flowDetailsBench,
  'link-stats': linkStatsBench,
  'mongo-lookups': mongoLookupsBench,
  redirects: redirectsBench,
  shorten: shortenBench,
  'sms-sharing': smsSharingBench,
  upload: uploadBench,
  webhooks: webhooksBench,
};

const names = process.argv.slice(2).filter((a) => !a.startsWith('--') && a !== 'all');
const flag = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const durationSec = Number(process.env.BENCH_DURATION_SEC ?? 5);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const connections = flag('connections') === undefined ? undefined : Number(flag('connections'));
const repeat = Math.max(1, Number(flag('repeat') ?? 1));
const chosen = names.length ? names : Object.keys(BENCHES);
for (const name of chosen) if (!BENCHES[name]) throw new Error(`unknown benchmark ${name}; known: all, ${Object.keys(BENCHES).join(', ')}`);
const since = new Date();
const cpu: Record<string, Record<string, number>> = {};
for (const name of chosen) {
  const runs: BenchResult[] = [];
  for (let i = 0; i < repeat; i++) {
    if (repeat > 1) console.log(`\n# ${name}: run ${i + 1} of ${repeat}`);
    runs.push(((await BENCHES[name]!({ durationSec, rounds, connections })) ?? {}) as BenchResult);
  }
  const last = runs[runs.length - 1];
  if (last?.cpuPerRequestMs) cpu[name] = last.cpuPerRequestMs;
  if (repeat > 1) console.log(`\n${medianLine(name, runs)}`);
}
if (chosen.length > 1) {
  const dir = join(process.cwd(), '..', '.local', 'bench');
  mkdirSync(dir, { recursive: true });
  console.log(`\nsummary: ${writeSummary(dir, since, cpu)}`);
}
