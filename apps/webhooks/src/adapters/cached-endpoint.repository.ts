import type { PageQuery } from '@feedback/kit-core';
import { LRUCache } from 'lru-cache';
import type { EndpointRepository } from '../domain/ports.js';
import type { Endpoint } from '../domain/webhook.js';

/**
 * Lookups living `ttlMs`, at most `maxEntries` (least recently used go first). The promise is what
 * is kept: concurrent lookups of one key share one query, and a failed one is dropped so the next
 * caller asks again.
 */
class Lookups<T> {
  private readonly cache: LRUCache<string, Promise<T>>;

  constructor(ttlMs: number, maxEntries: number) {
    this.cache = new LRUCache<string, Promise<T>>({ max: maxEntries, ttl: ttlMs });
  }

  get(key: string, load: () => Promise<T>): Promise<T> {
    const hit = this.cache.get(key);
    if (hit) return hit;
    const value = load();
    this.cache.set(key, value);
    value.catch(() => this.cache.peek(key) === value && this.cache.delete(key));
    return value;
  }

  delete(key: string): void {
    this.cache.delete(key);
  }

  deleteWhere(test: (key: string) => boolean): void {
    for (const key of [...this.cache.keys()]) if (test(key)) this.cache.delete(key);
  }
}

/**
 * Keeps the hot lookups off the database: `subscribed` (every event the consumer stores) and
 * `findById` (every attempt the sender makes). Answers live `ttlMs` (a couple of seconds); a change
 * made through this process (update, delete, disable, failing/healthy marks) drops the entries it
 * touches at once, so only a change made through another replica can go unseen, and for `ttlMs` at
 * most: a disabled or deleted endpoint receives nothing more than that long after the change.
 * Concurrent lookups of one key share one query.
 */
export class CachedEndpointRepository implements EndpointRepository {
  private readonly byId: Lookups<Endpoint | null>;
  private readonly bySubscription: Lookups<Endpoint[]>;

  constructor(
    private readonly inner: EndpointRepository,
    opts: { ttlMs: number; maxEntries: number },
  ) {
    this.byId = new Lookups(opts.ttlMs, opts.maxEntries);
    this.bySubscription = new Lookups(opts.ttlMs, opts.maxEntries);
  }

  private dropAccount(accountId: string, id?: string): void {
    if (id) this.byId.delete(id);
    this.bySubscription.deleteWhere((key) => key.startsWith(`${accountId}\u0000`));
  }

  async insert(endpoint: Endpoint): Promise<void> {
    await this.inner.insert(endpoint);
    this.dropAccount(endpoint.accountId, endpoint.id);
  }

  find(accountId: string, id: string): Promise<Endpoint | null> {
    // The API's reads stay exact: what the caller just changed is what it sees.
    return this.inner.find(accountId, id);
  }

  findById(id: string): Promise<Endpoint | null> {
    return this.byId.get(id, () => this.inner.findById(id));
  }

  list(accountId: string, page: PageQuery) {
    return this.inner.list(accountId, page);
  }

  subscribed(accountId: string, type: string): Promise<Endpoint[]> {
    return this.bySubscription.get(`${accountId}\u0000${type}`, () => this.inner.subscribed(accountId, type));
  }

  async update(
    accountId: string,
    id: string,
    patch: Parameters<EndpointRepository['update']>[2],
    now: Date,
    guard?: Parameters<EndpointRepository['update']>[4],
  ): Promise<Endpoint | null> {
    try {
      return await this.inner.update(accountId, id, patch, now, guard);
    } finally {
      this.dropAccount(accountId, id);
    }
  }

  async delete(accountId: string, id: string): Promise<boolean> {
    try {
      return await this.inner.delete(accountId, id);
    } finally {
      this.dropAccount(accountId, id);
    }
  }

  count(accountId: string): Promise<number> {
    return this.inner.count(accountId);
  }

  async markFailing(id: string, at: Date): Promise<Date> {
    try {
      return await this.inner.markFailing(id, at);
    } finally {
      this.byId.delete(id);
    }
  }

  async markHealthy(id: string): Promise<void> {
    try {
      await this.inner.markHealthy(id);
    } finally {
      this.byId.delete(id);
    }
  }

  async disable(id: string, reason: string, now: Date): Promise<void> {
    try {
      await this.inner.disable(id, reason, now);
    } finally {
      // The account is not known here; disabling is rare: every subscription lookup goes.
      this.byId.delete(id);
      this.bySubscription.deleteWhere(() => true);
    }
  }
}
