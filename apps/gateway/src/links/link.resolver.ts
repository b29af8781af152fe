import { AppError, errors, type Logger } from '@feedback/kit-core';
import type { Redis } from '@feedback/kit-stores';
import { LRUCache } from 'lru-cache';
import type { ResolvePort } from './links.port.js';

export interface LinkResolverOptions {
  maxEntries: number;
  /** How long a resolved code is kept in process and in Redis. Links never change, so this only bounds memory. */
  ttlMs: number;
  /** How long an unknown code is remembered in process (a burst of taps on a mistyped link). */
  missTtlMs: number;
  logger: Logger;
}

/** A cached answer: the URL, or null for a code the shortener does not know. */
type Entry = { fullUrl: string | null };

const redisKey = (code: string) => `link:v1:${code}`;

/**
 * Resolves codes for the redirect path without waiting on the shortener's database in the
 * common case: in-process LRU first, then Redis (shared by gateway replicas, survives a
 * restart), then the shortener over gRPC. Concurrent misses for one code share one lookup
 * (lru-cache's fetch), so a burst on a fresh link costs one gRPC call. Redis being down only
 * costs the Redis step.
 */
export class LinkResolver {
  private readonly cache: LRUCache<string, Entry, string | undefined>;

  constructor(
    private readonly shortener: ResolvePort,
    private readonly redis: Redis | null,
    private readonly opts: LinkResolverOptions,
  ) {
    this.cache = new LRUCache<string, Entry, string | undefined>({
      max: opts.maxEntries,
      ttl: opts.ttlMs,
      fetchMethod: (code, _stale, { options, context }) => this.load(code, options, context),
    });
  }

  /** A resolved code already in process, without waiting: the redirect fast path. */
  cached(code: string): string | undefined {
    return this.cache.get(code)?.fullUrl ?? undefined;
  }

  /** The full URL behind a code, or null when there is none; `requestId` goes with a lookup it starts. */
  async fullUrl(code: string, requestId?: string): Promise<string | null> {
    const hit = this.cache.get(code) ?? (await this.cache.fetch(code, { context: requestId }));
    return hit?.fullUrl ?? null;
  }

  private async load(code: string, options: { ttl?: number }, requestId: string | undefined): Promise<Entry> {
    const cached = await this.fromRedis(code);
    if (cached !== null) return { fullUrl: cached };
    try {
      const { link } = await this.shortener.resolve({ code }, requestId ? { context: { requestId } } : {});
      if (!link) throw errors.internal('shortener answered without a link');
      this.redis?.set(redisKey(code), link.fullUrl, 'PX', this.opts.ttlMs).catch(() => undefined);
      return { fullUrl: link.fullUrl };
    } catch (err) {
      if (!(err instanceof AppError) || err.kind !== 'not_found') throw err;
      options.ttl = this.opts.missTtlMs;
      return { fullUrl: null };
    }
  }

  private async fromRedis(code: string): Promise<string | null> {
    if (!this.redis || this.redis.status !== 'ready') return null;
    try {
      return await this.redis.get(redisKey(code));
    } catch (err) {
      this.opts.logger.debug({ err }, 'link cache: redis lookup failed; asking the shortener');
      return null;
    }
  }
}
