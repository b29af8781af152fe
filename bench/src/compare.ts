import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runLoad, type LoadOptions, type LoadResult } from './load.js';

export interface Comparison {
  name: string;
  baseline: { label: string; load: Omit<LoadOptions, 'connections' | 'durationSec'> };
  subject: { label: string; load: Omit<LoadOptions, 'connections' | 'durationSec'> };
  rounds?: number;
  durationSec?: number;
  connections?: number;
  warmupSec?: number;
}

/** One side over its rounds: the median round's rates (and load generator CPU), the totals of counts. */
export interface Summary extends LoadResult {
  name: string;
  label: string;
}

/** The middle value (the upper one of an even count); 0 for none. */
export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/** One side of a comparison over its rounds: the median round's rates, the totals of counts. */
export function summarize(name: string, label: string, runs: LoadResult[]): Summary {
  return {
    name,
    label,
    rps: Math.round(median(runs.map((r) => r.rps))),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    requests: runs.reduce((s, r) => s + r.requests, 0),
    errors: runs.reduce((s, r) => s + r.errors, 0),
    ...(runs.every((r) => r.loadgenCpuMs !== undefined) && { loadgenCpuMs: median(runs.map((r) => r.loadgenCpuMs!)) }),
  };
}

/** One side of a comparison: what it measures, and one run of it for so many seconds. */
export interface Side {
  label: string;
  run: (durationSec: number) => Promise<LoadResult>;
}

/**
 * Runs baseline and subject alternately (B S B S ...), after one warm-up run each, so machine
 * noise hits both alike: medians per side and the subject/baseline throughput ratio.
 */
export async function alternate(
  name: string,
  baseline: Side,
  subject: Side,
  o: { rounds: number; durationSec: number; warmupSec: number },
) {
  await baseline.run(o.warmupSec);
  await subject.run(o.warmupSec);
  const base: LoadResult[] = [];
  const subj: LoadResult[] = [];
  for (let i = 0; i < o.rounds; i++) {
    base.push(await baseline.run(o.durationSec));
    subj.push(await subject.run(o.durationSec));
  }
  const b = summarize(name, baseline.label, base);
  const s = summarize(name, subject.label, subj);
  return { baseline: b, subject: s, ratio: b.rps > 0 ? s.rps / b.rps : 0 };
}

/** alternate() over two HTTP loads, reported. */
export async function compare(c: Comparison) {
  const rounds = c.rounds ?? 3;
  const durationSec = c.durationSec ?? 5;
  const connections = c.connections ?? 16;
  const load = (side: Comparison['baseline']): Side => ({
    label: side.label,
    run: (sec) => runLoad({ ...side.load, connections, durationSec: sec }),
  });
  const result = await alternate(c.name, load(c.baseline), load(c.subject), { rounds, durationSec, warmupSec: c.warmupSec ?? 2 });
  report(c.name, [result.baseline, result.subject], result.ratio, { rounds, durationSec, connections });
  return result;
}

export function report(name: string, rows: Summary[], ratio: number, setup: Record<string, number>) {
  console.log(
    `\n== ${name} (${Object.entries(setup)
      .map(([k, v]) => `${k}=${v}`)
      .join(', ')})`,
  );
  console.log(
    `${'side'.padEnd(34)} ${'req/s'.padStart(9)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'requests'.padStart(9)} ${'errors'.padStart(7)} ${'loadgen CPU ms/req'.padStart(19)}`,
  );
  for (const r of rows) {
    const loadgen = r.loadgenCpuMs === undefined ? '' : r.loadgenCpuMs.toFixed(3);
    console.log(
      `${r.label.padEnd(34)} ${String(r.rps).padStart(9)} ${r.p50.toFixed(2).padStart(8)} ${r.p99.toFixed(2).padStart(8)} ${String(r.requests).padStart(9)} ${String(r.errors).padStart(7)} ${loadgen.padStart(19)}`,
    );
  }
  console.log(`ratio (subject/baseline req/s): ${ratio.toFixed(3)}`);
  const dir = join(process.cwd(), '..', '.local', 'bench');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.json`), JSON.stringify({ name, setup, rows, ratio, at: new Date().toISOString() }, null, 2));
}
