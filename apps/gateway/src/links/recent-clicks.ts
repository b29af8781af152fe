import { createHash } from 'node:crypto';
import type { Logger } from '@feedback/kit-core';
import type { Redis } from '@feedback/kit-stores';
import { LRUCache } from 'lru-cache';

export interface RecentClicksOptions {
  /** A client's further taps of a code this long after its counted one are not counted. */
  windowMs: number;
  /**
   * How much this process remembers, in characters of code and client (a user agent is most of
   * it). Forgetting early only costs a Redis round trip, or, with Redis away, a repeat counted.
   */
  maxChars: number;
  logger: Logger;
}

/**
 * Names neither the address nor the user agent: Redis holds a digest only, for one window.
 * The value is when the window ends, so a replica that finds it knows how long it holds.
 */
const redisKey = (code: string, client: string) =>
  `click:v1:${createHash('sha256').update(code).update('\n').update(client).digest('base64url')}`;

/**
 * Remembers which client tapped which code in the last window, across gateway replicas: the
 * first tap sets a Redis key that expires with the window (SET NX PX), and whoever finds it set
 * is a repeat. This process remembers its own answers too, so repeated taps on one replica cost
 * no Redis round trip. Redis away or slow (the link thread's 250 ms command timeout) means
 * counting: a click counted twice is better than a redirect waiting or failing, and each
 * replica still remembers its own clients meanwhile.
 */
export class RecentClicks {
  private readonly local: LRUCache<string, true>;

  constructor(
    private readonly redis: Redis | null,
    private readonly opts: RecentClicksOptions,
  ) {
    this.local = new LRUCache<string, true>({ maxSize: opts.maxChars, sizeCalculation: (_v, key) => key.length, ttl: opts.windowMs });
  }

  /**
   * True for the first tap of `code` by `client` in a window; answers at once when it can. `alias`
   * names the same client in this process's memory, shorter (click-filter.ts `personsAgent`);
   * Redis, which other replicas ask too, gets the digest of `client` itself.
   */
  firstInWindow(code: string, client: string, alias = client): boolean | Promise<boolean> {
    const key = `${code} ${alias}`;
    if (this.local.has(key)) return false;
    // Noted before Redis answers: this replica's further taps meanwhile are repeats either way.
    const until = Date.now() + this.opts.windowMs;
    this.local.set(key, true);
    if (!this.redis || this.redis.status !== 'ready') return true;
    return this.redis.set(redisKey(code, client), String(until), 'PX', this.opts.windowMs, 'NX', 'GET').then(
      (earlier) => {
        if (earlier === null) return true;
        // Another replica counted it: hold only as long as that window lasts.
        const left = Number(earlier) - Date.now();
        if (left > 0) this.local.set(key, true, { ttl: left });
        else this.local.delete(key);
        return false;
      },
      (err: unknown) => {
        this.opts.logger.debug({ err }, 'recent clicks: redis failed; the tap is counted');
        return true;
      },
    );
  }
}
