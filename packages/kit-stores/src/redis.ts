import { Redis, type RedisKey, type RedisOptions } from 'ioredis';
import type { Logger } from '@feedback/kit-core';

export type { Redis };

export interface RedisClientOptions {
  /** `redis://` or, for TLS, `rediss://`; a password (and ACL user) as `rediss://user:password@host:port`. */
  url: string;
  /** TLS options beyond the URL's: the CA to trust (REDIS_TLS_CA_FILE, via `redisConnection`). */
  tls?: { ca: string[] };
  logger: Logger;
  /** Names the connection in logs and in `CLIENT LIST`. */
  name?: string;
  /**
   * Upper bound for any single command. Keep it short: callers (the rate limiter) fall back
   * to an in-process path on failure, which only helps if failure is quick. Raise it for
   * blocking commands (BLPOP ...).
   */
  commandTimeoutMs?: number;
  connectTimeoutMs?: number;
  /** Anything else ioredis accepts; applied last. */
  overrides?: Partial<RedisOptions>;
}

/**
 * An ioredis client that fails fast instead of queueing while Redis is away:
 * no offline queue (a command while disconnected rejects at once), one retry for a command
 * caught by a dropped connection, and a command timeout as the final bound. It keeps
 * reconnecting with capped exponential backoff, so it recovers when Redis returns.
 * It connects immediately; since nothing is queued before the first connection, await
 * `waitForRedis` in main.ts before serving.
 */
export function createRedis(opts: RedisClientOptions): Redis {
  const name = opts.name ?? 'redis';
  const log = opts.logger.child({ component: 'redis', redis: name });
  const redis = new Redis(opts.url, {
    connectionName: opts.name,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: opts.connectTimeoutMs ?? 2_000,
    commandTimeout: opts.commandTimeoutMs ?? 1_000,
    lazyConnect: false,
    retryStrategy: (attempt) => Math.min(100 * 2 ** Math.min(attempt - 1, 5), 2_000) + Math.floor(Math.random() * 100),
    ...(opts.tls !== undefined && { tls: opts.tls }),
    ...opts.overrides,
  });

  // Without an 'error' listener ioredis errors would crash the process. While Redis is down
  // every reconnect attempt reports the same error, so repeats are logged at most every 30 s.
  let lastMessage = '';
  let lastLoggedAt = 0;
  redis.on('error', (err: Error) => {
    const now = Date.now();
    if (err.message === lastMessage && now - lastLoggedAt < 30_000) return;
    lastMessage = err.message;
    lastLoggedAt = now;
    log.warn({ err }, 'redis error');
  });
  redis.on('ready', () => {
    lastMessage = '';
    log.info('redis ready');
  });
  return redis;
}

/** Resolves once the client is ready; rejects after `timeoutMs` naming what it waited for. */
export async function waitForRedis(redis: Redis, timeoutMs = 5_000): Promise<void> {
  if (redis.status === 'ready') return;
  if (redis.status === 'end') throw new Error('redis: client was closed');
  if (redis.status === 'wait') redis.connect().catch(() => undefined); // lazyConnect override; errors arrive as events
  await new Promise<void>((resolve, reject) => {
    let lastError: Error | undefined;
    const onError = (err: Error) => (lastError = err);
    const done = (err?: Error) => {
      clearTimeout(timer);
      redis.off('ready', onReady);
      redis.off('error', onError);
      if (err) reject(err);
      else resolve();
    };
    const onReady = () => done();
    const timer = setTimeout(() => {
      const opts = redis.options;
      const why = lastError ? `: ${lastError.message}` : '';
      done(new Error(`redis: not ready within ${timeoutMs} ms (${opts.host}:${opts.port})${why}`));
    }, timeoutMs);
    redis.on('ready', onReady);
    redis.on('error', onError);
  });
}

export interface ScriptDefinition {
  numberOfKeys: number;
  lua: string;
  /** Lets a replica run it (EVALSHA_RO); only for scripts that write nothing. */
  readOnly?: boolean;
}

export type ScriptArg = string | number | Buffer;

/** A Lua script bound to one client: keys and arguments apart, the reply typed by the caller. */
export type Script<R> = (keys: RedisKey[], args?: ScriptArg[]) => Promise<R>;

const defined = new WeakMap<Redis, Map<string, string>>();

/**
 * Registers a Lua script via ioredis `defineCommand` (EVALSHA, falling back to EVAL after a
 * NOSCRIPT, e.g. after a Redis restart) and returns a typed caller. The script runs
 * atomically on the server: no other command interleaves with it.
 * `R` is what the script returns as ioredis decodes it (integer → number, table → array,
 * nil → null); it is not checked at run time.
 */
export function defineScript<R = unknown>(redis: Redis, name: string, def: ScriptDefinition): Script<R> {
  let scripts = defined.get(redis);
  if (!scripts) defined.set(redis, (scripts = new Map()));
  const existing = scripts.get(name);
  if (existing === undefined) {
    // Refuse to shadow a real command or another method of the client.
    if (name in redis) throw new Error(`redis: cannot define script "${name}": the client already has that member`);
    redis.defineCommand(name, def);
    scripts.set(name, def.lua);
  } else if (existing !== def.lua) {
    throw new Error(`redis: script "${name}" is already defined with a different body`);
  }
  const call = (redis as unknown as Record<string, (...a: unknown[]) => Promise<R>>)[name]!.bind(redis);
  return (keys, args = []) => {
    if (keys.length !== def.numberOfKeys) {
      return Promise.reject(new Error(`redis: script "${name}" takes ${def.numberOfKeys} keys, got ${keys.length}`));
    }
    return call(...keys, ...args);
  };
}
