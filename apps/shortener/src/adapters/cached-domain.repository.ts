import { LRUCache } from 'lru-cache';
import type { CustomerDomain } from '../domain/link.js';
import type { DomainRepository } from '../domain/ports.js';

/** A cached lookup: the domain, or null for a name no account has. */
type Entry = { domain: CustomerDomain | null };

/**
 * Keeps `findByName` off the database on the shorten path: every shorten asks whether
 * the target's host is one of our customer domains, and domains change rarely. Answers (hits
 * and misses) live `ttlMs`; adding or removing a domain through this process drops its entry at
 * once, other replicas see the change within `ttlMs` (docs/decisions.md "Short links").
 */
export class CachedDomainRepository implements DomainRepository {
  private readonly cache: LRUCache<string, Entry>;

  constructor(
    private readonly inner: DomainRepository,
    opts: { ttlMs: number; maxEntries: number },
  ) {
    this.cache = new LRUCache<string, Entry>({ max: opts.maxEntries, ttl: opts.ttlMs });
  }

  async findByName(name: string): Promise<CustomerDomain | null> {
    const hit = this.cache.get(name);
    if (hit) return hit.domain;
    const domain = await this.inner.findByName(name);
    this.cache.set(name, { domain });
    return domain;
  }

  async insertIfNew(domain: CustomerDomain): Promise<boolean> {
    const stored = await this.inner.insertIfNew(domain);
    this.cache.delete(domain.name);
    return stored;
  }

  listByAccount(accountId: string): Promise<CustomerDomain[]> {
    return this.inner.listByAccount(accountId);
  }

  async remove(accountId: string, name: string): Promise<boolean> {
    const removed = await this.inner.remove(accountId, name);
    this.cache.delete(name);
    return removed;
  }
}
