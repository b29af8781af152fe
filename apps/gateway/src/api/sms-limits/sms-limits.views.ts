import { isoWithOffset } from '@feedback/kit-core';
import { limitsConfigDocument, type LimitsInForce, type TierUsage } from '@feedback/kit-limits';

/** The deployment's limits in force (schema SmsLimits). */
export function smsLimitsView(inForce: LimitsInForce, accountsWithOwnLimits: number) {
  return {
    source: inForce.origin,
    ...limitsConfigDocument(inForce.config),
    updated_at: inForce.updatedAt ? isoWithOffset(inForce.updatedAt) : null,
    accounts_with_own_limits: accountsWithOwnLimits,
  };
}

/** One account's limits in force with each tier's count now (schema AccountSmsLimits). */
export function accountSmsLimitsView(accountId: string, inForce: LimitsInForce, usage: TierUsage) {
  return {
    account_id: accountId,
    source: inForce.origin,
    enabled: inForce.config.enabled,
    // The usage was read for the tiers in force at that moment: those are the ones shown.
    tiers: usage.tiers.map((t) => ({
      name: t.name,
      limit: t.limit,
      window_seconds: t.windowSeconds,
      used: t.used,
      remaining: Math.max(0, t.limit - t.used),
      resets_at: t.endsAtMs === null ? null : isoWithOffset(new Date(t.endsAtMs)),
    })),
    usage_from: usage.source === 'redis' ? 'redis' : usage.source === 'memory' ? 'process' : 'none',
    updated_at: inForce.updatedAt ? isoWithOffset(inForce.updatedAt) : null,
  };
}
