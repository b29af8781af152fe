import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startRedisServer } from '@feedback/dev-stack';
import { createRedis, waitForRedis, type Redis } from '@feedback/kit-stores';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, staticLimits, TierLimiter, watchLimitsFile, type LimitsConfig } from '../src/index.js';
import { freePort, logger, sleep, stack, uniq } from './stack.js';

const tiers = (...t: [number, number][]): LimitsConfig => ({
  enabled: true,
  tiers: t.map(([limit, windowSeconds], i) => ({ name: `t${i}`, limit, windowSeconds })),
});

describe('TierLimiter against the stack Redis', () => {
  let redis: Redis;
  let second: Redis;

  beforeAll(async () => {
    redis = createRedis({ url: stack.redis_url, logger, name: 'kit-limits-test' });
    second = createRedis({ url: stack.redis_url, logger, name: 'kit-limits-test-2' });
    await Promise.all([waitForRedis(redis), waitForRedis(second)]);
  });
  afterAll(() => {
    redis?.disconnect();
    second?.disconnect();
  });

  it('admits exactly the first tier limit of 50 concurrent requests', async () => {
    const limiter = new TierLimiter({ redis, limits: staticLimits(DEFAULT_LIMITS), logger, prefix: uniq('limit-test') });
    const results = await Promise.all(Array.from({ length: 50 }, () => limiter.admit('account-1')));
    expect(results.filter((r) => r.admitted)).toHaveLength(20);
    const refused = results.filter((r) => !r.admitted);
    expect(refused).toHaveLength(30);
    for (const r of refused) {
      expect(r.source).toBe('redis');
      expect(r.bindingTier).toBe(0);
      if (!r.admitted) expect(r.retryAfterSec).toBeGreaterThanOrEqual(1);
      if (!r.admitted) expect(r.retryAfterSec).toBeLessThanOrEqual(5);
    }
    // Every tier counted the 20 admitted requests, and only those.
    const last = await limiter.admit('account-1');
    expect(last.tiers.map((t) => t.remaining)).toEqual([0, 20, 60, 140]);
    // Another key has its own limits.
    expect((await limiter.admit('account-2')).admitted).toBe(true);
  });

  it('a refused request consumes nothing in the tiers that had room', async () => {
    const prefix = uniq('limit-test');
    const limiter = new TierLimiter({ redis, limits: staticLimits(tiers([5, 60], [3, 60])), logger, prefix });
    for (let i = 0; i < 3; i++) expect((await limiter.admit('acc')).admitted).toBe(true);
    for (let i = 0; i < 10; i++) {
      const r = await limiter.admit('acc');
      expect(r.admitted).toBe(false);
      expect(r.bindingTier).toBe(1);
    }
    expect(await redis.hget(`${prefix}:{acc}:0:60`, 'n')).toBe('3');
    expect(await redis.hget(`${prefix}:{acc}:1:60`, 'n')).toBe('3');
    const state = await limiter.admit('acc');
    expect(state.tiers[0]!.remaining).toBe(2);
    // Keys expire with their window.
    const ttl = await redis.pttl(`${prefix}:{acc}:0:60`);
    expect(ttl).toBeGreaterThan(50_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it('opens a new window once the old one has ended', async () => {
    const limiter = new TierLimiter({ redis, limits: staticLimits(tiers([1, 1])), logger, prefix: uniq('limit-test') });
    expect((await limiter.admit('acc')).admitted).toBe(true);
    expect((await limiter.admit('acc')).admitted).toBe(false);
    await sleep(1_100);
    expect((await limiter.admit('acc')).admitted).toBe(true);
  });

  it('two limiters (two gateway processes) share one limit', async () => {
    const prefix = uniq('limit-test');
    const a = new TierLimiter({ redis, limits: staticLimits(DEFAULT_LIMITS), logger, prefix });
    const b = new TierLimiter({ redis: second, limits: staticLimits(DEFAULT_LIMITS), logger, prefix });
    const results = await Promise.all(Array.from({ length: 60 }, (_, i) => (i % 2 ? a : b).admit('shared')));
    expect(results.filter((r) => r.admitted)).toHaveLength(20);
    expect(results.every((r) => r.source === 'redis')).toBe(true);
  });

  it('picks up a changed config file without a restart and keeps the old one when the new is broken', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'limits-'));
    const file = join(dir, 'limits.json');
    writeFileSync(file, JSON.stringify({ tiers: [{ limit: 2, window_seconds: 60 }] }));
    const source = watchLimitsFile({ path: file, logger, intervalMs: 100 });
    try {
      const limiter = new TierLimiter({ redis, limits: source, logger, prefix: uniq('limit-test') });
      expect((await limiter.admit('acc')).admitted).toBe(true);
      expect((await limiter.admit('acc')).admitted).toBe(true);
      expect((await limiter.admit('acc')).admitted).toBe(false);

      // Replaced the way editors and config maps do it: a new file renamed over the old one.
      writeFileSync(`${file}.new`, JSON.stringify({ tiers: [{ limit: 4, window_seconds: 60 }] }));
      renameSync(`${file}.new`, file);
      await waitUntil(() => source.current().tiers[0]!.limit === 4);
      // Same window length, same counter: two used, two more allowed.
      expect((await limiter.admit('acc')).admitted).toBe(true);
      expect((await limiter.admit('acc')).admitted).toBe(true);
      expect((await limiter.admit('acc')).admitted).toBe(false);

      writeFileSync(file, JSON.stringify({ tiers: [{ limit: 'many', window_seconds: 60 }] }));
      await sleep(400);
      expect(source.current().tiers[0]!.limit).toBe(4);

      writeFileSync(file, JSON.stringify({ enabled: false, tiers: [] }));
      await waitUntil(() => !source.current().enabled);
      const r = await limiter.admit('acc');
      expect(r).toMatchObject({ admitted: true, source: 'disabled' });
    } finally {
      source.close();
    }
  });

  it('fails start-up on a broken file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'limits-'));
    const file = join(dir, 'limits.yaml');
    writeFileSync(file, 'tiers:\n  - limit: -1\n    window_seconds: 5\n');
    expect(() => watchLimitsFile({ path: file, logger })).toThrow(/tiers\.0\.limit/);
  });
});

describe('TierLimiter without Redis', () => {
  it('decides in-process within a second when Redis was never reachable', async () => {
    const port = await freePort();
    const redis = createRedis({ url: `redis://127.0.0.1:${port}`, logger, name: 'kit-limits-closed' });
    try {
      const limiter = new TierLimiter({ redis, limits: staticLimits(tiers([3, 60])), logger, prefix: uniq('limit-test') });
      const started = Date.now();
      const results = [];
      for (let i = 0; i < 5; i++) results.push(await limiter.admit('acc'));
      expect(Date.now() - started).toBeLessThan(1_000);
      expect(results.map((r) => r.admitted)).toEqual([true, true, true, false, false]);
      expect(results.every((r) => r.source === 'memory')).toBe(true);
      expect(limiter.degraded).toBe(true);
    } finally {
      redis.disconnect();
    }
  });

  describe('when its Redis dies and comes back', () => {
    let server: ChildProcess | undefined;
    let port: number;
    let redis: Redis;

    const startServer = async () => {
      server = startRedisServer(port);
    };

    beforeAll(async () => {
      port = await freePort();
      await startServer();
      redis = createRedis({ url: `redis://127.0.0.1:${port}`, logger, name: 'kit-limits-victim' });
      await waitForRedis(redis, 10_000);
    });
    afterAll(() => {
      redis?.disconnect();
      if (server && server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
    });

    it('switches to the fallback within a second, never hanging, and back to Redis later', async () => {
      const limiter = new TierLimiter({ redis, limits: staticLimits(tiers([100, 60])), logger, prefix: uniq('limit-test') });
      expect((await limiter.admit('acc')).source).toBe('redis');

      server!.kill('SIGKILL');
      await once(server!, 'exit');
      for (let i = 0; i < 5; i++) {
        const started = Date.now();
        const r = await Promise.race([limiter.admit('acc'), sleep(5_000).then(() => 'hung' as const)]);
        expect(r).not.toBe('hung');
        expect(Date.now() - started).toBeLessThan(1_000);
        if (r !== 'hung') expect(r).toMatchObject({ admitted: true, source: 'memory' });
        await sleep(100);
      }

      await startServer();
      await waitForRedis(redis, 10_000);
      await waitUntil(async () => (await limiter.admit('acc')).source === 'redis', 10_000);
      expect(limiter.degraded).toBe(false);
    });
  });
});

async function waitUntil(cond: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await sleep(50);
  }
}
