import type { LoadResult } from './load.js';

export const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;

/**
 * A closed loop like autocannon's, for baselines that are not HTTP (a driver call): `concurrency`
 * workers each run `op` back to back for `durationSec`; latencies in ms.
 */
export async function runLoop(o: { concurrency: number; durationSec: number; op: () => Promise<unknown> }): Promise<LoadResult> {
  const latencies: number[] = [];
  let errors = 0;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const until = started + o.durationSec * 1000;
  const worker = async () => {
    while (performance.now() < until) {
      const t = performance.now();
      try {
        await o.op();
        latencies.push(performance.now() - t);
      } catch {
        errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: o.concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  latencies.sort((a, b) => a - b);
  const requests = latencies.length;
  const loadgenCpuMs = requests > 0 ? (cpu.user + cpu.system) / 1000 / requests : 0;
  return { rps: requests / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), requests, errors, loadgenCpuMs };
}
