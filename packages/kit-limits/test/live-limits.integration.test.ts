import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { startRedisServer } from '@feedback/dev-stack';
import { connectMongo, createRedis, waitForRedis, type MongoHandle, type Redis } from '@feedback/kit-stores';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  mongoLimitsStore,
  redisLimitsChanges,
  startLiveLimits,
  TierLimiter,
  type LimitsConfig,
  type RunningLiveLimits,
} from '../src/index.js';
import { freePort, logger, sleep, stack, uniq } from './stack.js';

const tiers = (...t: [number, number][]): LimitsConfig => ({
  enabled: true,
  tiers: t.map(([limit, windowSeconds], i) => ({ name: `t${i}`, limit, windowSeconds })),
});

/** Polls until `check` holds or `ms` pass; answers whether it held. */
async function within(ms: number, check: () => boolean): Promise<boolean> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) return false;
    await sleep(50);
  }
  return true;
}

/**
 * Two "replicas" of the live limits on the stack's MongoDB (a database of their own) and Redis (a
 * channel of their own), each with its own Redis connections, as two gateway processes have. Their
 * periodic re-read is an hour away, so only the published notice can carry a change.
 */
describe('live limits across two replicas (MongoDB store, Redis notices)', () => {
  const dbName = uniq('kit_limits_test').replace(/-/g, '_');
  const channel = uniq('sms-limits-test');
  let mongo: MongoHandle;
  const clients: Redis[] = [];
  const replicas: RunningLiveLimits[] = [];
  const redisClient = async (name: string) => {
    const r = createRedis({ url: stack.redis_url, logger, name });
    clients.push(r);
    await waitForRedis(r);
    return r;
  };
  const replica = async (name: string) => {
    const publisher = await redisClient(`${name}-pub`);
    const subscriber = await redisClient(`${name}-sub`);
    const running = await startLiveLimits({
      store: mongoLimitsStore(mongo.db, logger),
      changes: redisLimitsChanges({ publisher, subscriber, channel, logger }),
      file: undefined,
      logger,
      refreshEveryMs: 3_600_000,
    });
    replicas.push(running);
    return { ...running, publisher };
  };

  beforeAll(async () => {
    mongo = await connectMongo({ url: stack.mongo_url, dbName, logger });
  });
  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.close()));
    for (const c of clients) c.disconnect();
    await mongo?.db.dropDatabase().catch(() => undefined);
    await mongo?.close();
  });

  it('a change stored through one replica is in force in the other within 5 s, and so is its reset', async () => {
    const a = await replica('a');
    const b = await replica('b');
    // Both subscribed (the first subscription also re-reads): nothing stored yet, the defaults.
    expect(b.limits.deployment().origin).toBe('default');
    await sleep(200);

    await a.limits.set({ kind: 'deployment' }, tiers([3, 30]));
    expect(await within(5_000, () => b.limits.deployment().origin === 'stored')).toBe(true);
    expect(b.limits.current()).toEqual(tiers([3, 30]));

    await a.limits.set({ kind: 'account', accountId: 'acc-1' }, tiers([1, 10]));
    expect(await within(5_000, () => b.limits.account('acc-1').origin === 'account')).toBe(true);
    expect(b.limits.forKey('acc-1')).toEqual(tiers([1, 10]));
    expect(b.limits.forKey('acc-2')).toEqual(tiers([3, 30]));

    await a.limits.reset({ kind: 'account', accountId: 'acc-1' });
    await a.limits.reset({ kind: 'deployment' });
    expect(await within(5_000, () => b.limits.deployment().origin === 'default' && b.limits.accountOverrides === 0)).toBe(true);

    // A limiter over each replica, sharing Redis: b's limiter admits by the account's tiers a set.
    await a.limits.set({ kind: 'account', accountId: 'acc-3' }, tiers([2, 60]));
    expect(await within(5_000, () => b.limits.account('acc-3').origin === 'account')).toBe(true);
    const prefix = uniq('live-limits-test');
    const la = new TierLimiter({ redis: a.publisher, limits: a.limits, logger, prefix });
    const lb = new TierLimiter({ redis: b.publisher, limits: b.limits, logger, prefix });
    expect((await la.admit('acc-3')).admitted).toBe(true);
    expect((await lb.admit('acc-3')).admitted).toBe(true);
    expect((await lb.admit('acc-3')).admitted).toBe(false);
    const usage = await la.usage('acc-3');
    expect(usage.source).toBe('redis');
    expect(usage.tiers).toMatchObject([{ name: 't0', limit: 2, windowSeconds: 60, used: 2 }]);
    expect(usage.tiers[0]!.endsAtMs).toBeGreaterThan(Date.now());
    expect((await la.usage('acc-4')).tiers).toMatchObject([{ limit: 20, used: 0, endsAtMs: null }, {}, {}, {}]);
  });

  it('a replica whose Redis connection dropped re-reads on reconnecting: a notice it missed is not lost', async () => {
    // A private redis-server for the notices, which this test stops and starts again.
    const port = await freePort();
    const start = async () => {
      const server = startRedisServer(port);
      const probe = createRedis({ url: `redis://127.0.0.1:${port}`, logger, name: 'probe' });
      await waitForRedis(probe, 10_000).finally(() => probe.disconnect());
      return server;
    };
    let server: ChildProcess = await start();
    const url = `redis://127.0.0.1:${port}`;
    const subscriber = createRedis({ url, logger, name: 'c-sub' });
    const publisher = createRedis({ url, logger, name: 'c-pub' });
    clients.push(subscriber, publisher);
    await Promise.all([waitForRedis(subscriber), waitForRedis(publisher)]);
    const c = await startLiveLimits({
      store: mongoLimitsStore(mongo.db, logger),
      changes: redisLimitsChanges({ publisher, subscriber, channel, logger }),
      file: undefined,
      logger,
      refreshEveryMs: 3_600_000,
    });
    replicas.push(c);
    try {
      server.kill('SIGKILL');
      await once(server, 'exit');
      // Changed while c cannot hear of it (stored directly: no notice at all).
      await mongoLimitsStore(mongo.db, logger).put({ kind: 'account', accountId: 'acc-missed' }, tiers([4, 40]), new Date());
      expect(c.limits.account('acc-missed').origin).not.toBe('account');
      server = await start();
      expect(await within(10_000, () => c.limits.account('acc-missed').origin === 'account')).toBe(true);
    } finally {
      server.kill('SIGKILL');
    }
  });

  it('ignores a stored document that is not valid limits, keeping the rest', async () => {
    await mongo.db
      .collection('sms_limits')
      .insertOne({ _id: 'account:broken', account_id: 'broken', enabled: true, tiers: [], updated_at: new Date() } as never);
    const snapshot = await mongoLimitsStore(mongo.db, logger).load();
    expect(snapshot.accounts.has('broken')).toBe(false);
    expect(snapshot.accounts.has('acc-3')).toBe(true);
  });
});
