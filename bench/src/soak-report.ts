import { percentile } from './driver-loop.js';
import type { Window } from './open-loop.js';

/** Resident memory (MiB) of each process at one moment, seconds since the open loop started. */
export interface RssSample {
  t: number;
  mib: Record<string, number | undefined>;
}

export interface SoakSetup {
  routes: { name: string; weight: number }[];
  max: { rps: number; p99: number; errors: number; connections: number; seconds: number };
  rate: number;
  durationSec: number;
  windowSec: number;
  warmupSec: number;
  processes: string[];
  /** Processes whose pid changed during the run (restarted by someone): their slope means little. */
  restarted: string[];
}

/** Sorted latencies of the windows, of one route or of all. */
const latenciesOf = (ws: Window[], route?: string) =>
  ws.flatMap((w) => (route ? (w.latencies[route] ?? []) : Object.values(w.latencies).flat())).sort((a, b) => a - b);
const add = (into: Record<string, number>, from: Record<string, number>) => {
  for (const [k, n] of Object.entries(from)) into[k] = (into[k] ?? 0) + n;
  return into;
};
const ms = (x: number) => x.toFixed(1);
const row = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
const table = (head: string[], rows: (string | number)[][]) => [row(head), row(head.map(() => '---')), ...rows.map(row)];

/** Least-squares slope of MiB over time, in MiB per hour; undefined with fewer than three points. */
export function slopePerHour(points: { t: number; y: number }[]): number | undefined {
  if (points.length < 3) return undefined;
  const mx = points.reduce((s, p) => s + p.t, 0) / points.length;
  const my = points.reduce((s, p) => s + p.y, 0) / points.length;
  const sxx = points.reduce((s, p) => s + (p.t - mx) ** 2, 0);
  const sxy = points.reduce((s, p) => s + (p.t - mx) * (p.y - my), 0);
  return sxx > 0 ? (sxy / sxx) * 3600 : undefined;
}

/** The window's line while the soak runs. */
export function windowLine(w: Window, rss: RssSample): string {
  const lat = latenciesOf([w]);
  const top = Object.entries(rss.mib)
    .map(([name, mib]) => `${name} ${mib === undefined ? '-' : mib.toFixed(0)}`)
    .join(' ');
  return (
    `${String(Math.round(w.to)).padStart(5)} s  ${(lat.length / (w.to - w.from)).toFixed(0).padStart(5)} req/s  ` +
    `p50 ${ms(percentile(lat, 50)).padStart(6)}  p99 ${ms(percentile(lat, 99)).padStart(7)} ms  errors ${w.errors}  RSS MiB: ${top}`
  );
}

/** The soak's report in markdown: the setup, a summary with the verdicts, then every window. */
export function soakReport(s: SoakSetup, windows: Window[], rss: RssSample[]): { markdown: string; errors: number } {
  const all = latenciesOf(windows);
  const statuses = windows.reduce((acc, w) => add(acc, w.statuses), {} as Record<string, number>);
  const errors = windows.reduce((n, w) => n + w.errors, 0);
  const errorStatuses = Object.entries(statuses).filter(([k]) => !/^[23]\d\d$/.test(k));
  const seconds = windows.length ? windows[windows.length - 1]!.to : 0;
  const thirds = [0, 1, 2].map((i) =>
    latenciesOf(windows.slice(Math.round((i * windows.length) / 3), Math.round(((i + 1) * windows.length) / 3))),
  );
  const p99s = thirds.map((l) => percentile(l, 99));
  const after = rss.filter((r) => r.t >= s.warmupSec);
  const totalWeight = s.routes.reduce((n, r) => n + r.weight, 0);
  const share = (weight: number) => ((weight * 100) / totalWeight).toFixed(0);

  const lines = [
    `# Soak, ${new Date().toISOString()}`,
    '',
    `Mix: ${s.routes.map((r) => `${r.name} ${share(r.weight)}%`).join(', ')}.`,
    `Maximum of the mix, closed loop (${s.max.connections} connections, ${s.max.seconds} s): ${s.max.rps.toFixed(0)} req/s, ` +
      `p99 ${ms(s.max.p99)} ms, ${s.max.errors} errors.`,
    `Open loop at ${s.rate} req/s for ${s.durationSec} s (latency from each request's scheduled start): ` +
      `${all.length} answers, ${(all.length / seconds).toFixed(0)} req/s.`,
    '',
    '## Summary',
    '',
    `- Errors: **${errors}** (goal 0)${errorStatuses.length ? `: ${errorStatuses.map(([k, n]) => `${k} × ${n}`).join(', ')}` : ''}.`,
    `- Latency by third of the run (p50 / p99 ms): ${thirds.map((l) => `${ms(percentile(l, 50))} / ${ms(percentile(l, 99))}`).join(', ')}; ` +
      `p99 last/first third ${p99s[0]! > 0 ? (p99s[2]! / p99s[0]!).toFixed(2) : '-'}.`,
    `- Resident memory slope, least squares over the samples from ${s.warmupSec} s on (after warm-up), MiB/hour:`,
    '',
    ...table(
      ['process', `MiB at ${s.warmupSec} s`, 'MiB at end', 'slope MiB/h'],
      s.processes
        .filter((p) => after.some((r) => r.mib[p] !== undefined))
        .map((p) => {
          const points = after.flatMap((r) => (r.mib[p] === undefined ? [] : [{ t: r.t, y: r.mib[p]! }]));
          const slope = slopePerHour(points);
          const note = s.restarted.includes(p) ? ' (restarted during the run)' : '';
          return [p + note, points[0]!.y.toFixed(1), points[points.length - 1]!.y.toFixed(1), slope === undefined ? '-' : slope.toFixed(1)];
        }),
    ),
    '',
    '## By route',
    '',
    ...table(
      ['route', 'weight %', 'answers', 'p50 ms', 'p99 ms', 'max ms'],
      s.routes.map((r) => {
        const l = latenciesOf(windows, r.name);
        return [r.name, share(r.weight), l.length, ms(percentile(l, 50)), ms(percentile(l, 99)), ms(l[l.length - 1] ?? 0)];
      }),
    ),
    '',
    `Statuses: ${Object.entries(statuses)
      .map(([k, n]) => `${k} × ${n}`)
      .join(', ')}.`,
    '',
    `## Every ${s.windowSec} s`,
    '',
    ...table(
      ['until s', 'sent', 'req/s', 'p50 ms', 'p99 ms', 'max ms', 'errors', 'late start ms'],
      windows.map((w) => {
        const l = latenciesOf([w]);
        return [
          Math.round(w.to),
          w.issued,
          (l.length / (w.to - w.from)).toFixed(0),
          ms(percentile(l, 50)),
          ms(percentile(l, 99)),
          ms(l[l.length - 1] ?? 0),
          w.errors,
          ms(w.maxLagMs),
        ];
      }),
    ),
    '',
    'Resident memory (MiB):',
    '',
    ...table(
      ['s', ...s.processes],
      rss.map((r) => [Math.round(r.t), ...s.processes.map((p) => r.mib[p]?.toFixed(1) ?? '-')]),
    ),
  ];
  return { markdown: lines.join('\n') + '\n', errors };
}
