import type { Logger } from '@feedback/kit-core';
import type { LimitsConfig } from './limits-config.js';
import type { LimitsConfigSource } from './limits-config.source.js';

/**
 * Where the limits in force come from: `stored` (set through the admin API, kept centrally) wins
 * over `file` (SMS_LIMITS_FILE), which wins over `default` (the built-in tiers); an account's own
 * stored limits (`account`) win over all three for that account (docs/decisions.md "SMS sharing").
 */
export type LimitsOrigin = 'default' | 'file' | 'stored' | 'account';

export interface StoredLimits {
  config: LimitsConfig;
  updatedAt: Date;
}

/** Everything stored: the deployment's limits (null: none) and each account's own. */
export interface LimitsSnapshot {
  deployment: StoredLimits | null;
  accounts: Map<string, StoredLimits>;
}

/** Who the stored limits are for: the whole deployment, or one account. */
export type LimitsScope = { kind: 'deployment' } | { kind: 'account'; accountId: string };

/** The central store (the gateway's MongoDB). */
export interface LimitsStore {
  load(): Promise<LimitsSnapshot>;
  put(scope: LimitsScope, config: LimitsConfig, now: Date): Promise<void>;
  /** False when there was nothing to remove. */
  remove(scope: LimitsScope): Promise<boolean>;
}

/** Tells every replica that something stored changed (Redis pub/sub); a lost message is caught by the periodic re-read. */
export interface LimitsChanges {
  publish(): Promise<void>;
  /** Calls `onChange` for every change published by any replica, and after a reconnect (messages may have been missed). */
  subscribe(onChange: () => void): void;
  close(): Promise<void>;
}

/** What is in force for the deployment or for one account, and where it comes from. */
export interface LimitsInForce {
  config: LimitsConfig;
  origin: LimitsOrigin;
  /** When the stored limits in force were set; null for the file's or the defaults. */
  updatedAt: Date | null;
}

export interface LiveLimitsOptions {
  store: LimitsStore;
  changes: LimitsChanges;
  /** The file's limits, or the defaults (watchLimitsFile). */
  base: LimitsConfigSource;
  baseOrigin: 'default' | 'file';
  logger: Logger;
  now?: () => Date;
}

/**
 * The limits as a live setting: the store's snapshot held in memory (every admission reads it, so
 * `current`/`forKey` are plain lookups), re-read on every published change and by the caller's
 * periodic safety net (`refresh`). A change made here is stored, applied here at once, then
 * published to the other replicas.
 */
export class LiveLimits implements LimitsConfigSource {
  private snapshot: LimitsSnapshot = { deployment: null, accounts: new Map() };
  /** Re-reads run one after another, so an older read never replaces a newer one. */
  private reading: Promise<void> = Promise.resolve();
  private readonly now: () => Date;
  private readonly log: Logger;

  constructor(private readonly opts: LiveLimitsOptions) {
    this.now = opts.now ?? (() => new Date());
    this.log = opts.logger.child({ component: 'live-limits' });
  }

  current(): LimitsConfig {
    return this.snapshot.deployment?.config ?? this.opts.base.current();
  }

  forKey(key: string): LimitsConfig {
    return this.snapshot.accounts.get(key)?.config ?? this.current();
  }

  /** The deployment's limits in force. */
  deployment(): LimitsInForce {
    const stored = this.snapshot.deployment;
    if (stored) return { config: stored.config, origin: 'stored', updatedAt: stored.updatedAt };
    return { config: this.opts.base.current(), origin: this.opts.baseOrigin, updatedAt: null };
  }

  /** One account's limits in force: its own, or the deployment's. */
  account(accountId: string): LimitsInForce {
    const own = this.snapshot.accounts.get(accountId);
    return own ? { config: own.config, origin: 'account', updatedAt: own.updatedAt } : this.deployment();
  }

  /** How many accounts have limits of their own (a gauge). */
  get accountOverrides(): number {
    return this.snapshot.accounts.size;
  }

  /** Stores `config` for the scope, applies it here and tells the other replicas; answers what is now in force. */
  async set(scope: LimitsScope, config: LimitsConfig): Promise<LimitsInForce> {
    await this.opts.store.put(scope, config, this.now());
    await this.afterChange(scope);
    return this.inForce(scope);
  }

  /** Removes the scope's stored limits (the deployment falls back to the file or the defaults, an account to the deployment's). */
  async reset(scope: LimitsScope): Promise<{ removed: boolean; inForce: LimitsInForce }> {
    const removed = await this.opts.store.remove(scope);
    if (removed) await this.afterChange(scope);
    return { removed, inForce: this.inForce(scope) };
  }

  /** Stops watching the file beneath (the store and the notices are the runner's: start-live-limits.ts). */
  close(): void {
    this.opts.base.close();
  }

  /** Re-reads the store; concurrent calls queue, and a failed read keeps what was in force. */
  refresh(): Promise<void> {
    const next = this.reading.then(async () => {
      const before = this.snapshot;
      this.snapshot = await this.opts.store.load();
      if (!sameConfig(before.deployment?.config, this.snapshot.deployment?.config)) {
        const d = this.deployment();
        this.log.info({ origin: d.origin, enabled: d.config.enabled, tiers: d.config.tiers }, 'SMS limits in force changed');
      }
    });
    this.reading = next.catch(() => undefined);
    return next;
  }

  private inForce(scope: LimitsScope): LimitsInForce {
    return scope.kind === 'deployment' ? this.deployment() : this.account(scope.accountId);
  }

  private async afterChange(scope: LimitsScope) {
    await this.refresh();
    // Stored already: a failed publish only delays the others until their next periodic re-read.
    await this.opts.changes.publish().catch((err: unknown) => {
      this.log.warn({ err, scope: scope.kind }, 'SMS limits change not published; other replicas re-read within their refresh period');
    });
  }
}

function sameConfig(a: LimitsConfig | undefined, b: LimitsConfig | undefined): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
