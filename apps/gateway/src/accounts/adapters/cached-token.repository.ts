import { LRUCache } from 'lru-cache';
import type { ApiToken } from '../domain/account.js';
import type { TokenRepository } from '../domain/ports.js';

/** A cached answer: the token, or null for a hash no token has. */
type Entry = { token: ApiToken | null };

/**
 * Keeps token lookups off the database on the hot path. Hits live `ttlMs`; misses live
 * shorter so a freshly issued token works within seconds. Revocation through this process
 * drops the entry at once; other gateway replicas see it within `ttlMs` (docs/decisions.md).
 */
export class CachedTokenRepository implements TokenRepository {
  private readonly cache: LRUCache<string, Entry>;

  constructor(
    private readonly inner: TokenRepository,
    private readonly opts: { ttlMs: number; missTtlMs: number; maxEntries: number; now?: () => number },
  ) {
    const now = opts.now;
    this.cache = new LRUCache<string, Entry>({
      max: opts.maxEntries,
      ttl: opts.ttlMs,
      // lru-cache takes a start time of 0 for "no TTL", so an injected clock is read one ms on.
      ...(now && { perf: { now: () => now() + 1 }, ttlResolution: 0 }),
    });
  }

  /** The cached answer without waiting: the token, null for a known miss, undefined when not cached. */
  cachedByHash(hash: string): ApiToken | null | undefined {
    return this.cache.get(hash)?.token;
  }

  async findByHash(hash: string): Promise<ApiToken | null> {
    const hit = this.cache.get(hash);
    if (hit) return hit.token;
    const token = await this.inner.findByHash(hash);
    this.cache.set(hash, { token }, { ttl: token ? this.opts.ttlMs : this.opts.missTtlMs });
    return token;
  }

  insert(token: ApiToken): Promise<void> {
    this.cache.delete(token.hash);
    return this.inner.insert(token);
  }

  listByAccount(accountId: string): Promise<ApiToken[]> {
    return this.inner.listByAccount(accountId);
  }

  async revoke(accountId: string, tokenId: string, at: Date): Promise<ApiToken | null> {
    const revoked = await this.inner.revoke(accountId, tokenId, at);
    if (revoked) this.cache.delete(revoked.hash);
    return revoked;
  }
}
