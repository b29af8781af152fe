import { counter, gauge } from '@feedback/kit-metrics';
import type { SharingLimiter } from './sharing-limit.hooks.js';

/** Each metered limiter's "is the in-process fallback deciding?", read at scrape time. */
const fallbackOf = new Map<string, () => boolean>();

const decisions = counter({
  name: 'rate_limit_decisions_total',
  help: 'Limiter decisions by limiter, result (admitted, refused) and who decided (redis, memory: the in-process fallback, disabled)',
  labelNames: ['limiter', 'result', 'source'] as const,
});
const refusals = counter({
  name: 'rate_limit_refused_total',
  help: 'Requests refused by a limiter, by the tier that refused them (the one whose window ends last)',
  labelNames: ['limiter', 'tier'] as const,
});
gauge({
  name: 'rate_limit_fallback_active',
  help: '1 while the in-process fallback decides instead of Redis (limits are then per process, not shared)',
  labelNames: ['limiter'] as const,
  collect() {
    for (const [limiter, active] of fallbackOf) this.set({ limiter }, active() ? 1 : 0);
  },
});

/**
 * The limiter as it was, each decision counted. Tier names come from the limits file (at most 16,
 * validated), so the tier label stays bounded; the key (an account) is never a label.
 */
export function meteredLimiter(limiter: SharingLimiter & { readonly degraded: boolean }, name: string): SharingLimiter {
  fallbackOf.set(name, () => limiter.degraded);
  return {
    async admit(key) {
      const admission = await limiter.admit(key);
      decisions.inc({ limiter: name, result: admission.admitted ? 'admitted' : 'refused', source: admission.source });
      if (!admission.admitted) refusals.inc({ limiter: name, tier: admission.tiers[admission.bindingTier]?.name ?? 'unknown' });
      return admission;
    },
  };
}
