import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readStackFile } from '@feedback/dev-stack';
import { runLoop } from './driver-loop.js';
import { runOpenLoop } from './open-loop.js';
import { pidOf, rssMiB } from './process-stats.js';
import { soakFixture } from './soak-fixture.js';
import { isError, mixClient, parseWeights, soakRoutes } from './soak-mix.js';
import { soakReport, windowLine, type RssSample } from './soak-report.js';

/*
 * `./stack soak` (docs/reliability.md "Soak"): the maximum rate of a mix of public
 * routes, measured briefly in a closed loop, then half of it in an open loop for SOAK_SECONDS,
 * sampling every process's resident memory and the window's latency every SOAK_WINDOW_SECONDS.
 * Writes .local/bench/soak.md; exits 1 if any request failed. Not in CI: it takes 11 minutes.
 */
const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const SECONDS = num('SOAK_SECONDS', 600);
const WINDOW_SECONDS = num('SOAK_WINDOW_SECONDS', 30);
const WARMUP_SECONDS = num('SOAK_WARMUP_SECONDS', 60);
const MAX_SECONDS = num('SOAK_MAX_SECONDS', 20);
const CONNECTIONS = num('SOAK_CONNECTIONS', 16);
const CUSTOMERS = num('SOAK_CUSTOMERS', 50);
const LOADGEN = 'soak (load generator)';
/** Started by ./stack up with pid files in .local/run (infra/*.sh, infra/apps.sh). */
const PROCESSES = ['gateway', 'flow', 'file', 'shortener', 'survey', 'messaging', 'mongo', 'kafka', 'redis', 's3'];

const stack = readStackFile();
// Taken before anything else, so a process restarted by someone during the run is told apart.
const pids = new Map(PROCESSES.map((p) => [p, pidOf(p)]));
console.log(`creating the fixtures through the API (an account, a flow, a node, a link channel, ${CUSTOMERS} customers, short links)`);
const weights = parseWeights(process.env.SOAK_WEIGHTS);
const fixture = await soakFixture(stack, CUSTOMERS, (weights.active ?? 1) > 0);
const routes = soakRoutes(fixture, weights);
const client = mixClient({ apiUrl: stack.base_url!, linkUrl: stack.shortener_url!, routes, maxSockets: 64 });

// The maximum: CONNECTIONS requests always in flight, after a few seconds of warming up.
const maxStatuses: Record<string, number> = {};
const closedLoopOp = async () => {
  const { status } = await client.next();
  maxStatuses[status] = (maxStatuses[status] ?? 0) + 1;
  if (isError(status)) throw new Error(String(status));
};
await runLoop({ concurrency: CONNECTIONS, durationSec: 5, op: closedLoopOp });
for (const k of Object.keys(maxStatuses)) delete maxStatuses[k];
const max = await runLoop({ concurrency: CONNECTIONS, durationSec: MAX_SECONDS, op: closedLoopOp });
const rate = num('SOAK_RATE', Math.max(1, Math.round(max.rps / 2)));
console.log(
  `maximum of the mix (closed loop, ${CONNECTIONS} connections, ${MAX_SECONDS} s): ${max.rps.toFixed(0)} req/s, p99 ${max.p99.toFixed(1)} ms, ` +
    `${max.errors} errors (${JSON.stringify(maxStatuses)}); soaking at ${rate} req/s for ${SECONDS} s`,
);
// Half of a maximum the stack did not serve means nothing (a restart under way, a stalled database).
if (max.errors > max.requests) {
  console.error('soak: more requests failed than succeeded at the maximum; is the stack healthy (./stack status, .local/logs)?');
  process.exit(1);
}
await new Promise((r) => setTimeout(r, 5_000)); // let what the burst queued (clicks, writes) settle

const missing = PROCESSES.filter((p) => pids.get(p) === undefined);
if (missing.length) console.log(`no pid file for ${missing.join(', ')}: their memory is not sampled`);
const restarted = new Set<string>();
const sample = (t: number): RssSample => {
  const mib: RssSample['mib'] = {};
  for (const p of PROCESSES) {
    const pid = pidOf(p);
    if (pid !== pids.get(p) && !restarted.has(p)) {
      console.log(`${p} was restarted during the soak (pid ${pids.get(p)} → ${pid}): its memory slope means little`);
      restarted.add(p);
    }
    try {
      mib[p] = pid === undefined ? undefined : rssMiB(pid);
    } catch {
      mib[p] = undefined; // gone
    }
  }
  mib[LOADGEN] = process.memoryUsage().rss / 1024 / 1024;
  return { t, mib };
};
const rss: RssSample[] = [sample(0)];
const windows = await runOpenLoop({
  rate,
  durationSec: SECONDS,
  windowSec: WINDOW_SECONDS,
  maxInFlight: num('SOAK_MAX_IN_FLIGHT', 2_000),
  op: client.next,
  onWindow: (w) => {
    rss.push(sample(w.to));
    console.log(windowLine(w, rss[rss.length - 1]!));
  },
});
client.close();

const { markdown, errors } = soakReport(
  {
    routes: routes.map(({ name, weight }) => ({ name, weight })),
    max: { rps: max.rps, p99: max.p99, errors: max.errors, connections: CONNECTIONS, seconds: MAX_SECONDS },
    rate,
    durationSec: SECONDS,
    windowSec: WINDOW_SECONDS,
    warmupSec: WARMUP_SECONDS,
    processes: [...PROCESSES.filter((p) => !missing.includes(p)), LOADGEN],
    restarted: [...restarted],
  },
  windows,
  rss,
);
const dir = join(process.cwd(), '..', '.local', 'bench');
mkdirSync(dir, { recursive: true });
writeFileSync(join(dir, 'soak.md'), markdown);
console.log(`\n${markdown}\nwritten to ${join(dir, 'soak.md')}`);
if (errors > 0) {
  console.error(`soak: ${errors} requests failed (goal 0)`);
  process.exitCode = 1;
}
