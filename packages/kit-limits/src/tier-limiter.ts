import type { Logger } from '@feedback/kit-core';
import type { Redis } from '@feedback/kit-stores';
import { tierKey, toAdmission, type Admission, type AdmissionSource } from './fixed-window.js';
import type { LimitsConfig, Tier } from './limits-config.js';
import type { LimitsConfigSource } from './limits-config.source.js';
import { MemoryAdmission } from './memory-admission.js';
import { redisAdmission, redisPeek } from './redis-admission.js';

export interface TierLimiterOptions {
  /** A client from kit-stores `createRedis` (no offline queue, short command timeout). */
  redis: Redis;
  limits: LimitsConfigSource;
  logger: Logger;
  /** Key prefix; limiters sharing it (one per gateway process) share the limits. Default "limit". */
  prefix?: string;
  /** Longest wait for Redis before the in-process limiter decides instead (default 300 ms). */
  redisTimeoutMs?: number;
  /** After a Redis failure, the fallback alone decides for this long before Redis is tried again (default 1000 ms). */
  retryRedisAfterMs?: number;
  /** The fallback's clock (tests). */
  now?: () => number;
}

/** One tier of a key as it stands: `used` in the open window, which ends at `endsAtMs` (null: none is open). */
export interface TierUsageState extends Tier {
  used: number;
  endsAtMs: number | null;
}

/** A key's tiers as they stand, and who counted them ('disabled': no tiers, nothing counted). */
export interface TierUsage {
  source: AdmissionSource;
  tiers: TierUsageState[];
}

/**
 * Admits a request for a key (an account) only if every configured tier has room, atomically
 * in one Redis round trip; a refused request consumes nothing. While Redis is unreachable or
 * slow, an in-process limiter with the same algorithm decides, so an answer never takes
 * longer than `redisTimeoutMs` (docs/decisions.md "SMS sharing").
 */
export class TierLimiter {
  private readonly prefix: string;
  private readonly redisTimeoutMs: number;
  private readonly retryRedisAfterMs: number;
  private readonly memory: MemoryAdmission;
  private readonly viaRedis: ReturnType<typeof redisAdmission>;
  private readonly peek: ReturnType<typeof redisPeek>;
  private readonly log: Logger;
  private redisDownUntil = 0;
  private usingFallback = false;

  constructor(private readonly opts: TierLimiterOptions) {
    this.prefix = opts.prefix ?? 'limit';
    this.redisTimeoutMs = opts.redisTimeoutMs ?? 300;
    this.retryRedisAfterMs = opts.retryRedisAfterMs ?? 1_000;
    this.memory = new MemoryAdmission(opts.now);
    this.viaRedis = redisAdmission(opts.redis);
    this.peek = redisPeek(opts.redis);
    this.log = opts.logger.child({ component: 'tier-limiter' });
  }

  async admit(key: string, cost = 1): Promise<Admission> {
    // The key's own tiers when it has them (a per-account override), else everyone's.
    const config = this.configFor(key);
    if (!config.enabled || config.tiers.length === 0) return { admitted: true, tiers: [], bindingTier: -1, source: 'disabled' };
    const tiers = config.tiers;
    const keys = tiers.map((t, i) => tierKey(this.prefix, key, i, t));

    if (this.redisUsable()) {
      try {
        const d = await this.withTimeout(this.viaRedis(keys, tiers, cost));
        this.recovered();
        return toAdmission(tiers, d.windows, d.admitted, d.nowMs, cost, 'redis');
      } catch (err) {
        this.failed(err as Error);
      }
    } else {
      this.failed(new Error(`redis connection is ${this.opts.redis.status}`), false);
    }
    const d = this.memory.decide(keys, tiers, cost);
    return toAdmission(tiers, d.windows, d.admitted, d.nowMs, cost, 'memory');
  }

  /**
   * How full each of the key's tiers is now, counting nothing: from Redis, or from this process's
   * fallback while Redis is away (then it is this process's share only).
   */
  async usage(key: string): Promise<TierUsage> {
    const config = this.configFor(key);
    if (!config.enabled || config.tiers.length === 0) return { source: 'disabled', tiers: [] };
    const tiers = config.tiers;
    const keys = tiers.map((t, i) => tierKey(this.prefix, key, i, t));
    let source: AdmissionSource = 'memory';
    let read: { windows: { count: number; endsAtMs: number | null }[] } | undefined;
    if (this.redisUsable()) {
      try {
        read = await this.withTimeout(this.peek(keys, tiers));
        source = 'redis';
      } catch (err) {
        this.failed(err as Error);
      }
    }
    read ??= this.memory.peek(keys);
    return {
      source,
      tiers: tiers.map((t, i) => ({ ...t, used: read.windows[i]!.count, endsAtMs: read.windows[i]!.endsAtMs })),
    };
  }

  /** True while the in-process fallback decides (for /ready and metrics). */
  get degraded(): boolean {
    return this.usingFallback;
  }

  private configFor(key: string): LimitsConfig {
    return this.opts.limits.forKey?.(key) ?? this.opts.limits.current();
  }

  private redisUsable(): boolean {
    // Without an offline queue a command on a closed connection fails at once anyway;
    // skipping it saves the rejection and keeps a hung server from costing every request a timeout.
    return this.opts.redis.status === 'ready' && Date.now() >= this.redisDownUntil;
  }

  private withTimeout<T>(p: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`redis did not answer within ${this.redisTimeoutMs} ms`)), this.redisTimeoutMs);
    });
    // A late reply may still count the request in Redis: over-counting errs on the safe side.
    p.catch(() => undefined);
    return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
  }

  private failed(err: Error, backOff = true) {
    if (backOff) this.redisDownUntil = Date.now() + this.retryRedisAfterMs;
    if (!this.usingFallback) this.log.warn({ err }, 'redis unavailable; the in-process limiter decides until it is back');
    this.usingFallback = true;
  }

  private recovered() {
    if (this.usingFallback) this.log.info('redis is back; limits are shared again');
    this.usingFallback = false;
  }
}
