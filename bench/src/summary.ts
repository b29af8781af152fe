import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Each benchmark's goal for its subject/baseline ratio (docs/performance.md has the measurements). */
const GOALS: [prefix: string, ratio: number][] = [
  ['flow-details', 0.25],
  ['redirects', 0.6],
  ['shorten', 0.6],
  ['active-surveys', 0.5],
  ['sms-sharing', 0.5],
  ['upload', 0.5],
];
const goalOf = (name: string) => GOALS.find(([prefix]) => name.startsWith(prefix))?.[1];

interface Row {
  label: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  loadgenCpuMs?: number;
}
interface Result {
  name: string;
  rows?: Row[];
  ratio?: number;
  at?: string;
}

const fmt = (n: number | undefined, digits = 0) => (n === undefined || Number.isNaN(n) ? '' : n.toFixed(digits));

/**
 * One markdown table of every result written to `dir` since `since` (each benchmark writes
 * `<name>.json`), with the CPU per request each benchmark measured for the processes on its path.
 */
export function writeSummary(dir: string, since: Date, cpu: Record<string, Record<string, number>>): string {
  const results = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as Result)
    .filter((r) => r.at && new Date(r.at) >= since)
    .sort((a, b) => a.name.localeCompare(b.name));
  const lines = [
    `# Benchmarks, ${new Date().toISOString()}`,
    '',
    '| benchmark | subject req/s | p50 ms | p99 ms | errors | baseline req/s | baseline p99 ms | ratio | goal | met | load generator CPU ms/req |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const r of results) {
    const [base, subj] = r.rows ?? [];
    const goal = goalOf(r.name);
    const met = goal === undefined || r.ratio === undefined ? '' : r.ratio >= goal ? 'yes' : 'no';
    lines.push(
      `| ${r.name} | ${fmt(subj?.rps)} | ${fmt(subj?.p50, 2)} | ${fmt(subj?.p99, 2)} | ${subj?.errors ?? ''} | ${fmt(base?.rps)} | ${fmt(base?.p99, 2)} | ${fmt(r.ratio, 3)} | ${goal ?? ''} | ${met} | ${fmt(subj?.loadgenCpuMs, 3)} |`,
    );
  }
  const cpuRows = Object.entries(cpu);
  if (cpuRows.length) {
    lines.push('', 'CPU per request of each process on the path (ms):', '');
    for (const [name, perProcess] of cpuRows) {
      lines.push(
        `- ${name}: ${Object.entries(perProcess)
          .map(([p, ms]) => `${p} ${ms.toFixed(3)}`)
          .join(', ')}`,
      );
    }
  }
  const file = join(dir, 'summary.md');
  writeFileSync(file, lines.join('\n') + '\n');
  return file;
}
