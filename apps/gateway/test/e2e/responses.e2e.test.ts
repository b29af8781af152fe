import { beforeAll, describe, expect, it } from 'vitest';
import { parseCsv } from '../rfc4180.js';
import { ERROR_KEYS } from './stack-client.js';
import { surveyClient } from './survey-client.js';

const { api, newSurveyAccount, personalLink, submitPage } = surveyClient();

const FLOW = {
  name: 'Checkout',
  questions: [
    { key: 'nps', body: { en: 'How likely are you to recommend us?' }, style: 'nps' },
    {
      key: 'why',
      body: { en: 'Why?' },
      style: 'multiple_choice',
      options: [
        { key: 'price', body: { en: 'Price' } },
        { key: 'speed', body: { en: 'Speed' } },
      ],
    },
    { key: 'comment', body: { en: 'Anything else?' }, style: 'long_text' },
  ],
};

type ResponseView = {
  id: string;
  flow_id: string;
  channel_id: string;
  customer: { external_id: string | null; email: string | null; phone: string | null };
  created_at: string;
  answers: Record<string, unknown>;
  built_in_responses: Record<string, string>;
  campaign_id: string | null;
  sharing_id: string | null;
  message_id: string | null;
  custom_attributes: Record<string, string> | null;
};

// The responses API as an integrator uses it: answers given on the survey page, then listed,
// filtered, fetched, summed up as NPS and exported as CSV with the account's API token.
describe('the responses API', () => {
  let acc: Awaited<ReturnType<typeof newSurveyAccount>>;
  let stranger: Awaited<ReturnType<typeof newSurveyAccount>>;
  let shop: string;
  let asA: (path: string) => ReturnType<typeof api.request>;
  let asB: (path: string) => ReturnType<typeof api.request>;
  const answered: string[] = []; // response ids, oldest first
  let midway: string;

  beforeAll(async () => {
    [acc, stranger] = await Promise.all([newSurveyAccount({ flow: FLOW }), newSurveyAccount({ flow: FLOW })]);
    asA = (path) => api.request('GET', path, { headers: { authorization: `Token token=${acc.apiToken}` } });
    asB = (path) => api.request('GET', path, { headers: { authorization: `Token token="${stranger.apiToken}"` } });
    shop = (await api.admin('POST', `/accounts/${acc.id}/channels`, { name: 'shop', node_id: acc.nodeId, flow_id: acc.flowId })).id!;
    const answer = async (channelId: string, externalId: string, form: string) => {
      const link = await personalLink(acc.integrationToken, channelId, {
        customer: { external_id: externalId, email: `${externalId.toLowerCase()}@example.com` },
        built_in_responses: { customerDetailInfo1: `order of ${externalId}` },
      });
      expect(link.status, link.text).toBe(200);
      const page = await submitPage(String(link.json.link), form);
      expect(page.status).toBe(200);
      const latest = await asA(`/v1/responses?customer_external_id=${externalId}&page_size=1`);
      answered.push(((latest.json.data as ResponseView[])[0] as ResponseView).id);
    };
    await answer(acc.channelId, 'C-1', 'n.nps=10&o.why=price&o.why=speed&t.comment=%3D1%2B1%2C%20"quoted"');
    await answer(acc.channelId, 'C-2', 'n.nps=8&o.why=price');
    midway = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 10)); // the answers below strictly after `midway`
    await answer(shop, 'C-1', 'n.nps=3&o.why=speed&t.comment=slow');
    await answer(shop, 'C-3', 'n.nps=9&o.why=price');
  }, 120_000);

  const ids = (res: Awaited<ReturnType<typeof asA>>) => {
    expect(res.status, res.text).toBe(200);
    return (res.json.data as ResponseView[]).map((r) => r.id);
  };

  it('lists the answers newest first, with the customer, answers keyed by question and option keys, and built-in responses', async () => {
    const res = await asA('/v1/responses');
    expect(ids(res)).toEqual([...answered].reverse());
    const oldest = (res.json.data as ResponseView[]).at(-1)!;
    expect(oldest).toEqual({
      id: answered[0],
      flow_id: acc.flowId,
      channel_id: acc.channelId,
      customer: { external_id: 'C-1', email: 'c-1@example.com', phone: null },
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+00:00$/),
      answers: { nps: 10, why: ['price', 'speed'], comment: '=1+1, "quoted"' },
      built_in_responses: { customerDetailInfo1: 'order of C-1' },
      // A personal link: not sent by an SMS sharing (docs/api.md "Responses").
      campaign_id: null,
      sharing_id: null,
      message_id: null,
      custom_attributes: {},
    });
    expect(res.json.next_page_token).toBeNull();
  });

  it('filters by flow, channel, customer and time, and pages within the filters', async () => {
    expect(ids(await asA(`/v1/responses?flow_id=${acc.flowId}&channel_id=${shop}`))).toEqual([answered[3], answered[2]]);
    expect(ids(await asA('/v1/responses?customer_external_id=C-1'))).toEqual([answered[2], answered[0]]);
    expect(ids(await asA(`/v1/responses?since=${encodeURIComponent(midway)}`))).toEqual([answered[3], answered[2]]);
    expect(ids(await asA(`/v1/responses?until=${encodeURIComponent(midway)}`))).toEqual([answered[1], answered[0]]);
    expect(ids(await asA('/v1/responses?customer_external_id=nobody'))).toEqual([]);
    const first = await asA('/v1/responses?page_size=3');
    const token = String(first.json.next_page_token);
    const second = await asA(`/v1/responses?page_size=3&page_token=${encodeURIComponent(token)}`);
    expect([...ids(first), ...ids(second)]).toEqual([...answered].reverse());
    expect(second.json.next_page_token).toBeNull();
  });

  it('fetches one response by id', async () => {
    const res = await asA(`/v1/responses/${answered[3]}`);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({
      id: answered[3],
      channel_id: shop,
      customer: { external_id: 'C-3' },
      answers: { nps: 9, why: ['price'] },
    });
  });

  it('counts the nps answers of the flow, per channel and over a time range', async () => {
    const all = await asA(`/v1/flows/${acc.flowId}/nps`);
    expect(all.status, all.text).toBe(200);
    // 10 and 9 promote, 8 is passive, 3 detracts: (2 - 1) / 4 = 25.
    expect(all.json).toEqual({
      flow_id: acc.flowId,
      questions: [{ question_key: 'nps', promoters: 2, passives: 1, detractors: 1, total: 4, score: 25 }],
    });
    const ofShop = await asA(`/v1/flows/${acc.flowId}/nps?channel_id=${shop}&since=${encodeURIComponent(midway)}`);
    expect(ofShop.json.questions).toEqual([{ question_key: 'nps', promoters: 1, passives: 0, detractors: 1, total: 2, score: 0 }]);
    const none = await asA(`/v1/flows/${acc.flowId}/nps?since=2100-01-01`);
    expect(none.json.questions).toEqual([{ question_key: 'nps', promoters: 0, passives: 0, detractors: 0, total: 0, score: null }]);
  });

  it('exports the same answers as CSV, one record per response, formulas defused', async () => {
    const res = await fetch(`${api.baseUrl}/v1/responses/export.csv?flow_id=${acc.flowId}`, {
      headers: { authorization: `Token token=${acc.apiToken}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    const rows = parseCsv(await res.text());
    expect(rows[0]).toEqual([
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
      'nps',
      'why',
      'comment',
    ]);
    expect(rows.slice(1).map((r) => r[0])).toEqual([...answered].reverse());
    expect(rows.at(-1)).toEqual([
      answered[0],
      expect.any(String),
      acc.flowId,
      acc.channelId,
      'C-1',
      'c-1@example.com',
      '',
      'order of C-1',
      '',
      '',
      '',
      '',
      '10',
      'price;speed',
      `'=1+1, "quoted"`,
    ]);
    const ofShop = await fetch(`${api.baseUrl}/v1/responses/export.csv?channel_id=${shop}&customer_external_id=C-3`, {
      headers: { authorization: `Token token=${acc.apiToken}` },
    });
    expect(
      parseCsv(await ofShop.text())
        .slice(1)
        .map((r) => r[0]),
    ).toEqual([answered[3]]);
  });

  it('refuses bad filters with 400 naming the field', async () => {
    for (const [query, field] of [
      ['flow_id=not-a-uuid', 'querystring.flow_id'],
      ['channel_id=123', 'querystring.channel_id'],
      ['since=yesterday', 'querystring.since'],
      ['until=2026-02-30', 'until'],
      ['since=2026-11-23&until=2026-11-22', 'since'],
      ['page_size=0', 'querystring.page_size'],
      ['page_size=201', 'querystring.page_size'],
      ['page_token=bm9wZQ', 'page_token'],
    ]) {
      const res = await asA(`/v1/responses?${query}`);
      expect(res.status, `${query}: ${res.text}`).toBe(400);
      expect(Object.keys(res.json).sort()).toEqual(ERROR_KEYS);
      expect(res.json.errors, query).toHaveProperty([field!]);
    }
    const noFlow = await asA('/v1/responses/export.csv');
    expect(noFlow.status).toBe(400);
    expect(noFlow.json.errors).toHaveProperty(['flow_id']);
  });

  it("shows another account nothing: 404 for the response, the flow's NPS and the channel, an empty list", async () => {
    const one = await asB(`/v1/responses/${answered[0]}`);
    expect(one.status).toBe(404);
    expect(one.json).toMatchObject({ code: 13002, errors: { response_id: answered[0] } });
    const nps = await asB(`/v1/flows/${acc.flowId}/nps`);
    expect(nps.status).toBe(404);
    expect(nps.json).toMatchObject({ code: 13002, errors: { flow_id: acc.flowId } });
    expect((await asB(`/v1/responses?flow_id=${acc.flowId}`)).status).toBe(404);
    expect((await asB(`/v1/responses?channel_id=${shop}`)).status).toBe(404);
    expect((await asB(`/v1/responses/export.csv?flow_id=${acc.flowId}`)).status).toBe(404);
    expect(ids(await asB('/v1/responses'))).toEqual([]);
    expect(ids(await asB('/v1/responses?customer_external_id=C-1'))).toEqual([]);
  });

  it('takes the API token only', async () => {
    expect((await api.request('GET', '/v1/responses')).status).toBe(401);
    const integration = await api.request('GET', '/v1/responses', { headers: { authorization: `Bearer ${acc.integrationToken}` } });
    expect(integration.status).toBe(403);
  });
});
