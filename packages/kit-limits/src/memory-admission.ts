import type { WindowState } from './fixed-window.js';
import type { Tier } from './limits-config.js';

/**
 * The same all-or-nothing fixed-window decision as the Redis script, in this process only.
 * It decides while Redis is away; each process then limits on its own, so N gateway
 * processes admit up to N times the limit until Redis returns (docs: the fallback is a
 * safety net against floods, not an exact quota).
 */
export class MemoryAdmission {
  private readonly windows = new Map<string, { start: number; count: number; endsAt: number }>();
  private lastSweep = 0;

  constructor(private readonly now: () => number = Date.now) {}

  decide(keys: string[], tiers: Tier[], cost: number): { admitted: boolean; nowMs: number; windows: WindowState[] } {
    const now = this.now();
    this.sweep(now);
    const current = keys.map((k, i) => {
      const w = this.windows.get(k);
      if (!w || now >= w.endsAt) return { key: k, fresh: true, count: 0, endsAt: now + tiers[i]!.windowSeconds * 1000, start: now };
      return { key: k, fresh: false, count: w.count, endsAt: w.endsAt, start: w.start };
    });
    const admitted = current.every((c, i) => c.count + cost <= tiers[i]!.limit);
    if (admitted) {
      for (const c of current) {
        c.count += cost;
        this.windows.set(c.key, { start: c.start, count: c.count, endsAt: c.endsAt });
      }
    }
    return { admitted, nowMs: now, windows: current.map((c) => ({ count: c.count, endsAtMs: c.endsAt })) };
  }

  /** Each key's open window as `decide` would see it now, counting nothing (count 0, no end when none is open). */
  peek(keys: string[]): { nowMs: number; windows: { count: number; endsAtMs: number | null }[] } {
    const now = this.now();
    return {
      nowMs: now,
      windows: keys.map((k) => {
        const w = this.windows.get(k);
        return !w || now >= w.endsAt ? { count: 0, endsAtMs: null } : { count: w.count, endsAtMs: w.endsAt };
      }),
    };
  }

  get size(): number {
    return this.windows.size;
  }

  /** Drops ended windows at most every 10 s, so memory follows the active keys. */
  private sweep(now: number) {
    if (now - this.lastSweep < 10_000) return;
    this.lastSweep = now;
    for (const [k, w] of this.windows) if (now >= w.endsAt) this.windows.delete(k);
  }
}
