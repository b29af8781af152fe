import type { LimitsConfig, LimitsInForce, LimitsScope, TierUsage } from '@feedback/kit-limits';

/** The SMS limits as a live setting (kit-limits LiveLimits): what is in force, and changing it on every replica. */
export interface SmsLimitsPort {
  deployment(): LimitsInForce;
  account(accountId: string): LimitsInForce;
  /** How many accounts have limits of their own. */
  readonly accountOverrides: number;
  set(scope: LimitsScope, config: LimitsConfig): Promise<LimitsInForce>;
  reset(scope: LimitsScope): Promise<{ removed: boolean; inForce: LimitsInForce }>;
}

/** How full an account's tiers are (kit-limits TierLimiter, the same one that admits its sharings). */
export interface SmsUsagePort {
  usage(accountId: string): Promise<TierUsage>;
}
