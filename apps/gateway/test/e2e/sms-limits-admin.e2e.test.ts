import { beforeAll, describe, expect, it } from 'vitest';
import { stackClient } from './stack-client.js';
import { randomPhone, smsClient } from './sms-client.js';
import { publicError } from '../public-error.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const TIGHT = '"t0";q=2;w=60';

/**
 * An account's own SMS limits set over the admin API against the running stack, in force without a
 * restart. Only per-account limits of this test's fresh accounts change: the deployment's are
 * shared by every test running beside it (their PUT is tested in sms-limits-live.process.test.ts).
 */
describe('per-account SMS limits, live', () => {
  const api = stackClient();
  const sms = smsClient();
  const adminCall = (method: string, path: string, body?: unknown) =>
    api.request(method, `/admin/v1${path}`, {
      headers: { authorization: `Bearer ${api.adminToken}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
  let tight: Awaited<ReturnType<typeof sms.newCampaign>>;
  let other: Awaited<ReturnType<typeof sms.newCampaign>>;
  const share = (s: typeof tight) => sms.share(s.account.apiToken, s.campaignId, { phone_numbers: [randomPhone()] });

  /** Shares until `done` says so or 5 s pass (every gateway replica has the change by then). */
  async function shareUntil(s: typeof tight, done: (r: Awaited<ReturnType<typeof share>>) => boolean) {
    const seen: Awaited<ReturnType<typeof share>>[] = [];
    const until = Date.now() + 5_000;
    for (;;) {
      const r = await share(s);
      seen.push(r);
      if (done(r) || Date.now() > until) return seen;
      await sleep(100);
    }
  }

  beforeAll(async () => {
    [tight, other] = await Promise.all([sms.newCampaign(), sms.newCampaign()]);
  });

  it('a low tier PUT for one account refuses its third request with 429 and the RateLimit headers; another account is not affected', async () => {
    const put = await adminCall('PUT', `/accounts/${tight.account.id}/sms_limits`, { tiers: [{ limit: 2, window_seconds: 60 }] });
    expect(put.status, put.text).toBe(200);
    expect(put.json).toMatchObject({
      account_id: tight.account.id,
      source: 'account',
      enabled: true,
      tiers: [{ name: 't0', limit: 2, window_seconds: 60, used: 0, remaining: 2, resets_at: null }],
      updated_at: expect.any(String),
    });

    const answers = await shareUntil(tight, (r) => r.status === 429);
    const underTight = answers.filter((r) => r.headers.get('ratelimit-policy') === TIGHT);
    expect(underTight.map((r) => r.status)).toEqual([200, 200, 429]);
    const refused = underTight[2]!;
    expect(refused.json).toEqual(publicError('Too many requests', 13005, null));
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.headers.get('ratelimit')).toBe(`"t0";r=0;t=${retryAfter}`);

    const usage = await adminCall('GET', `/accounts/${tight.account.id}/sms_limits`);
    expect(usage.status).toBe(200);
    expect(usage.json).toMatchObject({ source: 'account', usage_from: 'redis', tiers: [{ limit: 2, used: 2, remaining: 0 }] });
    const resetsAt = Date.parse((usage.json.tiers as unknown as { resets_at: string }[])[0]!.resets_at);
    expect(resetsAt).toBeGreaterThan(Date.now());

    const elsewhere = await share(other);
    expect(elsewhere.status, elsewhere.text).toBe(200);
    expect(elsewhere.headers.get('ratelimit-policy')).not.toBe(TIGHT);
    const otherLimits = await adminCall('GET', `/accounts/${other.account.id}/sms_limits`);
    expect(otherLimits.json.source).not.toBe('account');
  });

  it("DELETE removes the account's own limits: it follows the deployment's again and is admitted", async () => {
    const removed = await adminCall('DELETE', `/accounts/${tight.account.id}/sms_limits`);
    expect(removed.status, removed.text).toBe(200);
    expect(removed.json.source).not.toBe('account');

    const answers = await shareUntil(tight, (r) => r.status === 200);
    expect(answers.at(-1)!.status).toBe(200);
    expect(answers.at(-1)!.headers.get('ratelimit-policy')).not.toBe(TIGHT);

    const again = await adminCall('DELETE', `/accounts/${tight.account.id}/sms_limits`);
    expect(again.status).toBe(404);
    expect(again.json).toEqual(publicError('Requested resource not found!', 13002, { sms_limits: tight.account.id }));
  });

  it('answers 400 naming the field for a bad body, 404 for an unknown account, 401 without the admin token', async () => {
    const dup = await adminCall('PUT', `/accounts/${other.account.id}/sms_limits`, {
      tiers: [
        { name: 'a', limit: 1, window_seconds: 1 },
        { name: 'a', limit: 2, window_seconds: 2 },
      ],
    });
    expect(dup.status).toBe(400);
    expect(dup.json.errors).toEqual({ 'body.tiers[1].name': 'duplicate tier name "a"' });
    const none = await adminCall('PUT', `/accounts/${other.account.id}/sms_limits`, { enabled: true });
    expect(none.status).toBe(400);
    expect(Object.keys(none.json.errors!)).toEqual(['body.tiers']);
    const zero = await adminCall('PUT', `/accounts/${other.account.id}/sms_limits`, { tiers: [{ limit: 0, window_seconds: 5 }] });
    expect(zero.status).toBe(400);
    expect(Object.keys(zero.json.errors!)).toEqual(['body.tiers[0].limit']);

    const unknown = await adminCall('GET', '/accounts/no-such-account/sms_limits');
    expect(unknown.status).toBe(404);
    expect(unknown.json.errors).toEqual({ account_id: 'no-such-account' });
    const putUnknown = await adminCall('PUT', '/accounts/no-such-account/sms_limits', { enabled: false });
    expect(putUnknown.status).toBe(404);

    // The deployment's tiers in force, as a gauge on the gateway's metrics port (whatever they are now).
    const deployment = await adminCall('GET', '/sms_limits');
    const metricsUrl = api.stack.metrics?.gateway;
    if (metricsUrl && deployment.json.enabled) {
      const metrics = await (await fetch(`${metricsUrl}/metrics`)).text();
      const [first] = deployment.json.tiers as unknown as { name: string; limit: number; window_seconds: number }[];
      expect(metrics).toContain(
        `sms_limits_tier_limit{tier="${first!.name}",window_seconds="${first!.window_seconds}",source="${deployment.json.source}",app="gateway"} ${first!.limit}`,
      );
    }

    const anonymous = await api.request('GET', '/admin/v1/sms_limits');
    expect(anonymous.status).toBe(401);
    const withApiToken = await api.request('GET', `/admin/v1/accounts/${other.account.id}/sms_limits`, {
      headers: { authorization: `Token token=${other.account.apiToken}` },
    });
    expect(withApiToken.status).toBe(401);
  });
});
