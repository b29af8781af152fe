import { AppError, errors, type Logger } from '@feedback/kit-core';
import type { Redis } from '@feedback/kit-stores';
import { LRUCache } from 'lru-cache';
import type { ResolvePort } from './links.port.js';

export interface LinkResolverOptions {
  maxEntries: number;
  /**
   * How long a resolved code is kept, in process and in Redis together: a link's target never
   * changes, but its expiry and click limit may (PATCH /v1/links/{code}), and every replica sees
   * that change within this time.
   */
  ttlMs: number;
  /** How long an unknown code is remembered in process (a burst of taps on a mistyped link). */
  missTtlMs: number;
  logger: Logger;
}

/** What the redirect checks of a link with an expiry or a click limit (link-rules.ts); most links have none. */
export interface LinkRules {
  expiresAtMs?: number;
  maxClicks?: number;
  expiredUrl?: string;
}

/** A link as the redirect needs it. */
export interface ResolvedLink {
  fullUrl: string;
  /** Absent for a link without expiry and limit: the fast path answers only those. */
  rules?: LinkRules;
}

/** A cached answer: the URL, or null for a code the shortener does not know (on that host). */
type Entry = { fullUrl: string | null; rules?: LinkRules };

/** The shortener's link as the cache keeps it: rules only when the link has any. */
function entryOf(link: { fullUrl: string; expiresAt?: string; maxClicks?: number; expiredUrl?: string }): Entry {
  const rules: LinkRules = {};
  if (link.expiresAt) rules.expiresAtMs = Date.parse(link.expiresAt);
  if (link.maxClicks) rules.maxClicks = link.maxClicks;
  if (rules.expiresAtMs === undefined && rules.maxClicks === undefined) return { fullUrl: link.fullUrl };
  if (link.expiredUrl) rules.expiredUrl = link.expiredUrl;
  return { fullUrl: link.fullUrl, rules };
}
/** What a lookup the cache starts needs besides its key. */
type Lookup = { code: string; host: string | undefined; requestId: string | undefined };

/**
 * v3: JSON `{u: url, r?: rules, t: when cached}`, so that a replica reading it keeps it only for
 * what is left of the TTL (a changed expiry or limit shows everywhere within one TTL). v2 (the URL
 * alone, for the host asked on) and v1 (for any host) are never read.
 */
const redisKey = (key: string) => `link:v3:${key}`;
type RedisEntry = { u: string; r?: LinkRules; t: number };

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

  /**
   * A code already resolved in process for this host (requestHost), without waiting: the redirect
   * fast path. A link with an expiry or a click limit is never answered here (its route checks them).
   */
  cached(code: string, host?: string): string | undefined {
    const hit = this.cache.get(keyOf(code, host));
    return hit?.rules ? undefined : (hit?.fullUrl ?? undefined);
  }

  /** The link behind a code with its rules, or null like fullUrl. */
  async link(code: string, requestId?: string, host?: string): Promise<ResolvedLink | null> {
    const key = keyOf(code, host);
    const hit = this.cache.get(key) ?? (await this.cache.fetch(key, { context: { code, host, requestId } }));
    if (!hit || hit.fullUrl === null) return null;
    return hit.rules ? { fullUrl: hit.fullUrl, rules: hit.rules } : { fullUrl: hit.fullUrl };
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
    if (cached !== null) {
      // Kept only for what is left of the TTL the first replica started.
      options.ttl = Math.max(1, Math.min(this.opts.ttlMs, cached.t + this.opts.ttlMs - Date.now()));
      return cached.r ? { fullUrl: cached.u, rules: cached.r } : { fullUrl: cached.u };
    }
    try {
      const { link } = await this.shortener.resolve({ code, host }, requestId ? { context: { requestId } } : {});
      if (!link) throw errors.internal('shortener answered without a link');
      const entry = entryOf(link);
      const value: RedisEntry = { u: link.fullUrl, ...(entry.rules && { r: entry.rules }), t: Date.now() };
      this.redis?.set(redisKey(key), JSON.stringify(value), 'PX', this.opts.ttlMs).catch(() => undefined);
      return entry;
    } catch (err) {
      if (!(err instanceof AppError) || err.kind !== 'not_found') throw err;
      options.ttl = this.opts.missTtlMs;
      return { fullUrl: null };
    }
  }

  private async fromRedis(key: string): Promise<RedisEntry | null> {
    if (!this.redis || this.redis.status !== 'ready') return null;
    try {
      const text = await this.redis.get(redisKey(key));
      return text === null ? null : (JSON.parse(text) as RedisEntry);
    } catch (err) {
      this.opts.logger.debug({ err }, 'link cache: redis lookup failed; asking the shortener');
      return null;
    }
  }
}
