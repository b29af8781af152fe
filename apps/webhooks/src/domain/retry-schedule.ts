/** Delays after the 1st, 2nd, ... failed attempt (docs/api.md "Webhooks"); after the last, the delivery fails. */
export const DEFAULT_RETRY_SCHEDULE_MS = [5, 30, 120, 600, 1_800, 7_200, 21_600, 43_200, 86_400].map((s) => s * 1000);

/** Parses `5s,30s,2m,10m,1h,1d` (a bare number is seconds); throws naming the bad step. */
export function parseRetrySchedule(text: string): number[] {
  const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, '': 1000 };
  const steps = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (steps.length === 0) throw new Error('must list at least one delay, e.g. 5s,30s,2m');
  return steps.map((step) => {
    const m = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/.exec(step);
    if (!m) throw new Error(`"${step}" is not a delay like 5s, 2m, 1h`);
    const ms = Math.round(Number(m[1]) * units[m[2] ?? '']!);
    if (ms <= 0) throw new Error(`"${step}" must be above zero`);
    return ms;
  });
}

/**
 * The wait before the next attempt after failure number `index` (0-based), with ±20 % jitter so
 * the deliveries of one outage do not all come back at the same instant; null when the schedule is
 * used up. `random` is in [0, 1).
 */
export function retryDelayMs(schedule: readonly number[], index: number, random: number): number | null {
  const base = schedule[index];
  if (base === undefined) return null;
  return Math.max(1, Math.round(base * (0.8 + 0.4 * random)));
}
