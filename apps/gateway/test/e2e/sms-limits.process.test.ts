import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startRedisServer } from '@feedback/dev-stack';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startGatewayProcess, type GatewayProcess } from './gateway-process.js';
import { randomPhone, smsClient } from './sms-client.js';
import { publicError } from '../public-error.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The four-tier SMS sharing limit as deployed: two more gateway processes beside the stack's,
 * sharing its Redis, read a short-window tier file (SMS_LIMITS_FILE). Every request is real:
 * an admitted one creates a sharing through the stack's messaging service.
 */
describe('SMS sharing limits across two gateway processes', () => {
  const sms = smsClient();
  const dir = mkdtempSync(join(tmpdir(), 'sms-limits-'));
  const limitsFile = join(dir, 'sms-limits.yaml');
  // Replaced by a rename, as editors and ConfigMap updates do.
  const writeLimits = (text: string) => {
    writeFileSync(`${limitsFile}.tmp`, text);
    renameSync(`${limitsFile}.tmp`, limitsFile);
  };
  let setup: Awaited<ReturnType<typeof sms.newCampaign>>;
  let stopped: Awaited<ReturnType<typeof sms.newCampaign>>;
  let a: GatewayProcess;
  let b: GatewayProcess;

  const share = (gw: GatewayProcess, s: typeof setup) =>
    fetch(`${gw.baseUrl}/v1/sms_campaigns/${s.campaignId}/sms_sharings`, {
      method: 'POST',
      headers: { authorization: `Token token=${s.account.apiToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ phone_numbers: [randomPhone()] }),
    });

  beforeAll(async () => {
    writeLimits('tiers:\n  - { name: burst, limit: 5, window_seconds: 30 }\n  - { name: slow, limit: 8, window_seconds: 120 }\n');
    [setup, stopped] = await Promise.all([sms.newCampaign(), sms.newCampaign()]);
    const env = { SMS_LIMITS_FILE: limitsFile, SMS_DISABLED_ACCOUNTS: stopped.account.id };
    [a, b] = await Promise.all([startGatewayProcess(env), startGatewayProcess(env)]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([a?.kill(), b?.kill()]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('admits exactly 5 of 24 concurrent requests split over both processes; every 429 says when to retry', async () => {
    const answers = await Promise.all(Array.from({ length: 24 }, (_, i) => share(i % 2 ? a : b, setup)));
    const admitted = answers.filter((r) => r.status === 200);
    const refused = answers.filter((r) => r.status === 429);
    expect(admitted).toHaveLength(5);
    expect(refused).toHaveLength(19);
    for (const r of answers) expect(r.headers.get('ratelimit-policy')).toBe('"burst";q=5;w=30, "slow";q=8;w=120');
    for (const r of refused) {
      expect(await r.json()).toEqual(publicError('Too many requests', 13005, null));
      const retryAfter = Number(r.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(30);
      // The binding tier is the full one; its reset is the Retry-After.
      expect(r.headers.get('ratelimit')).toBe(`"burst";r=0;t=${retryAfter}`);
    }
  }, 30_000);

  it('answers 403 / 13013 for an account whose SMS sharing the operator stopped, repeating the message in data', async () => {
    const res = await share(a, stopped);
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual(publicError('Permission denied', 13013, null));
  });

  it('applies a changed tier file without a restart, in both processes', async () => {
    const fresh = await sms.newCampaign();
    writeLimits('tiers:\n  - { name: tight, limit: 2, window_seconds: 60 }\n');
    // Each process checks the file once a second.
    await sleep(2_500);
    const statuses = [];
    for (const gw of [a, b, a]) {
      const r = await share(gw, fresh);
      expect(r.headers.get('ratelimit-policy')).toBe('"tight";q=2;w=60');
      statuses.push(r.status);
    }
    expect(statuses).toEqual([200, 200, 429]);

    writeLimits('enabled: false\n');
    await sleep(2_500);
    for (const gw of [a, b]) {
      const r = await share(gw, fresh);
      expect(r.status).toBe(200);
      expect(r.headers.get('ratelimit-policy')).toBeNull();
    }
  }, 30_000);
});

describe('SMS sharing limits when Redis goes away', () => {
  const sms = smsClient();
  let redis: ChildProcess;
  let gw: GatewayProcess;
  let setup: Awaited<ReturnType<typeof sms.newCampaign>>;
  const dir = mkdtempSync(join(tmpdir(), 'sms-limits-'));

  // A private redis-server: the stack's shared one must stay up for everyone else.
  beforeAll(async () => {
    const port = await freePort();
    redis = startRedisServer(port);
    writeFileSync(join(dir, 'limits.json'), JSON.stringify({ tiers: [{ limit: 3, window_seconds: 60 }] }));
    setup = await sms.newCampaign();
    gw = await startGatewayProcess({ REDIS_URL: `redis://127.0.0.1:${port}`, SMS_LIMITS_FILE: join(dir, 'limits.json') });
  }, 120_000);
  afterAll(async () => {
    await gw?.kill();
    if (redis && redis.exitCode === null && redis.signalCode === null) redis.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('falls back to the in-process limiter at once: answers within a second, still limiting', async () => {
    const share = () =>
      fetch(`${gw.baseUrl}/v1/sms_campaigns/${setup.campaignId}/sms_sharings`, {
        method: 'POST',
        headers: { authorization: `Token token=${setup.account.apiToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ phone_numbers: [randomPhone()] }),
        signal: AbortSignal.timeout(5_000),
      });
    expect((await share()).status).toBe(200); // counted in Redis

    redis.kill('SIGKILL');
    await once(redis, 'exit');
    const statuses = [];
    for (let i = 0; i < 5; i++) {
      const t0 = Date.now();
      const r = await share();
      // The limiter's part is at most its 300 ms Redis timeout; the rest is the sharing itself.
      expect(Date.now() - t0).toBeLessThan(1_000);
      expect(r.headers.get('ratelimit-policy')).toBe('"t0";q=3;w=60');
      statuses.push(r.status);
    }
    // The fallback counts from zero in this process: 3 more admitted, then refused.
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
  }, 30_000);
});
