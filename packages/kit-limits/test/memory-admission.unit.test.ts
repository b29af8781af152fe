import { describe, expect, it } from 'vitest';
import { MemoryAdmission, type Tier } from '../src/index.js';

const tiers: Tier[] = [
  { name: 't0', limit: 2, windowSeconds: 5 },
  { name: 't1', limit: 3, windowSeconds: 25 },
];
const keys = ['k:0', 'k:1'];

describe('in-process fallback', () => {
  it('admits only when every tier has room and then counts it in all of them', () => {
    let now = 0;
    const m = new MemoryAdmission(() => now);
    expect(m.decide(keys, tiers, 1).admitted).toBe(true);
    expect(m.decide(keys, tiers, 1).admitted).toBe(true);
    const refused = m.decide(keys, tiers, 1);
    expect(refused.admitted).toBe(false);
    // The refusal by t0 did not count in t1.
    expect(refused.windows.map((w) => w.count)).toEqual([2, 2]);

    now = 5_000; // t0's window ended, t1's has room for one more
    expect(m.decide(keys, tiers, 1).admitted).toBe(true);
    const byT1 = m.decide(keys, tiers, 1);
    expect(byT1.admitted).toBe(false);
    expect(byT1.windows).toEqual([
      { count: 1, endsAtMs: 10_000 },
      { count: 3, endsAtMs: 25_000 },
    ]);
  });

  it('forgets ended windows', () => {
    let now = 0;
    const m = new MemoryAdmission(() => now);
    m.decide(['a'], [tiers[0]!], 1);
    m.decide(['b'], [tiers[0]!], 1);
    expect(m.size).toBe(2);
    now = 60_000;
    m.decide(['c'], [tiers[0]!], 1);
    expect(m.size).toBe(1);
  });
});
