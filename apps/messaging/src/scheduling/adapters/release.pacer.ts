import { setTimeout as sleep } from 'node:timers/promises';
import type { ReleasePacer } from '../ports.js';

/**
 * A token bucket of `perSecond` tokens, at most one second's worth held: releases at a window's
 * opening go out at the provider's rate instead of in one burst.
 */
export function tokenBucketPacer(perSecond: number, now: () => number = Date.now): ReleasePacer {
  let tokens = perSecond;
  let at = now();
  const refill = () => {
    const t = now();
    tokens = Math.min(perSecond, tokens + ((t - at) / 1000) * perSecond);
    at = t;
  };
  return {
    async take(count: number) {
      // A request above one second's worth is taken in one-second parts.
      let left = count;
      while (left > 0) {
        refill();
        const want = Math.min(left, perSecond);
        if (tokens >= want) {
          tokens -= want;
          left -= want;
        } else {
          await sleep(Math.ceil(((want - tokens) / perSecond) * 1000));
        }
      }
    },
  };
}
