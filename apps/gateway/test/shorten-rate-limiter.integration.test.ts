import { randomUUID } from 'node:crypto';
import { createLogger } from '@feedback/kit-core/runtime';
import { readStackFile } from '@feedback/dev-stack';
import { createRedis, waitForRedis, type Redis } from '@feedback/kit-stores';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createShortenLimiter } from '../src/links/shorten.limiter.js';

const logger = createLogger('gateway-test', 'silent');
// Unique per run, so a rerun within the window starts from a fresh key.
const ip = () => `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;

// A real Redis (the local stack's), and a client to nowhere for the outage.
describe('shorten rate limiter', () => {
  let redis: Redis;
  beforeAll(async () => {
    redis = createRedis({ url: readStackFile().redis_url, logger, name: `gateway-test-${randomUUID().slice(0, 6)}` });
    await waitForRedis(redis);
  });
  afterAll(() => redis?.disconnect());

  it('admits `points` requests per window and IP, then refuses with the wait', async () => {
    const limiter = createShortenLimiter({ redis, points: 3, windowSec: 60, exempt: [], logger });
    const client = ip();
    const decisions = [];
    for (let i = 0; i < 4; i++) decisions.push(await limiter.consume(client));
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, false]);
    expect(decisions[2]).toMatchObject({ remaining: 0, limit: 3, windowSec: 60 });
    expect(decisions[3]!.resetMs).toBeGreaterThan(55_000);
    expect((await limiter.consume(ip())).allowed).toBe(true);
  });

  it('never limits exempt addresses, IPv4-mapped ones included', async () => {
    const limiter = createShortenLimiter({ redis, points: 1, windowSec: 60, exempt: ['192.0.2.7'], logger });
    for (let i = 0; i < 5; i++) expect(await limiter.consume('::ffff:192.0.2.7')).toMatchObject({ allowed: true, exempt: true });
  });

  it('keeps limiting, in process and without waiting, while Redis is down', async () => {
    const dead = createRedis({ url: 'redis://127.0.0.1:1', logger, name: 'gateway-test-dead', connectTimeoutMs: 100 });
    try {
      const limiter = createShortenLimiter({ redis: dead, points: 2, windowSec: 60, exempt: [], logger });
      const started = Date.now();
      const client = ip();
      const allowed = [];
      for (let i = 0; i < 3; i++) allowed.push((await limiter.consume(client)).allowed);
      expect(allowed).toEqual([true, true, false]);
      expect(Date.now() - started).toBeLessThan(500);
    } finally {
      dead.disconnect();
    }
  });
});
