import { randomInt, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, call } from './api.js';
import { receiver, verifyAll } from './receiver.js';
import { stack, waitFor } from './stack.js';

// An answer keeps its context (docs/api.md "Responses"): an SMS sharing with custom attributes
// (one of them the TCKN, always sensitive), each recipient's link answered on the survey page,
// then the responses read back, filtered by campaign and sharing, exported, summed up as NPS, and
// pushed as survey.answered with the very answers the REST API shows.

const phone = () => `90532${String(randomInt(0, 10_000_000)).padStart(7, '0')}`;

interface ResponseView {
  id: string;
  channel_id: string;
  campaign_id: string | null;
  sharing_id: string | null;
  message_id: string | null;
  custom_attributes: Record<string, string> | null;
  answers: Record<string, unknown>;
}

describe('answers keep their context', () => {
  const rx = receiver();
  let token: string;
  let campaignId: string;
  let flowId: string;
  let sharingId: string;
  let secret: string;
  let accountId: string;
  const [ayse, can] = [phone(), phone()];
  const get = (path: string, as = token) => call('GET', path, { token: as });

  /** The recipient's SMS, its short link followed to the survey page, and the form posted as a browser does. */
  async function answer(accountId: string, to: string, form: string) {
    const text = await waitFor(`the SMS to ${to.slice(0, 5)}…`, async () => {
      const out = await admin('GET', `/accounts/${accountId}/sms_messages?phone=%2B${to}`);
      return (out.data as Array<{ sharing_id: string }>).some((m) => m.sharing_id === sharingId);
    }).then(async () => {
      const out = await admin('GET', `/accounts/${accountId}/sms_messages?phone=%2B${to}`);
      return (out.data as Array<{ sharing_id: string; text: string }>).find((m) => m.sharing_id === sharingId)!.text;
    });
    const short = /(https?:\/\/\S+)$/.exec(text)?.[1] ?? '';
    const tap = await fetch(short, { redirect: 'manual' });
    expect(tap.status, short).toBe(302);
    const page = tap.headers.get('location')!;
    const res = await fetch(page, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(page).origin },
      body: form,
    });
    expect(res.status).toBe(200);
  }

  beforeAll(async () => {
    const origin = await rx.start();
    const account = await admin('POST', '/accounts', { name: 'answer context e2e' });
    accountId = account.id;
    token = (await admin('POST', `/accounts/${account.id}/tokens`, { kind: 'api', name: 'api' })).token;
    const node = await admin('POST', `/accounts/${account.id}/nodes`, { name: 'store' });
    const flow = await admin('POST', `/accounts/${account.id}/flows`, {
      name: 'Delivery',
      questions: [
        { key: 'nps', body: { en: 'Recommend us?' }, style: 'nps' },
        { key: 'comment', body: { en: 'Anything else?' }, style: 'long_text' },
      ],
    });
    flowId = flow.id;
    const campaign = await admin('POST', `/accounts/${account.id}/sms_campaigns`, {
      name: 'After delivery',
      node_id: node.id,
      flow_id: flow.id,
      message_template: 'Order {{order_id}}: {{link}}',
    });
    campaignId = campaign.id;
    const ep = await call('POST', '/v1/webhook_endpoints', { token, body: { url: `${origin}/answers`, events: ['survey.answered'] } });
    expect(ep.status, ep.text).toBe(201);
    secret = ep.json.secret;

    const shared = await call('POST', `/v1/sms_campaigns/${campaignId}/sms_sharings`, {
      token,
      body: {
        phone_numbers: [`+${ayse}`, `+${can}`],
        custom_attributes: {
          [`+${ayse}`]: { order_id: 'A-1001', store: 'Kadikoy', TCKN: '10000000146', external_id: `crm-${randomUUID()}` },
          [`+${can}`]: { order_id: 'B-2002', store: 'Moda' },
        },
      },
    });
    expect(shared.status, shared.text).toBe(200);
    sharingId = shared.json.id;
    await answer(account.id, ayse, 'n.nps=10&t.comment=%3D1%2B1');
    await answer(account.id, can, 'n.nps=3');
  }, 120_000);
  afterAll(() => rx.close());

  it('shows each response with its campaign, sharing, message and custom attributes, the TCKN left out', async () => {
    const res = await get(`/v1/responses?campaign_id=${campaignId}`);
    expect(res.status, res.text).toBe(200);
    const byOrder = new Map((res.json.data as ResponseView[]).map((r) => [r.custom_attributes?.order_id, r]));
    expect(byOrder.get('A-1001')).toMatchObject({
      campaign_id: campaignId,
      sharing_id: sharingId,
      message_id: `${sharingId}.${ayse}`,
      answers: { nps: 10, comment: '=1+1' },
    });
    expect(byOrder.get('A-1001')!.custom_attributes).toEqual({ order_id: 'A-1001', store: 'Kadikoy', external_id: expect.any(String) });
    expect(byOrder.get('B-2002')).toMatchObject({
      message_id: `${sharingId}.${can}`,
      custom_attributes: { order_id: 'B-2002', store: 'Moda' },
    });
    expect(res.text).not.toContain('10000000146');
    expect(res.text).not.toMatch(/tckn/i);
  });

  it('filters by campaign (also given as channel_id) and by sharing', async () => {
    const ids = async (query: string) => {
      const res = await get(`/v1/responses?${query}`);
      expect(res.status, res.text).toBe(200);
      return (res.json.data as ResponseView[]).map((r) => r.id).sort();
    };
    const all = await ids(`campaign_id=${campaignId}`);
    expect(all).toHaveLength(2);
    expect(await ids(`channel_id=${campaignId}`)).toEqual(all);
    expect(await ids(`sharing_id=${sharingId}`)).toEqual(all);
    expect(await ids(`campaign_id=${campaignId}&sharing_id=${randomUUID()}`)).toEqual([]);

    // The operators' list (feedbackctl responses list) takes the same filters.
    const listed = await call('GET', `/admin/v1/accounts/${accountId}/responses?channel_id=${campaignId}&sharing_id=${sharingId}`, {
      admin: true,
    });
    expect(listed.status, listed.text).toBe(200);
    expect((listed.json.data as ResponseView[]).map((r) => r.id).sort()).toEqual(all);

    const foreign = await get(`/v1/responses?campaign_id=${randomUUID()}`);
    expect(foreign.status).toBe(404);
    expect(foreign.json.errors).toHaveProperty('campaign_id');
    const nps = await get(`/v1/flows/${flowId}/nps?campaign_id=${campaignId}`);
    expect(nps.status, nps.text).toBe(200);
    expect(nps.json.questions).toEqual([{ question_key: 'nps', promoters: 1, passives: 0, detractors: 1, total: 2, score: 0 }]);
    const bySharing = await get(`/v1/flows/${flowId}/nps?channel_id=${campaignId}&sharing_id=${sharingId}`);
    expect(bySharing.json.questions[0]).toMatchObject({ total: 2 });
  });

  it('sums the NPS up per day in a time zone and per store', async () => {
    const res = await get(`/v1/flows/${flowId}/nps?campaign_id=${campaignId}&interval=day&time_zone=Europe/Istanbul&group_by=store`);
    expect(res.status, res.text).toBe(200);
    const [q] = res.json.questions;
    // Both answered today in Istanbul (two days only when the test runs across its midnight).
    for (const period of q.series) expect(period.start).toMatch(/T00:00:00\.000\+03:00$/);
    expect(q.series.reduce((n: number, p: { total: number }) => n + p.total, 0)).toBe(2);
    expect(q.groups).toEqual([
      { value: 'Kadikoy', promoters: 1, passives: 0, detractors: 0, total: 1, score: 100 },
      { value: 'Moda', promoters: 0, passives: 0, detractors: 1, total: 1, score: -100 },
    ]);
    const sensitive = await get(`/v1/flows/${flowId}/nps?group_by=TCKN&interval=month`);
    expect(sensitive.status).toBe(400);
    expect(Object.keys(sensitive.json.errors)).toEqual(expect.arrayContaining(['querystring.interval']));
    const tckn = await get(`/v1/flows/${flowId}/nps?group_by=tckn`);
    expect(tckn.status).toBe(400);
    expect(tckn.json.errors).toHaveProperty('group_by');
  });

  it('exports the context as columns, one per custom attribute, formulas defused', async () => {
    const res = await fetch(`${stack.base_url}/v1/responses/export.csv?campaign_id=${campaignId}`, {
      headers: { authorization: `Token token=${token}` },
    });
    const text = await res.text();
    expect(res.status, text).toBe(200);
    const [header, ...rows] = text
      .trimEnd()
      .split('\r\n')
      .map((line) => line.split(','));
    expect(header).toEqual([
      'id',
      'created_at',
      'flow_id',
      'channel_id',
      'customer_external_id',
      'customer_email',
      'customer_phone',
      'built_in_responses.customerDetailInfo1',
      'built_in_responses.customerDetailInfo2',
      'campaign_id',
      'sharing_id',
      'message_id',
      'custom_attributes.external_id',
      'custom_attributes.order_id',
      'custom_attributes.store',
      'nps',
      'comment',
    ]);
    const cell = (row: string[], column: string) => row[header!.indexOf(column)];
    const ayseRow = rows.find((r) => cell(r, 'custom_attributes.order_id') === 'A-1001')!;
    expect([cell(ayseRow, 'campaign_id'), cell(ayseRow, 'sharing_id'), cell(ayseRow, 'message_id')]).toEqual([
      campaignId,
      sharingId,
      `${sharingId}.${ayse}`,
    ]);
    expect([cell(ayseRow, 'custom_attributes.store'), cell(ayseRow, 'nps'), cell(ayseRow, 'comment')]).toEqual(['Kadikoy', '10', "'=1+1"]);
    expect(text).not.toContain('10000000146');
  });

  it('pushes survey.answered with the answers the REST API shows, and the same context', async () => {
    await waitFor('two survey.answered deliveries', () => rx.at('/answers').length >= 2, 60_000);
    for (const event of verifyAll(rx.at('/answers'), secret)) {
      const data = event.data as { response_id: string; answers: unknown; custom_attributes: unknown; sharing_id: string };
      const stored = await get(`/v1/responses/${data.response_id}`);
      expect(stored.status, stored.text).toBe(200);
      expect(data.answers).toEqual(stored.json.answers);
      expect(data).toMatchObject({
        campaign_id: campaignId,
        sharing_id: sharingId,
        message_id: stored.json.message_id,
        custom_attributes: stored.json.custom_attributes,
      });
      expect(JSON.stringify(data)).not.toContain('10000000146');
    }
  });
});
