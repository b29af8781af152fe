import {
  effectiveRetention,
  errors,
  RETENTION_KINDS,
  type AccountRetention,
  type EffectiveRetention,
  type RetentionKind,
} from '@feedback/kit-core';
import { requireAccount } from './accounts.use-cases.js';
import type { AccountsDeps } from './ports.js';

/** What an operator set: `retentionDays` for every kind, a kind's own value over it; absent: the deployment default. */
export interface RetentionInput {
  retentionDays?: number;
  days: Partial<Record<RetentionKind, number>>;
}

export interface StoredRetention extends AccountRetention {
  retentionDays: number | null;
  updatedAt: Date;
}

export interface RetentionRepository {
  find(accountId: string): Promise<StoredRetention | null>;
  save(s: StoredRetention): Promise<void>;
}

/** Hands a setting to the services that keep personal data (account.retention). */
export interface RetentionEvents {
  published(s: AccountRetention): Promise<void>;
}

export interface RetentionDeps extends Pick<AccountsDeps, 'accounts' | 'clock'> {
  retention: RetentionRepository;
  retentionEvents: RetentionEvents;
  /** The deployment defaults, as the services' <KIND>_RETENTION_DAYS say (the chart sets both from one value). */
  retentionDefaults: Record<RetentionKind, number>;
}

export interface RetentionView {
  accountId: string;
  retentionDays: number | null;
  effective: Record<RetentionKind, EffectiveRetention>;
  updatedAt: Date | null;
}

const view = (deps: RetentionDeps, accountId: string, s: StoredRetention | null): RetentionView => ({
  accountId,
  retentionDays: s?.retentionDays ?? null,
  effective: Object.fromEntries(
    RETENTION_KINDS.map((k) => [k, effectiveRetention(s, k, deps.retentionDefaults[k])]),
  ) as RetentionView['effective'],
  updatedAt: s?.updatedAt ?? null,
});

export async function getRetention(deps: RetentionDeps, accountId: string): Promise<RetentionView> {
  await requireAccount(deps, accountId);
  return view(deps, accountId, await deps.retention.find(accountId));
}

/**
 * Replaces the account's setting and publishes it. Stored first: a failed publish answers 503
 * and the same request again publishes it (the services keep the highest version).
 */
export async function setRetention(deps: RetentionDeps, accountId: string, input: RetentionInput): Promise<RetentionView> {
  await requireAccount(deps, accountId);
  const before = await deps.retention.find(accountId);
  const now = deps.clock.now();
  const days: Partial<Record<RetentionKind, number>> = {};
  for (const k of RETENTION_KINDS) {
    const d = input.days[k] ?? input.retentionDays;
    if (d !== undefined) days[k] = d;
  }
  // Strictly increasing even when two changes share a millisecond or the clock stepped back.
  const version = Math.max(now.getTime(), (before?.version ?? 0) + 1);
  const stored: StoredRetention = { accountId, days, version, retentionDays: input.retentionDays ?? null, updatedAt: now };
  await deps.retention.save(stored);
  try {
    await deps.retentionEvents.published({ accountId, days, version });
  } catch (err) {
    throw Object.assign(errors.unavailable('The setting is stored but not yet handed to the services: send it again'), { cause: err });
  }
  return view(deps, accountId, stored);
}
