import { randomUUID } from 'node:crypto';
import { createLogger } from '@feedback/kit-core/runtime';
import { readStackFile } from '@feedback/dev-stack';
import { createRedis, waitForRedis, type Redis } from '@feedback/kit-stores';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClickLimit } from '../src/links/click-limit.js';

const logger = createLogger('gateway-test', 'silent');
const code = () => `L${randomUUID().slice(0, 8)}`;

// A real Redis (the local stack's), never a mock: a link's limit must hold across gateway replicas at once.
describe('ClickLimit', () => {
  let redis: Redis;
  beforeAll(async () => {
    redis = createRedis({ url: readStackFile().redis_url, logger, name: 'gateway-test' });
    await waitForRedis(redis);
  });
  afterAll(() => redis?.disconnect());

  it('lets max clicks through across replicas and refuses the next on any of them', async () => {
    const c = code();
    const [a, b] = [new ClickLimit(redis, logger), new ClickLimit(redis, logger)];
    expect(await a.hasRoom(c, 2)).toBe(true);
    expect(await a.take(c, 2)).toBe(true);
    expect(await b.take(c, 2)).toBe(true);
    expect(await b.hasRoom(c, 2)).toBe(false);
    expect(await a.take(c, 2)).toBe(false);
    // Another link counts apart.
    expect(await b.take(code(), 2)).toBe(true);
  });

  it("keeps a counter as long as its link: the link's current expiry, none without one", async () => {
    const c = code();
    const limit = new ClickLimit(redis, logger);
    const expiresAtMs = Date.now() + 3_600_000;
    await limit.take(c, 5, expiresAtMs);
    const ttl = await redis.pttl(`link-clicks:v1:${c}`);
    expect(ttl).toBeGreaterThan(3_500_000);
    expect(ttl).toBeLessThanOrEqual(3_600_000);
    // The expiry cleared by a PATCH: the counter stays with the link.
    await limit.take(c, 5);
    expect(await redis.pttl(`link-clicks:v1:${c}`)).toBe(-1);
    expect(await redis.get(`link-clicks:v1:${c}`)).toBe('2');
    await redis.del(`link-clicks:v1:${c}`);
  });

  it('counts in process while Redis is away (each replica on its own), never refusing a link with room', async () => {
    const c = code();
    const offline = new ClickLimit(null, logger);
    expect(await offline.take(c, 1)).toBe(true);
    expect(await offline.hasRoom(c, 1)).toBe(false);
    expect(await offline.take(c, 1)).toBe(false);
  });
});
