import type { Logger } from '@feedback/kit-core';
import type { Redis } from '@feedback/kit-stores';
import type { LimitsChanges } from './live-limits.js';

export interface RedisLimitsChangesOptions {
  /** Any client of the Redis every replica uses (the limiter's). */
  publisher: Redis;
  /** A connection of its own: a subscribed connection can run no other command. */
  subscriber: Redis;
  /** One per set of replicas sharing a store (the gateway names it after its database). */
  channel: string;
  logger: Logger;
}

/**
 * Change notices over Redis pub/sub: a message carries nothing but "re-read", so a replica never
 * applies a change it has not read from the store itself. Pub/sub keeps no messages: one sent
 * while a replica was disconnected is lost, so every (re)subscription also counts as a change,
 * and the periodic re-read covers anything else.
 */
export function redisLimitsChanges(opts: RedisLimitsChangesOptions): LimitsChanges {
  const { publisher, subscriber, channel } = opts;
  const log = opts.logger.child({ component: 'limits-changes', channel });
  let listening: (() => void) | undefined;

  const subscribe = (onChange: () => void) => {
    subscriber
      .subscribe(channel)
      .then(() => onChange())
      .catch((err: unknown) => log.warn({ err }, 'not subscribed to SMS limits changes; retried when the connection is ready again'));
  };

  return {
    async publish() {
      await publisher.publish(channel, 'changed');
    },
    subscribe(onChange) {
      subscriber.on('message', (ch: string) => {
        if (ch === channel) onChange();
      });
      // Every 'ready' is a (re)connection: subscribe again (idempotent) and re-read what may have been missed.
      listening = () => subscribe(onChange);
      subscriber.on('ready', listening);
      if (subscriber.status === 'ready') subscribe(onChange);
    },
    async close() {
      if (listening) subscriber.off('ready', listening);
      await subscriber.quit().catch(() => subscriber.disconnect());
    },
  };
}
