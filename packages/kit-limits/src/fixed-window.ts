import type { Tier } from './limits-config.js';

/**
 * The admission algorithm, shared by the Redis script and the in-process fallback so both
 * decide alike: per tier a fixed window that opens at the first admitted request after the
 * previous one ended (not aligned to the clock, so accounts do not all reset at once).
 * A request is admitted only if every tier has room for it; then every tier counts it.
 * A rejected request changes nothing, not even the opening of a window.
 * Fixed windows rather than sliding logs: O(1) memory per tier and key whatever the limit;
 * the up-to-2x burst at a window edge is bounded by the longer tiers above it.
 */
export interface WindowState {
  /** Admissions counted in the open window (0 when none is open). */
  count: number;
  /** When the open window ends, in ms since the epoch (now + window when none is open). */
  endsAtMs: number;
}

export interface TierState {
  name: string;
  limit: number;
  windowSeconds: number;
  /** What is left in this tier's current window after this decision. */
  remaining: number;
  /** Seconds until this tier's window ends (rounded up; the window length when none is open). */
  resetSeconds: number;
}

export type AdmissionSource = 'redis' | 'memory' | 'disabled';

export type Admission =
  | { admitted: true; tiers: TierState[]; bindingTier: number; source: AdmissionSource }
  | { admitted: false; retryAfterSec: number; bindingTier: number; tiers: TierState[]; source: AdmissionSource };

/** Builds the answer from each tier's window after the decision (counts include this request if admitted). */
export function toAdmission(
  tiers: Tier[],
  windows: WindowState[],
  admitted: boolean,
  nowMs: number,
  cost: number,
  source: AdmissionSource,
): Admission {
  const states: TierState[] = tiers.map((t, i) => ({
    name: t.name,
    limit: t.limit,
    windowSeconds: t.windowSeconds,
    remaining: Math.max(0, t.limit - windows[i]!.count),
    resetSeconds: Math.max(1, Math.ceil((windows[i]!.endsAtMs - nowMs) / 1000)),
  }));
  if (states.length === 0) return { admitted: true, tiers: [], bindingTier: -1, source };
  if (admitted) {
    // The tier closest to refusing: fewest left, then the longest wait for more.
    const binding = argBest(states, (a, b) => a.remaining - b.remaining || b.resetSeconds - a.resetSeconds);
    return { admitted: true, tiers: states, bindingTier: binding, source };
  }
  // Refused by every tier without room; the caller must wait for the last of them to reset.
  const full = states.map((s, i) => ({ s, i })).filter(({ s }) => s.remaining < cost);
  const worst = full.reduce((a, b) => (b.s.resetSeconds > a.s.resetSeconds ? b : a), full[0]!);
  return { admitted: false, retryAfterSec: worst.s.resetSeconds, bindingTier: worst.i, tiers: states, source };
}

function argBest<T>(items: T[], cmp: (a: T, b: T) => number): number {
  let best = 0;
  for (let i = 1; i < items.length; i++) if (cmp(items[i]!, items[best]!) < 0) best = i;
  return best;
}

/** The Redis key of one tier of one key; the hash tag keeps a key's tiers in one cluster slot. */
export function tierKey(prefix: string, key: string, index: number, tier: Tier): string {
  // The window length is part of the key, so a reloaded config with another window starts afresh.
  return `${prefix}:{${key}}:${index}:${tier.windowSeconds}`;
}
