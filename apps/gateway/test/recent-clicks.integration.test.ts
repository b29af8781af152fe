import { randomUUID } from 'node:crypto';
import { createLogger } from '@feedback/kit-core/runtime';
import { readStackFile } from '@feedback/dev-stack';
import { createRedis, waitForRedis, type Redis } from '@feedback/kit-stores';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecentClicks } from '../src/links/recent-clicks.js';

const logger = createLogger('gateway-test', 'silent');
const code = () => `C${randomUUID().slice(0, 8)}`;
const client = '203.0.113.7 Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X)';

// A real Redis (the local stack's), never a mock: the window must hold across gateway replicas.
describe('RecentClicks', () => {
  let redis: Redis;
  beforeAll(async () => {
    redis = createRedis({ url: readStackFile().redis_url, logger, name: 'gateway-test' });
    await waitForRedis(redis);
  });
  afterAll(() => redis?.disconnect());

  it("counts a client's first tap of a code once across replicas, and other clients apart", async () => {
    const c = code();
    const replicaA = new RecentClicks(redis, { windowMs: 60_000, maxChars: 100_000, logger });
    const replicaB = new RecentClicks(redis, { windowMs: 60_000, maxChars: 100_000, logger });
    expect(await replicaA.firstInWindow(c, client)).toBe(true);
    expect(await replicaA.firstInWindow(c, client)).toBe(false);
    expect(await replicaB.firstInWindow(c, client)).toBe(false);
    expect(await replicaB.firstInWindow(c, `${client} other`)).toBe(true);
    expect(await replicaB.firstInWindow(code(), client)).toBe(true);
    // Redis holds a digest, never the address or the user agent.
    const keys = await redis.keys('click:v1:*');
    expect(keys.some((k) => k.includes('203.0.113.7') || k.includes(c))).toBe(false);
  });

  it('remembers a client by its alias in process, and asks Redis by the client itself', async () => {
    const c = code();
    const replicaA = new RecentClicks(redis, { windowMs: 60_000, maxChars: 100_000, logger });
    const replicaB = new RecentClicks(redis, { windowMs: 60_000, maxChars: 100_000, logger });
    expect(await replicaA.firstInWindow(c, client, '203.0.113.7 #1')).toBe(true);
    expect(await replicaA.firstInWindow(c, `${client} other`, '203.0.113.7 #1')).toBe(false);
    // Another replica names the user agent otherwise: Redis still knows the client.
    expect(await replicaB.firstInWindow(c, client, '203.0.113.7 #9')).toBe(false);
  });

  it('counts a burst of concurrent taps on two replicas once', async () => {
    const c = code();
    const replicas = [0, 1].map(() => new RecentClicks(redis, { windowMs: 60_000, maxChars: 100_000, logger }));
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => replicas[i % 2]!.firstInWindow(c, client)));
    expect(answers.filter(Boolean)).toHaveLength(1);
  });

  it('counts the same client again once its window has passed', async () => {
    const c = code();
    const recent = new RecentClicks(redis, { windowMs: 300, maxChars: 100_000, logger });
    expect(await recent.firstInWindow(c, client)).toBe(true);
    expect(await recent.firstInWindow(c, client)).toBe(false);
    await new Promise((r) => setTimeout(r, 450));
    expect(await recent.firstInWindow(c, client)).toBe(true);
  });

  it('counts rather than waits while Redis is away, still remembering its own clients', async () => {
    const away = createRedis({ url: 'redis://127.0.0.1:1', logger, name: 'gateway-test-away', connectTimeoutMs: 200 });
    try {
      const recent = new RecentClicks(away, { windowMs: 60_000, maxChars: 100_000, logger });
      const c = code();
      expect(recent.firstInWindow(c, client)).toBe(true);
      expect(recent.firstInWindow(c, client)).toBe(false);
    } finally {
      away.disconnect();
    }
  });
});
