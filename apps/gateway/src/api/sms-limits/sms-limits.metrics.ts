import { gauge } from '@feedback/kit-metrics';
import type { SmsLimitsPort } from './sms-limits.port.js';

let inForce: SmsLimitsPort | undefined;

/** The deployment's tiers in force on this replica, read at scrape time: a change shows on every replica's scrape. */
gauge({
  name: 'sms_limits_tier_limit',
  help: "The deployment's SMS sharing tiers in force on this replica: requests per window, by tier and window (none while limits are off)",
  labelNames: ['tier', 'window_seconds', 'source'] as const,
  collect() {
    // Tiers come and go with the setting: only those in force now are reported.
    this.reset();
    const d = inForce?.deployment();
    if (!d?.config?.enabled) return;
    for (const t of d.config.tiers) this.set({ tier: t.name, window_seconds: String(t.windowSeconds), source: d.origin }, t.limit);
  },
});
gauge({
  name: 'sms_limits_account_overrides',
  help: 'Accounts with SMS sharing limits of their own, as this replica holds them',
  collect() {
    if (inForce) this.set(inForce.accountOverrides);
  },
});

/** Reports `limits` in the gauges above (one live setting per process). */
export function meterSmsLimits(limits: SmsLimitsPort) {
  inForce = limits;
}
