import type { Logger } from '@feedback/kit-core';
import type { Redis } from '@feedback/kit-stores';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { ClientRateLimiter, RateDecision } from './links.port.js';

export interface ShortenLimiterOptions {
  redis: Redis;
  points: number;
  windowSec: number;
  /** Client addresses never limited (an operator's own systems). */
  exempt: string[];
  logger: Logger;
}

// IPv4 clients of a dual-stack listener show up as ::ffff:a.b.c.d.
const plainIp = (ip: string) => (ip.startsWith('::ffff:') ? ip.slice(7) : ip);

/**
 * Per-client-IP limit of POST /shorten in Redis, shared by gateway replicas. While Redis is
 * unreachable each replica falls back to an in-process limiter of the same size at once
 * (`rejectIfRedisNotReady` + insurance), so a Redis outage neither blocks nor unlimits.
 */
export function createShortenLimiter(opts: ShortenLimiterOptions): ClientRateLimiter {
  const size = { points: opts.points, duration: opts.windowSec };
  const limiter = new RateLimiterRedis({
    storeClient: opts.redis,
    keyPrefix: 'rl:shorten',
    rejectIfRedisNotReady: true,
    insuranceLimiter: new RateLimiterMemory({ ...size, keyPrefix: 'rl:shorten:local' }),
    ...size,
  });
  const exempt = new Set(opts.exempt.map(plainIp));
  const decision = (allowed: boolean, res: RateLimiterRes): RateDecision => ({
    allowed,
    limit: opts.points,
    windowSec: opts.windowSec,
    remaining: res.remainingPoints,
    resetMs: res.msBeforeNext,
  });

  return {
    async consume(clientIp) {
      const ip = plainIp(clientIp);
      if (exempt.has(ip))
        return { allowed: true, exempt: true, limit: opts.points, windowSec: opts.windowSec, remaining: opts.points, resetMs: 0 };
      try {
        return decision(true, await limiter.consume(ip));
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) return decision(false, rejection);
        // Both stores failing is a bug, not a reason to refuse callers.
        opts.logger.error({ err: rejection }, 'rate limiter failed; request let through');
        return { allowed: true, limit: opts.points, windowSec: opts.windowSec, remaining: 0, resetMs: 0 };
      }
    },
  };
}
