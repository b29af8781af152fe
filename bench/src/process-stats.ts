import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const TICKS_PER_SEC = 100; // Linux USER_HZ

/** The pid of a process started by infra/*.sh or infra/apps.sh (.local/run/<name>.pid holds "PID STARTTIME"), or given in BENCH_PIDS. */
export function pidOf(name: string, localDir = join(process.cwd(), '..', '.local')): number | undefined {
  // BENCH_PIDS="gateway=123,flow=456" names processes started by hand (bench/bundle.sh).
  const given = process.env.BENCH_PIDS?.split(',').find((p) => p.startsWith(`${name}=`));
  if (given) return Number(given.slice(name.length + 1));
  try {
    const pid = Number(
      readFileSync(join(localDir, 'run', `${name}.pid`), 'utf8')
        .trim()
        .split(/\s+/)[0],
    );
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** User + system CPU seconds a process has used so far. */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SEC; // utime, stime (fields 14, 15)
}

/** Resident memory in MiB. */
export function rssMiB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : 0;
}

/** Measures CPU used by named local processes across `fn`; returns ms of CPU per request. */
export async function cpuPerRequest<T extends { requests: number }>(names: string[], fn: () => Promise<T>) {
  const pids = names.map((n) => [n, pidOf(n)] as const).filter((p): p is readonly [string, number] => p[1] !== undefined);
  const before = pids.map(([, pid]) => cpuSeconds(pid));
  const result = await fn();
  const perRequest = Object.fromEntries(
    pids.map(([name, pid], i) => [name, result.requests > 0 ? ((cpuSeconds(pid) - before[i]!) * 1000) / result.requests : 0]),
  );
  return { result, perRequest };
}

/** "gateway 0.331 ms, flow 0.108 ms": CPU per request of each process, for the report line. */
export const formatCpuPerRequest = (perRequest: Record<string, number>): string =>
  Object.entries(perRequest)
    .map(([name, ms]) => `${name} ${ms.toFixed(3)} ms`)
    .join(', ');
