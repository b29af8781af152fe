import autocannon from 'autocannon';
import { startBareServer } from './bare-server.js';
import { cpuSeconds } from './process-stats.js';
import { readFileSync } from 'node:fs';
const bare = await startBareServer({ status: 302, headers: { location: 'https://example.com/x', 'cache-control': 'private, no-store' }, body: '' });
await new Promise((r) => setTimeout(r, 500));
const pid = Number(readFileSync('/dev/stdin', 'utf8').trim() || 0);
const { execSync } = await import('node:child_process');
const childPid = Number(execSync(`pgrep -P ${process.pid} -f -- --serve`).toString().trim().split('\n')[0]);
for (const [label, url, p] of [['bare', bare.url, childPid], ['gateway', process.argv[2]!, pid]] as const) {
  const b = cpuSeconds(p); const t = Date.now();
  const r = await autocannon({ url, connections: 16, duration: 5 });
  const secs = (Date.now() - t) / 1000;
  console.log(label, Math.round(r.requests.average), 'rps', ((cpuSeconds(p) - b) / secs).toFixed(2), 'cores', (((cpuSeconds(p) - b) / r.requests.total) * 1e6).toFixed(1), 'us/req');
}
bare.stop();
