import type { ApiToken } from '../domain/account.js';
import type { TokenRepository } from '../domain/ports.js';

/**
 * Keeps token lookups off the database on the hot path. Hits live `ttlMs`; misses live
 * shorter so a freshly issued token works within seconds. Revocation through this process
 * drops the entry at once; other gateway replicas see it within `ttlMs` (docs/decisions.md).
 */
export class CachedTokenRepository implements TokenRepository {
  private readonly entries = new Map<string, { token: ApiToken | null; until: number }>();

  constructor(
    private readonly inner: TokenRepository,
    private readonly opts: { ttlMs: number; missTtlMs: number; maxEntries: number; now?: () => number },
  ) {}

  private now() {
    return this.opts.now ? this.opts.now() : Date.now();
  }

  async findByHash(hash: string): Promise<ApiToken | null> {
    const hit = this.entries.get(hash);
    if (hit && hit.until > this.now()) return hit.token;
    const token = await this.inner.findByHash(hash);
    if (this.entries.size >= this.opts.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.delete(hash);
    this.entries.set(hash, { token, until: this.now() + (token ? this.opts.ttlMs : this.opts.missTtlMs) });
    return token;
  }

  insert(token: ApiToken): Promise<void> {
    this.entries.delete(token.hash);
    return this.inner.insert(token);
  }

  listByAccount(accountId: string): Promise<ApiToken[]> {
    return this.inner.listByAccount(accountId);
  }

  async revoke(accountId: string, tokenId: string, at: Date): Promise<ApiToken | null> {
    const revoked = await this.inner.revoke(accountId, tokenId, at);
    if (revoked) this.entries.delete(revoked.hash);
    return revoked;
  }
}
