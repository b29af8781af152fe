// node bench/src/profile-top.mjs DIR : the top frames by self time of each .cpuprofile in DIR
// (written by node --cpu-prof; DIR/pids.txt names the process of each pid). Used by bench/profile.sh.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2];
const TOP = Number(process.env.PROFILE_TOP ?? 25);
const names = new Map(
  readFileSync(join(dir, 'pids.txt'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => l.split(' ')),
);
// window.txt (bench/profile.sh): start and end of the benchmark in µs of the profiles' clock.
const window = existsSync(join(dir, 'window.txt'))
  ? readFileSync(join(dir, 'window.txt'), 'utf8').trim().split(/\s+/).map(Number)
  : undefined;
const out = [];
// CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile: thread 0 is the main thread; others are worker
// threads (the gateway's link listener, tsx's loader); one idle in the window is left out.
for (const file of readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'))) {
  const [pid, thread] = file.split('.').slice(3, 5);
  const profile = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  const interval = (profile.endTime - profile.startTime) / Math.max(1, profile.samples.length); // µs per sample
  const [from, to] = window ?? [profile.startTime, profile.endTime];
  // Hits per node inside the window (node.hitCount counts the whole life of the process).
  const hits = new Map();
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i];
    if (t >= from && t <= to) hits.set(profile.samples[i], (hits.get(profile.samples[i]) ?? 0) + 1);
  }
  const self = new Map();
  let total = 0;
  for (const node of profile.nodes) {
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url
      ? `${url.replace(/^.*\/node_modules\/(\.pnpm\/[^/]+\/node_modules\/)?/, '').replace(/^file:\/\/.*\/(apps|packages)\//, '$1/')}:${lineNumber + 1}`
      : '';
    const key = `${functionName || '(anonymous)'} ${where}`.trim();
    const n = hits.get(node.id) ?? 0;
    self.set(key, (self.get(key) ?? 0) + n);
    total += n;
  }
  const idle = ['(idle)', '(program)'].reduce((s, k) => s + (self.get(k) ?? 0), 0);
  const span = Math.min(to, profile.endTime) - Math.max(from, profile.startTime);
  const busyMs = ((total - idle) * interval) / 1000;
  if (thread !== '0' && busyMs < 100) continue;
  out.push(
    `## ${names.get(pid) ?? 'pid ' + pid}${thread === '0' ? '' : `, thread ${thread}`} (${busyMs.toFixed(0)} ms busy of ${(span / 1000).toFixed(0)} ms${window ? ' of the benchmark' : ''})`,
    '',
  );
  out.push('| self % of busy | frame |', '|---|---|');
  for (const [key, hits] of [...self]
    .filter(([k]) => k !== '(idle)')
    .sort((a, b) => b[1] - a[1])
    .slice(0, TOP)) {
    out.push(`| ${((100 * hits) / Math.max(1, total - idle)).toFixed(1)} | \`${key}\` |`);
  }
  out.push('');
}
writeFileSync(join(dir, 'top.md'), out.join('\n'));
console.log(out.join('\n'));
console.log(`(written to ${join(dir, 'top.md')})`);
