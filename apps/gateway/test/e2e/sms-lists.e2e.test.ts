import { beforeAll, describe, expect, it } from 'vitest';
import { ERROR_KEYS } from './stack-client.js';
import { randomPhone, smsClient, waitFor } from './sms-client.js';

type Page = { data: Record<string, unknown>[]; next_page_token: string | null };

// The lists of campaigns and sharings (docs/api.md "Lists of campaigns and sharings") over HTTP.
describe('lists of SMS campaigns and sharings', () => {
  const sms = smsClient();
  let setup: Awaited<ReturnType<typeof sms.newCampaign>>;
  let other: Awaited<ReturnType<typeof sms.newCampaign>>;
  let second: string;
  /** The account's sharings, oldest first: now (c1), later then cancelled (c1), now (c2), later (c2). */
  let ids: { now1: string; cancelled1: string; now2: string; later2: string };
  let foreignSharing: string;

  const get = (path: string, token = setup.account.apiToken) =>
    sms.request('GET', path, { headers: { authorization: `Token token=${token}` } });
  const ok = async (path: string) => {
    const res = await get(path);
    expect(res.status, `${path}: ${res.text}`).toBe(200);
    return res.json as unknown as Page;
  };
  const idsOf = (p: Page) => p.data.map((s) => s.id);
  /** Every item of a list, a page of `size` at a time. */
  const walk = async (path: string, size: number) => {
    const seen: unknown[] = [];
    let token: string | null = null;
    for (let n = 0; n < 20; n++) {
      const sep = path.includes('?') ? '&' : '?';
      const page: Page = await ok(`${path}${sep}page_size=${size}${token ? `&page_token=${token}` : ''}`);
      expect(page.data.length).toBeLessThanOrEqual(size);
      seen.push(...idsOf(page));
      token = page.next_page_token;
      if (!token) break;
    }
    return seen;
  };
  const share = async (campaignId: string, body: Record<string, unknown>, token = setup.account.apiToken) => {
    const res = await sms.share(token, campaignId, { phone_numbers: [randomPhone()], ...body });
    expect(res.status, res.text).toBe(200);
    return res.json.id as string;
  };

  beforeAll(async () => {
    [setup, other] = await Promise.all([sms.newCampaign(), sms.newCampaign()]);
    const c2 = await sms.admin('POST', `/accounts/${setup.account.id}/sms_campaigns`, {
      name: 'Second campaign',
      node_id: setup.nodeId,
      flow_id: setup.flowId,
      message_template: 'Hi {{link}}',
    });
    second = c2.id!;
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
    const now1 = await share(setup.campaignId, {});
    const cancelled1 = await share(setup.campaignId, { send_at: tomorrow });
    const cancel = await sms.request('DELETE', `/v1/sms_sharings/${cancelled1}`, {
      headers: { authorization: `Token token=${setup.account.apiToken}` },
    });
    expect(cancel.status, cancel.text).toBe(200);
    const now2 = await share(second, {});
    const later2 = await share(second, { send_at: tomorrow });
    ids = { now1, cancelled1, now2, later2 };
    foreignSharing = await share(other.campaignId, {}, other.account.apiToken);
  });

  it("lists the account's sharings newest first with what each stores and its status, never another account's", async () => {
    const page = await ok('/v1/sms_sharings');
    expect(idsOf(page)).toEqual([ids.later2, ids.now2, ids.cancelled1, ids.now1]);
    expect(idsOf(page)).not.toContain(foreignSharing);
    expect(page.next_page_token).toBeNull();
    const [later2, , cancelled1] = page.data;
    expect(Object.keys(later2!).sort()).toEqual(
      [
        'accepted',
        'campaign_id',
        'cancelled_at',
        'completed_at',
        'created_at',
        'duplicate',
        'id',
        'rejected',
        'scheduled_for',
        'status',
        'totals',
        'funnel',
        'segments',
      ].sort(),
    );
    expect(later2).toMatchObject({ campaign_id: second, status: 'scheduled', accepted: 1, rejected: 0, duplicate: 0, cancelled_at: null });
    expect(later2!.scheduled_for).toMatch(/\+00:00$/);
    expect(cancelled1).toMatchObject({ campaign_id: setup.campaignId, status: 'cancelled', completed_at: null });
    expect(cancelled1!.cancelled_at).toMatch(/\+00:00$/);
    // A sharing sent at once completes when its message is settled (the completion sweep, every few seconds).
    const completed = await waitFor('the first sharing to complete', async () => {
      const p = await ok('/v1/sms_sharings?status=completed');
      return p.data.find((s) => s.id === ids.now1);
    });
    expect(completed.completed_at).toMatch(/\+00:00$/);
    expect(completed.status).toBe('completed');
  }, 60_000);

  it('filters by campaign, status and creation range, the same through the campaign path, and pages through each', async () => {
    expect(await walk('/v1/sms_sharings', 1)).toEqual([ids.later2, ids.now2, ids.cancelled1, ids.now1]);
    expect(await walk(`/v1/sms_sharings?campaign_id=${setup.campaignId}`, 1)).toEqual([ids.cancelled1, ids.now1]);
    expect(await walk(`/v1/sms_campaigns/${second}/sms_sharings`, 1)).toEqual([ids.later2, ids.now2]);
    expect(idsOf(await ok('/v1/sms_sharings?status=scheduled'))).toEqual([ids.later2]);
    expect(idsOf(await ok(`/v1/sms_campaigns/${setup.campaignId}/sms_sharings?status=cancelled`))).toEqual([ids.cancelled1]);
    expect(idsOf(await ok(`/v1/sms_campaigns/${setup.campaignId}/sms_sharings?status=scheduled`))).toEqual([]);
    // created_after is inclusive, created_before exclusive: the bounds of now2 split the list there.
    const all = (await ok('/v1/sms_sharings')).data;
    const at = encodeURIComponent(String(all.find((s) => s.id === ids.now2)!.created_at));
    expect(await walk(`/v1/sms_sharings?created_after=${at}`, 1)).toEqual([ids.later2, ids.now2]);
    expect(await walk(`/v1/sms_sharings?created_before=${at}`, 1)).toEqual([ids.cancelled1, ids.now1]);
    expect(idsOf(await ok('/v1/sms_sharings?created_before=2020-01-01'))).toEqual([]);
  });

  it('refuses bad filters with the error body naming the field', async () => {
    for (const [query, field] of [
      ['status=done', 'status'],
      ['created_after=2026-02-30', 'created_after'],
      ['created_after=2026-11-23&created_before=2026-11-22', 'created_before'],
      ['created_after=yesterday', 'querystring.created_after'],
      ['campaign_id=not-a-uuid', 'querystring.campaign_id'],
      ['page_size=0', 'querystring.page_size'],
    ]) {
      const res = await get(`/v1/sms_sharings?${query}`);
      expect(res.status, `${query}: ${res.text}`).toBe(400);
      expect(Object.keys(res.json).sort()).toEqual(ERROR_KEYS);
      expect(res.json.code).toBe(13000);
      expect(res.json.errors, query).toHaveProperty([field!]);
    }
  });

  it("answers another account's campaign 404 like an unknown one, in the query and in the path", async () => {
    for (const campaignId of [other.campaignId, '00000000-0000-4000-8000-000000000000']) {
      for (const path of [`/v1/sms_sharings?campaign_id=${campaignId}`, `/v1/sms_campaigns/${campaignId}/sms_sharings`]) {
        const res = await get(path);
        expect(res.status, `${path}: ${res.text}`).toBe(404);
        expect(res.json.code).toBe(13002);
        expect(res.json.errors).toEqual({ campaign_id: campaignId });
      }
    }
    // The other account sees its own sharing only.
    const theirs = await get('/v1/sms_sharings', other.account.apiToken);
    expect(idsOf(theirs.json as unknown as Page)).toEqual([foreignSharing]);
  });

  it("lists the account's campaigns newest first: id, name, flow and date only, a page at a time", async () => {
    const page = await ok('/v1/sms_campaigns');
    expect(page.data).toEqual([
      { id: second, name: 'Second campaign', flow_id: setup.flowId, created_at: expect.stringMatching(/\+00:00$/) },
      { id: setup.campaignId, name: 'After-visit SMS', flow_id: setup.flowId, created_at: expect.stringMatching(/\+00:00$/) },
    ]);
    expect(await walk('/v1/sms_campaigns', 1)).toEqual([second, setup.campaignId]);
    expect(idsOf((await get('/v1/sms_campaigns', other.account.apiToken)).json as unknown as Page)).toEqual([other.campaignId]);
  });

  it('answers the same lists on the admin API, paged, and 404 for an unknown account', async () => {
    const admin = (path: string) => sms.request('GET', `/admin/v1${path}`, { headers: { authorization: `Bearer ${sms.adminToken}` } });
    const sharings = await admin(`/accounts/${setup.account.id}/sms_sharings?campaign_id=${setup.campaignId}&page_size=1`);
    expect(sharings.status, sharings.text).toBe(200);
    expect(idsOf(sharings.json as unknown as Page)).toEqual([ids.cancelled1]);
    const rest = await admin(
      `/accounts/${setup.account.id}/sms_sharings?campaign_id=${setup.campaignId}&page_token=${sharings.json.next_page_token}`,
    );
    expect(idsOf(rest.json as unknown as Page)).toEqual([ids.now1]);
    expect((await admin(`/accounts/${other.account.id}/sms_sharings?campaign_id=${setup.campaignId}`)).status).toBe(404);

    const campaigns = await admin(`/accounts/${setup.account.id}/sms_campaigns?page_size=1`);
    expect(campaigns.status, campaigns.text).toBe(200);
    expect((campaigns.json as unknown as Page).data).toEqual([expect.objectContaining({ id: second, message_template: 'Hi {{link}}' })]);
    const next = await admin(`/accounts/${setup.account.id}/sms_campaigns?page_token=${campaigns.json.next_page_token}`);
    expect(idsOf(next.json as unknown as Page)).toEqual([setup.campaignId]);
    expect((next.json as unknown as Page).next_page_token).toBeNull();

    for (const path of ['sms_sharings', 'sms_campaigns']) {
      const unknown = await admin(`/accounts/00000000-0000-4000-8000-000000000000/${path}`);
      expect(unknown.status, `${path}: ${unknown.text}`).toBe(404);
    }
  });
});
