import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { freePort, startRedisServer } from '@feedback/dev-stack';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedis, defineScript, waitForRedis, type Redis } from '../src/index.js';
import { logger, stack, uniqueName } from './stack.js';

const ADMIT_BELOW_LIMIT = `
local n = tonumber(redis.call('GET', KEYS[1]) or '0')
if n >= tonumber(ARGV[1]) then return 0 end
redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
`;

describe('redis', () => {
  let redis: Redis;

  beforeAll(async () => {
    redis = createRedis({ url: stack.redis_url, logger, name: 'kit-stores-test' });
    await waitForRedis(redis, 5_000);
  });
  afterAll(() => redis?.disconnect());

  it('runs a Lua script atomically: 200 concurrent admissions against a limit of 50 admit 50', async () => {
    const admit = defineScript<number>(redis, 'admitBelowLimit', { numberOfKeys: 1, lua: ADMIT_BELOW_LIMIT });
    const key = uniqueName('kit-stores:limit');
    const replies = await Promise.all(Array.from({ length: 200 }, () => admit([key], [50, 60_000])));
    expect(replies.filter((r) => r === 1)).toHaveLength(50);
    expect(replies.filter((r) => r === 0)).toHaveLength(150);
    expect(await redis.get(key)).toBe('50');
    await redis.del(key);
  });

  it('defineScript checks the key count and refuses a conflicting redefinition', async () => {
    const admit = defineScript<number>(redis, 'admitBelowLimit', { numberOfKeys: 1, lua: ADMIT_BELOW_LIMIT });
    await expect(admit(['a', 'b'], [1, 1])).rejects.toThrow(/takes 1 keys/);
    expect(() => defineScript(redis, 'admitBelowLimit', { numberOfKeys: 1, lua: 'return 1' })).toThrow(/different body/);
    expect(() => defineScript(redis, 'get', { numberOfKeys: 1, lua: 'return 1' })).toThrow(/already has/);
  });

  describe('with its server gone', () => {
    let server: ChildProcess;
    let port: number;
    let victim: Redis;

    beforeAll(async () => {
      port = await freePort();
      server = startRedisServer(port);
      victim = createRedis({ url: `redis://127.0.0.1:${port}`, logger, name: 'kit-stores-victim' });
      await waitForRedis(victim, 10_000);
    });
    afterAll(() => {
      victim?.disconnect();
      if (server && server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
    });

    it('rejects commands within a bound instead of queueing them', async () => {
      expect(await victim.set('k', 'v')).toBe('OK');
      server.kill('SIGKILL');
      await once(server, 'exit');

      // Right after the kill (the client may not have noticed yet) and once it is reconnecting.
      for (const pause of [0, 500]) {
        await new Promise((r) => setTimeout(r, pause));
        const started = Date.now();
        // The race turns a hang into a clear failure rather than a test timeout.
        const outcome = await Promise.race([
          victim.get('k').then(
            () => 'resolved',
            (err: Error) => err,
          ),
          new Promise((r) => setTimeout(r, 10_000, 'still pending after 10 s')),
        ]);
        const elapsed = Date.now() - started;
        expect(outcome).toBeInstanceOf(Error);
        expect(elapsed).toBeLessThan(3_000);
      }
      expect(victim.status).not.toBe('ready');
    });

    it('waitForRedis gives up after its timeout', async () => {
      const started = Date.now();
      await expect(waitForRedis(victim, 500)).rejects.toThrow(/not ready within 500 ms/);
      expect(Date.now() - started).toBeLessThan(3_000);
    });
  });
});
