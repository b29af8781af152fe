import { LRUCache } from 'lru-cache';
import type { AccountProviderSettings } from '../domain/account-provider.js';
import type { AccountProviderRepository, ProviderCache, SmsProvider, SmsProviderResolver } from '../ports.js';

export interface ProviderResolverOptions {
  accountProviders: Pick<AccountProviderRepository, 'find'>;
  /** The deployment's provider (SMS_PROVIDER), for accounts without their own. */
  deployment: SmsProvider;
  /** Makes the provider of an account's stored settings. */
  build: (settings: AccountProviderSettings) => SmsProvider;
  /** How long an account's provider, or its having none, is remembered (ACCOUNT_SMS_PROVIDER_CACHE_MS). */
  ttlMs: number;
  now?: () => number;
}

/** Far more accounts than any deployment sends for at once; the least recently used entry goes first. */
const MAX_ENTRIES = 10_000;

/**
 * The provider of each account, remembered for `ttlMs` (also that an account has none, the usual
 * case), so a batch of SMS costs no database read and no decryption. PUT and DELETE in this
 * process forget the account at once; other replicas follow within `ttlMs`. A failed read
 * (database away, a document no configured key opens) is not remembered: it throws, and the
 * dispatcher retries the event rather than send it through another provider.
 */
export class CachedProviderResolver implements SmsProviderResolver, ProviderCache {
  /** Each account's provider (null: it has none), as a read that may still run; none when `ttlMs` keeps nothing. */
  private readonly entries: LRUCache<string, Promise<SmsProvider | null>> | null;

  constructor(private readonly opts: ProviderResolverOptions) {
    // lru-cache keeps an entry while its age is at most `ttl` (and reads a ttl or a start of 0 as for
    // ever): ours go once they are ttlMs old, and its clock is ours 1 ms on (ages unchanged).
    this.entries =
      opts.ttlMs > 1
        ? new LRUCache({ max: MAX_ENTRIES, ttl: opts.ttlMs - 1, ttlResolution: 0, perf: { now: shifted(opts.now ?? Date.now) } })
        : null;
  }

  async forAccount(accountId: string): Promise<SmsProvider> {
    const hit = this.entries?.get(accountId);
    if (hit) return (await hit) ?? this.opts.deployment;
    // One read for the calls that arrive while it runs; a forget() meanwhile drops it, so a
    // read that began before a PUT is never remembered after it.
    const entry = this.load(accountId);
    this.entries?.set(accountId, entry);
    try {
      return (await entry) ?? this.opts.deployment;
    } catch (err) {
      if (this.entries?.get(accountId) === entry) this.entries.delete(accountId);
      throw err;
    }
  }

  forget(accountId: string): void {
    this.entries?.delete(accountId);
  }

  private async load(accountId: string): Promise<SmsProvider | null> {
    const found = await this.opts.accountProviders.find(accountId);
    return found ? this.opts.build(found.settings) : null;
  }
}

const shifted = (now: () => number) => () => now() + 1;
