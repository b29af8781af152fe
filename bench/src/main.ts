import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { activeSurveysBench } from './active-surveys.bench.js';
import { campaignReportBench } from './campaign-report.bench.js';
import { flowDetailsBench } from './flow-details.bench.js';
import { linkStatsBench } from './link-stats.bench.js';
import { mongoLookupsBench } from './mongo-lookups.bench.js';
import { redirectsBench } from './redirects.bench.js';
import { shortenBench } from './shorten.bench.js';
import { smsSharingBench } from './sms-sharing.bench.js';
import { writeSummary } from './summary.js';
import { uploadBench } from './upload.bench.js';
import { webhooksBench } from './webhooks.bench.js';

// `./stack bench [all|name...]`: runs the named benchmarks (default: all) against the running stack;
// a run of several writes one markdown table of them to .local/bench/summary.md.
const BENCHES: Record<string, (o: { durationSec: number; rounds: number }) => Promise<unknown>> = {
  'active-surveys': activeSurveysBench,
  'campaign-report': campaignReportBench,
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
const durationSec = Number(process.env.BENCH_DURATION_SEC ?? 5);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const chosen = names.length ? names : Object.keys(BENCHES);
for (const name of chosen) if (!BENCHES[name]) throw new Error(`unknown benchmark ${name}; known: all, ${Object.keys(BENCHES).join(', ')}`);
const since = new Date();
const cpu: Record<string, Record<string, number>> = {};
for (const name of chosen) {
  const result = (await BENCHES[name]!({ durationSec, rounds })) as { cpuPerRequestMs?: Record<string, number> } | undefined;
  if (result?.cpuPerRequestMs) cpu[name] = result.cpuPerRequestMs;
}
if (chosen.length > 1) {
  const dir = join(process.cwd(), '..', '.local', 'bench');
  mkdirSync(dir, { recursive: true });
  console.log(`\nsummary: ${writeSummary(dir, since, cpu)}`);
}
