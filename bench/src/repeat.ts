import { median } from './compare.js';

/** What every benchmark is given (bench/src/main.ts). */
export interface BenchOptions {
  durationSec: number;
  rounds: number;
  /** Concurrent connections, for the benchmarks that take it (`--connections=N`); each has its default. */
  connections?: number;
}

/** What a comparing benchmark answers (compare.ts's alternate() and more). */
export interface BenchResult {
  ratio?: number;
  subject?: { rps: number; p50: number; p99: number; errors: number };
  baseline?: { rps: number };
  cpuPerRequestMs?: Record<string, number>;
}

/** `--repeat=N`'s summary: the median of N whole comparisons, and each of them. */
export function medianLine(name: string, runs: BenchResult[]): string {
  const compared = runs.filter((r) => r.ratio !== undefined && r.subject);
  if (compared.length === 0) return `${name}: ${runs.length} runs (no ratio to take the median of)`;
  const ratios = compared.map((r) => r.ratio!);
  const p99s = compared.map((r) => r.subject!.p99);
  const errors = compared.reduce((sum, r) => sum + r.subject!.errors, 0);
  return (
    `${name}, median of ${compared.length} runs: ratio ${median(ratios).toFixed(3)} (${ratios.map((r) => r.toFixed(3)).join(', ')}), ` +
    `subject p99 ${median(p99s).toFixed(2)} ms (${p99s.map((p) => p.toFixed(2)).join(', ')}), ` +
    `subject req/s ${Math.round(median(compared.map((r) => r.subject!.rps)))}, baseline req/s ${Math.round(median(compared.map((r) => r.baseline?.rps ?? 0)))}, ` +
    `${errors} errors`
  );
}
