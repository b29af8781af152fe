import { hash } from 'node:crypto';
import type { Logger } from '@feedback/kit-core';
import type { Redis } from '@feedback/kit-stores';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { SignInLimiter } from '../domain/people.ports.js';

export interface SignInLimits {
  /** Failed sign-ins one e-mail may have in a window. */
  perEmail: number;
  /** Failed sign-ins one client IP may have in a window. */
  perIp: number;
  windowSec: number;
}

/**
 * Failed sign-ins counted in Redis, shared by gateway replicas (like POST /shorten's limiter);
 * while Redis is away each replica counts in process. Only failures count: a person who signs
 * in correctly is never limited by their own successes.
 */
export function createSignInLimiter(opts: { redis: Redis; limits: SignInLimits; logger: Logger }): SignInLimiter {
  const make = (name: string, points: number) =>
    new RateLimiterRedis({
      storeClient: opts.redis,
      keyPrefix: `rl:sign-in:${name}`,
      rejectIfRedisNotReady: true,
      insuranceLimiter: new RateLimiterMemory({ points, duration: opts.limits.windowSec, keyPrefix: `rl:sign-in:${name}:local` }),
      points,
      duration: opts.limits.windowSec,
    });
  const byEmail = make('email', opts.limits.perEmail);
  const byIp = make('ip', opts.limits.perIp);
  const plainIp = (ip: string) => (ip.startsWith('::ffff:') ? ip.slice(7) : ip);
  // Redis keys name no e-mail address: its hash counts the same.
  const emailId = (emailKey: string) => hash('sha256', emailKey, 'base64url');

  async function waitOf(limiter: RateLimiterAbstract, points: number, key: string): Promise<number> {
    const res = await limiter.get(key);
    return res && res.consumedPoints >= points ? Math.max(1, Math.ceil(res.msBeforeNext / 1000)) : 0;
  }

  async function count(limiter: RateLimiterAbstract, key: string) {
    try {
      await limiter.consume(key);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
    }
  }

  return {
    async blockedFor(ip, emailKey) {
      try {
        const waits = await Promise.all([
          waitOf(byIp, opts.limits.perIp, plainIp(ip)),
          waitOf(byEmail, opts.limits.perEmail, emailId(emailKey)),
        ]);
        return Math.max(...waits);
      } catch (err) {
        // Both stores failing is a bug; the password check still stands between a guesser and an account.
        opts.logger.error({ err }, 'sign-in limiter failed; attempt let through');
        return 0;
      }
    },
    async failed(ip, emailKey) {
      await Promise.all([count(byIp, plainIp(ip)), count(byEmail, emailId(emailKey))]).catch((err: unknown) =>
        opts.logger.error({ err }, 'sign-in limiter failed to count a failure'),
      );
    },
    async succeeded(emailKey) {
      await byEmail
        .delete(emailId(emailKey))
        .catch((err: unknown) => opts.logger.error({ err }, 'sign-in limiter failed to clear a count'));
    },
  };
}
