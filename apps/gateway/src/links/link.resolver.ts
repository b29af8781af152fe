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

/** A cached answer: the URL, or null for a code the shortener does not know (on that host). */
type Entry = { fullUrl: string | null };
/** What a lookup the cache starts needs besides its key. */
type Lookup = { code: string; host: string | undefined; requestId: string | undefined };

/**
 * v2: an answer holds for the host it was asked on (a customer domain serves only its own links);
 * v1 answers held for any host and are never read.
 */
const redisKey = (key: string) => `link:v2:${key}`;

/** Longest host name a customer domain can have: a longer Host is none of theirs. */
const MAX_HOST = 253;

/**
 * The Host header as the cache keys it and the shortener compares it: lower case, without port
 * or final dot; '' when absent or longer than any domain (which serves only links made without one).
 */
export function requestHost(header: string | undefined): string {
  const h = (header ?? '').trim().toLowerCase();
  const end = h.startsWith('[') ? h.indexOf(']') + 1 : h.includes(':') ? h.lastIndexOf(':') : h.length;
  const host = h.slice(0, end > 0 ? end : h.length).replace(/\.$/, '');
  return host.length > MAX_HOST ? '' : host;
}

/** One cache entry per host and code: where a link is served is the shortener's rule. */
const keyOf = (code: string, host: string | undefined) => (host === undefined ? code : `${host}/${code}`);

/**
 * Resolves codes for the redirect path without waiting on the shortener's database in the
 * common case: in-process LRU first, then Redis (shared by gateway replicas, survives a
 * restart), then the shortener over gRPC. Concurrent misses for one code share one lookup
 * (lru-cache's fetch), so a burst on a fresh link costs one gRPC call. Redis being down only
 * costs the Redis step.
 */
export class LinkResolver {
  private readonly cache: LRUCache<string, Entry, Lookup>;

  constructor(
    private readonly shortener: ResolvePort,
    private readonly redis: Redis | null,
    private readonly opts: LinkResolverOptions,
  ) {
    this.cache = new LRUCache<string, Entry, Lookup>({
      max: opts.maxEntries,
      ttl: opts.ttlMs,
      fetchMethod: (key, _stale, { options, context }) => this.load(key, options, context),
    });
  }

  /** A code already resolved in process for this host (requestHost), without waiting: the redirect fast path. */
  cached(code: string, host?: string): string | undefined {
    return this.cache.get(keyOf(code, host))?.fullUrl ?? undefined;
  }

  /**
   * The full URL behind a code, or null when there is none, or none served on `host`
   * (requestHost; left out, wherever it is served). `requestId` goes with a lookup it starts.
   */
  async fullUrl(code: string, requestId?: string, host?: string): Promise<string | null> {
    const key = keyOf(code, host);
    const hit = this.cache.get(key) ?? (await this.cache.fetch(key, { context: { code, host, requestId } }));
    return hit?.fullUrl ?? null;
  }

  private async load(key: string, options: { ttl?: number }, { code, host, requestId }: Lookup): Promise<Entry> {
    const cached = await this.fromRedis(key);
    if (cached !== null) return { fullUrl: cached };
    try {
      const { link } = await this.shortener.resolve({ code, host }, requestId ? { context: { requestId } } : {});
      if (!link) throw errors.internal('shortener answered without a link');
      this.redis?.set(redisKey(key), link.fullUrl, 'PX', this.opts.ttlMs).catch(() => undefined);
      return { fullUrl: link.fullUrl };
    } catch (err) {
      if (!(err instanceof AppError) || err.kind !== 'not_found') throw err;
      options.ttl = this.opts.missTtlMs;
      return { fullUrl: null };
    }
  }

  private async fromRedis(key: string): Promise<string | null> {
    if (!this.redis || this.redis.status !== 'ready') return null;
    try {
      return await this.redis.get(redisKey(key));
    } catch (err) {
      this.opts.logger.debug({ err }, 'link cache: redis lookup failed; asking the shortener');
      return null;
    }
  }
}
