import type { Redis } from '@feedback/kit-stores';
import { LRUCache } from 'lru-cache';

/** Only warnings are written (the routes' fastify logger or the thread's pino). */
type Logger = { warn(obj: object, msg: string): void };

/** One counter per limited code; it expires with its link (a link without expiry keeps it). */
const redisKey = (code: string) => `link-clicks:v1:${code}`;

/**
 * The clicks a link with `max_clicks` has used up, shared by every gateway replica at once: one
 * Redis INCR per counted click (the click tally the shortener keeps lags by the Kafka round trip,
 * so a limit of 1 read from it would let a second tap through on another replica). Links without
 * a limit never come here. Redis away or slow: each replica counts on its own meanwhile, so a
 * limit may let through up to one limit per replica, never block a link that has room.
 */
export class ClickLimit {
  private readonly local = new LRUCache<string, number>({ max: 100_000 });

  constructor(
    private readonly redis: Redis | null,
    private readonly logger: Logger,
  ) {}

  /** Uses up one click; answers whether it was within `max` (the tap may be redirected). */
  async take(code: string, max: number, expiresAtMs?: number): Promise<boolean> {
    const used = await this.viaRedis(async (redis) => {
      // One round trip; the expiry follows the link's current one (a PATCH may move or clear it).
      const key = redisKey(code);
      const batch = redis.pipeline().incr(key);
      const results = await (expiresAtMs !== undefined ? batch.pexpireat(key, expiresAtMs) : batch.persist(key)).exec();
      const [err, n] = results?.[0] ?? [new Error('no answer'), null];
      if (err) throw err;
      return Number(n);
    });
    const n = used ?? this.countLocally(code);
    return n <= max;
  }

  /** Whether a request that uses nothing up (not a counted click) may still be redirected. */
  async hasRoom(code: string, max: number): Promise<boolean> {
    const used = await this.viaRedis(async (redis) => Number((await redis.get(redisKey(code))) ?? 0));
    return (used ?? this.local.get(code) ?? 0) < max;
  }

  private countLocally(code: string): number {
    const n = (this.local.get(code) ?? 0) + 1;
    this.local.set(code, n);
    return n;
  }

  private async viaRedis(fn: (redis: Redis) => Promise<number>): Promise<number | null> {
    if (!this.redis || this.redis.status !== 'ready') return null;
    try {
      return await fn(this.redis);
    } catch (err) {
      this.logger.warn({ err }, 'click limit: redis failed; counted in this process');
      return null;
    }
  }
}
