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

export interface Summary {
  name: string;
  label: string;
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  errors: number;
  /** The load generator's own CPU per request (ms), median round. */
  loadgenCpuMs?: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

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

/**
 * Runs baseline and subject alternately (B S B S ...) so machine noise hits both alike, and
 * reports medians per side and the subject/baseline throughput ratio.
 */
export async function compare(c: Comparison) {
  const rounds = c.rounds ?? 3;
  const durationSec = c.durationSec ?? 5;
  const connections = c.connections ?? 16;
  const warm = c.warmupSec ?? 2;
  await runLoad({ ...c.baseline.load, connections, durationSec: warm });
  await runLoad({ ...c.subject.load, connections, durationSec: warm });
  const base: LoadResult[] = [];
  const subj: LoadResult[] = [];
  for (let i = 0; i < rounds; i++) {
    base.push(await runLoad({ ...c.baseline.load, connections, durationSec }));
    subj.push(await runLoad({ ...c.subject.load, connections, durationSec }));
  }
  const b = summarize(c.name, c.baseline.label, base);
  const s = summarize(c.name, c.subject.label, subj);
  const ratio = b.rps > 0 ? s.rps / b.rps : 0;
  report(c.name, [b, s], ratio, { rounds, durationSec, connections });
  return { baseline: b, subject: s, ratio };
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
