import { beforeAll, describe, expect, it } from 'vitest';
import { displayDateFormatter } from '../../src/api/surveys/display-date.js';
import { ERROR_KEYS } from './stack-client.js';
import { surveyClient } from './survey-client.js';
import { publicError } from '../public-error.js';

const { api, newSurveyAccount, personalLink, activeSurveys, submitPage } = surveyClient();
type Account = Awaited<ReturnType<typeof newSurveyAccount>>;
type Survey = { Link: string; SurveyName: string; LastActivationDate: string; UnitName: string };

// The stack's gateway runs with the DISPLAY_TIME_ZONE of this environment (default UTC).
const formatDate = displayDateFormatter(process.env.DISPLAY_TIME_ZONE ?? 'UTC');
const ADA = {
  phone_number: '0532 111 22 33',
  email: 'Ada@Example.com',
  external_id: 'C-1001',
  name: 'Ada',
  schema: { TCKN: '12345678901' },
};

describe('POST /external/v1/nodes/{node_id}/active_surveys', () => {
  let acc: Account;
  let other: Account;
  let ada: { customer_id: string; link: string; activated_at: string };

  beforeAll(async () => {
    acc = await newSurveyAccount();
    other = await newSurveyAccount();
    const res = await personalLink(acc.integrationToken, acc.channelId, { customer: ADA });
    expect(res.status).toBe(200);
    ada = res.json as typeof ada;
    // Someone else, holding a phone of their own, on the same node.
    expect(
      (
        await personalLink(acc.integrationToken, acc.channelId, {
          customer: { phone_number: '+90 533 999 88 77', email: 'bob@example.com' },
        })
      ).status,
    ).toBe(200);
  });

  const list = (body: unknown, node = acc.nodeId) => activeSurveys(acc.integrationToken, node, body);

  it('finds the customer by every combination of identifiers, in exactly the documented shape', async () => {
    const ids = { phone_number: '+905321112233', email: 'ada@example.com', external_id: 'C-1001' } as const;
    const keys = Object.keys(ids) as (keyof typeof ids)[];
    const combos = [1, 2, 3, 4, 5, 6, 7].map((mask) => keys.filter((_, i) => mask & (1 << i)));
    for (const combo of combos) {
      const res = await list({ customer: Object.fromEntries(combo.map((k) => [k, ids[k]])) });
      expect(res.status, combo.join('+')).toBe(200);
      expect(Object.keys(res.json).sort()).toEqual(['count', 'surveys']);
      expect(res.json.count, combo.join('+')).toBe(1);
      const [survey] = res.json.surveys as Survey[];
      expect(Object.keys(survey!).sort()).toEqual(['LastActivationDate', 'Link', 'SurveyName', 'UnitName']);
      expect(survey).toMatchObject({ Link: ada.link, SurveyName: acc.flowName, UnitName: 'Kadıköy store' });
    }
  });

  it('formats LastActivationDate as dd.MM.yyyy HH:mm:ss in the display time zone', async () => {
    const res = await list({ customer: { external_id: 'C-1001' } });
    const [survey] = res.json.surveys as Survey[];
    expect(survey!.LastActivationDate).toMatch(/^\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}:\d{2}$/);
    expect(survey!.LastActivationDate).toBe(formatDate(ada.activated_at));
  });

  it("combines identifiers with AND: two people's identifiers find nobody", async () => {
    const res = await list({ customer: { email: 'ada@example.com', phone_number: '+905339998877' } });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ count: 0, surveys: [] });
    expect((await list({ customer: { external_id: 'C-1001', email: 'bob@example.com' } })).json.count).toBe(0);
    expect((await list({ customer: { external_id: 'C-9999' } })).json.count).toBe(0);
  });

  it('requires customer.schema.TCKN to match when given', async () => {
    expect((await list({ customer: { email: 'ada@example.com', schema: { TCKN: '12345678901' } } })).json.count).toBe(1);
    expect((await list({ customer: { email: 'ada@example.com', schema: { TCKN: '10987654321' } } })).json.count).toBe(0);
    expect((await list({ customer: { email: 'bob@example.com', schema: { TCKN: '12345678901' } } })).json.count).toBe(0);
  });

  it('answers 400 naming the three identifier fields when none is given', async () => {
    for (const body of [{}, { customer: {} }, { customer: { schema: { TCKN: '12345678901' } } }, { customer: { email: ' ' } }]) {
      const res = await list(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(res.json).sort()).toEqual(ERROR_KEYS);
      expect(res.json.code).toBe(13000);
      expect(Object.keys(res.json.errors!).sort()).toEqual(['customer.email', 'customer.external_id', 'customer.phone_number']);
    }
    const bad = await list({ customer: { email: 'not-an-email' } });
    expect(bad.status).toBe(400);
    expect(bad.json.errors).toHaveProperty(['customer.email']);
    const unknownField = await list({ customer: { email: 'ada@example.com', nickname: 'x' } });
    expect(unknownField.status).toBe(400);
    expect(unknownField.json.errors).toEqual({ 'body.customer.nickname': 'is not allowed' });
  });

  it("answers 404 naming node_id for another account's node and for an unknown one, never data", async () => {
    for (const node of [other.nodeId, 'no-such-node']) {
      const res = await list({ customer: { email: 'ada@example.com' } }, node);
      expect(res.status).toBe(404);
      expect(res.json).toEqual(publicError('Requested resource not found!', 13002, { node_id: node }));
    }
    // The other account asking about its own node does not see this account's customer either.
    expect((await activeSurveys(other.integrationToken, other.nodeId, { customer: { email: 'ada@example.com' } })).json.count).toBe(0);
  });

  it('takes only an integration token: none or a wrong one is 401 / 13001, an API token 403 / 13013', async () => {
    const body = { customer: { email: 'ada@example.com' } };
    const call = (authorization: string) =>
      activeSurveys('', acc.nodeId, body, { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) });
    for (const authorization of ['Bearer fbk_int_nope', `Bearer ${acc.integrationToken}x`, '']) {
      const res = await call(authorization);
      expect(res.status, authorization).toBe(401);
      expect(res.json).toEqual(publicError('Wrong authentication token', 13001, null));
    }
    for (const authorization of [`Token token="${acc.apiToken}"`, `Bearer ${acc.apiToken}`]) {
      const res = await call(authorization);
      expect(res.status, authorization).toBe(403);
      expect(res.json).toEqual(publicError('Permission denied', 13013, null));
    }
  });

  it("lists only the given channel's surveys with response_channel_id", async () => {
    const second = await api.admin('POST', `/accounts/${acc.id}/channels`, {
      name: 'kiosk',
      node_id: acc.nodeId,
      flow_id: acc.flowId,
      link_ttl_days: 2,
    });
    const again = await personalLink(acc.integrationToken, second.id!, { customer: { external_id: 'C-1001' } });
    expect(again.json.customer_id).toBe(ada.customer_id);
    const all = await list({ customer: { external_id: 'C-1001' } });
    expect(all.json.count).toBe(2);
    // Newest activation first.
    expect((all.json.surveys as Survey[])[0]!.Link).toBe(again.json.link);
    const only = await list({ customer: { external_id: 'C-1001' }, response_channel_id: second.id });
    expect((only.json.surveys as Survey[]).map((s) => s.Link)).toEqual([again.json.link]);
    expect((await list({ customer: { external_id: 'C-1001' }, response_channel_id: other.channelId })).json.count).toBe(0);
    const malformed = await list({ customer: { external_id: 'C-1001' }, response_channel_id: 'not-a-uuid' });
    expect(malformed.status).toBe(400);
    expect(malformed.json.errors).toHaveProperty('response_channel_id');
  });

  it('drops a survey once it is answered; the page then says "already answered"', async () => {
    const carol = await personalLink(acc.integrationToken, acc.channelId, { customer: { email: 'carol@example.com' } });
    expect((await list({ customer: { email: 'carol@example.com' } })).json.count).toBe(1);
    const answer = await submitPage(String(carol.json.link), 'n.nps=9&t.comment=Great');
    expect(answer.status).toBe(200);
    expect(await answer.text()).toContain('Thank you!');
    expect((await list({ customer: { email: 'carol@example.com' } })).json).toEqual({ count: 0, surveys: [] });
    const page = await fetch(String(carol.json.link));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Already answered');
    // A second submit is refused as answered, not stored twice.
    const twice = await submitPage(String(carol.json.link), 'n.nps=1');
    expect(twice.status).toBe(200);
    expect(await twice.text()).toContain('Already answered');
    // Re-activation (a new personal link call) opens it again, under the same URL.
    const reopened = await personalLink(acc.integrationToken, acc.channelId, { customer: { email: 'carol@example.com' } });
    expect(reopened.json.link).toBe(carol.json.link);
    expect((await list({ customer: { email: 'carol@example.com' } })).json.count).toBe(1);
  });
});

describe('POST /external/v1/link_channels/{channel_id}/links', () => {
  let acc: Account;
  beforeAll(async () => {
    acc = await newSurveyAccount();
  });
  const link = (body: unknown, channel = acc.channelId) => personalLink(acc.integrationToken, channel, body);

  it('answers the link, its dates and no short link unless asked', async () => {
    const res = await link({
      customer: { email: 'dan@example.com', name: 'Dan' },
      built_in_responses: { customerDetailInfo1: 'order 42' },
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.json).sort()).toEqual(['activated_at', 'customer_id', 'expires_at', 'link', 'short_link']);
    expect(res.json.link).toMatch(new RegExp(`^${api.baseUrl}/s/[A-Za-z0-9_-]{32}$`));
    expect(res.json.short_link).toBeNull();
    const activated = Date.parse(String(res.json.activated_at));
    expect(String(res.json.activated_at)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/);
    expect(Date.parse(String(res.json.expires_at)) - activated).toBe(7 * 86_400_000);
  });

  it('shortens it on request through the shortener, and the short link leads to the page', async () => {
    const res = await link({ customer: { email: 'erin@example.com' }, short_link: true });
    expect(res.status).toBe(200);
    const short = String(res.json.short_link);
    expect(short.startsWith(`${api.stack.shortener_url}/`)).toBe(true);
    const hop = await fetch(short, { redirect: 'manual' });
    expect(hop.status).toBe(302);
    expect(hop.headers.get('location')).toBe(res.json.link);
  });

  it('resolves the customer by external_id, then e-mail, then phone', async () => {
    const a = await link({ customer: { external_id: 'E-A', email: 'a@example.com' } });
    const b = await link({ customer: { email: 'b@example.com', phone_number: '05321234567' } });
    const c = await link({ customer: { phone_number: '05327654321' } });
    const ids = new Set([a, b, c].map((r) => r.json.customer_id));
    expect(ids.size).toBe(3);
    // external_id beats the e-mail of someone else
    expect((await link({ customer: { external_id: 'E-A', email: 'b@example.com' } })).json.customer_id).toBe(a.json.customer_id);
    // e-mail beats the phone of someone else
    expect((await link({ customer: { email: 'b@example.com', phone_number: '05327654321' } })).json.customer_id).toBe(b.json.customer_id);
    // phone alone finds its owner
    expect((await link({ customer: { phone_number: '+90 532 765 43 21' } })).json.customer_id).toBe(c.json.customer_id);
  });

  it('makes one customer of ten concurrent activations of one person', async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        link({ customer: { external_id: 'E-RACE', email: 'race@example.com', phone_number: '05320000001' } }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(new Set(results.map((r) => r.json.customer_id)).size).toBe(1);
    expect(new Set(results.map((r) => r.json.link)).size).toBe(1);
  });

  it("answers 400 without an identifier, 404 for another account's or an unknown channel, 403 for an API token", async () => {
    const none = await link({ customer: { name: 'Nobody' } });
    expect(none.status).toBe(400);
    expect(Object.keys(none.json.errors!).sort()).toEqual(['customer.email', 'customer.external_id', 'customer.phone_number']);
    const stranger = await newSurveyAccount();
    for (const channel of [stranger.channelId, '00000000-0000-4000-8000-000000000000', 'nope']) {
      const res = await link({ customer: { email: 'x@example.com' } }, channel);
      expect(res.status, channel).toBe(404);
      expect(res.json).toMatchObject({ code: 13002, errors: { channel_id: expect.any(String) } });
    }
    const withApiToken = await api.request('POST', `/external/v1/link_channels/${acc.channelId}/links`, {
      headers: { authorization: `Token token=${acc.apiToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ customer: { email: 'x@example.com' } }),
    });
    expect(withApiToken.status).toBe(403);
    expect(withApiToken.json).toMatchObject({ code: 13013, errors: null });
  });
});

describe('admin: channels and responses', () => {
  let acc: Account;
  beforeAll(async () => {
    acc = await newSurveyAccount();
  });

  it("creates and lists channels; another account's node or flow is 404 naming it", async () => {
    const stranger = await newSurveyAccount();
    const created = await api.admin('POST', `/accounts/${acc.id}/channels`, { name: 'second', node_id: acc.nodeId, flow_id: acc.flowId });
    expect(Object.keys(created).sort()).toEqual(['created_at', 'flow_id', 'id', 'link_ttl_days', 'name', 'node_id']);
    expect(created).toMatchObject({ name: 'second', node_id: acc.nodeId, flow_id: acc.flowId, link_ttl_days: 7 });
    const listed = await api.admin('GET', `/accounts/${acc.id}/channels`);
    expect((listed.data as unknown as { id: string }[]).map((c) => c.id)).toEqual([created.id, acc.channelId]);
    const post = (body: unknown) =>
      api.request('POST', `/admin/v1/accounts/${acc.id}/channels`, {
        headers: { authorization: `Bearer ${api.adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const foreignNode = await post({ name: 'x', node_id: stranger.nodeId, flow_id: acc.flowId });
    expect(foreignNode.status).toBe(404);
    expect(foreignNode.json.errors).toEqual({ node_id: stranger.nodeId });
    const foreignFlow = await post({ name: 'x', node_id: acc.nodeId, flow_id: stranger.flowId });
    expect(foreignFlow.status).toBe(404);
    expect(foreignFlow.json.errors).toHaveProperty('flow_id');
    const badTtl = await post({ name: 'x', node_id: acc.nodeId, flow_id: acc.flowId, link_ttl_days: 0 });
    expect(badTtl.status).toBe(400);
    expect(badTtl.json.errors).toHaveProperty(['body.link_ttl_days']);
  });

  it('lists responses newest first, a page at a time, of one flow when asked', async () => {
    const answered: string[] = [];
    for (const [i, email] of ['r1@example.com', 'r2@example.com', 'r3@example.com'].entries()) {
      const link = await personalLink(acc.integrationToken, acc.channelId, {
        customer: { email },
        built_in_responses: { customerDetailInfo1: `n${i}` },
      });
      expect((await submitPage(String(link.json.link), `n.nps=${i + 5}`)).status).toBe(200);
      answered.push(String(link.json.customer_id));
    }
    const page1 = await api.admin('GET', `/accounts/${acc.id}/responses?flow_id=${acc.flowId}&page_size=2`);
    const rows1 = page1.data as unknown as Array<Record<string, unknown>>;
    expect(rows1.map((r) => r.customer_id)).toEqual([answered[2], answered[1]]);
    expect(rows1[0]).toMatchObject({
      flow_id: acc.flowId,
      channel_id: acc.channelId,
      node_id: acc.nodeId,
      // The one answers shape: keyed by question, as GET /v1/responses and survey.answered give them.
      answers: { nps: 7 },
      built_in_responses: { customerDetailInfo1: 'n2' },
      campaign_id: null,
      sharing_id: null,
    });
    expect(String(rows1[0]!.answered_at)).toMatch(/\+00:00$/);
    expect(page1.next_page_token).toEqual(expect.any(String));
    const page2 = await api.admin(
      'GET',
      `/accounts/${acc.id}/responses?flow_id=${acc.flowId}&page_size=2&page_token=${encodeURIComponent(page1.next_page_token!)}`,
    );
    expect((page2.data as unknown as Array<Record<string, unknown>>).map((r) => r.customer_id)).toEqual([answered[0]]);
    expect(page2.next_page_token).toBeNull();
    const stranger = await newSurveyAccount();
    const foreign = await api.request('GET', `/admin/v1/accounts/${acc.id}/responses?flow_id=${stranger.flowId}`, {
      headers: { authorization: `Bearer ${api.adminToken}` },
    });
    expect(foreign.status).toBe(404);
    const badSize = await api.request('GET', `/admin/v1/accounts/${acc.id}/responses?page_size=500`, {
      headers: { authorization: `Bearer ${api.adminToken}` },
    });
    expect(badSize.status).toBe(400);
  });
});

describe('the survey page over HTTP', () => {
  it('answers an unknown link with a 404 page, and a validation failure with the form again (400)', async () => {
    const unknown = await fetch(`${api.baseUrl}/s/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`);
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await unknown.text()).toContain('Survey not found');
    const acc = await newSurveyAccount();
    const link = String((await personalLink(acc.integrationToken, acc.channelId, { customer: { email: 'v@example.com' } })).json.link);
    const res = await submitPage(link, 'n.nps=11&t.comment=kept');
    expect(res.status).toBe(400);
    const body = await res.text();
    expect(body).toContain('must be an integer from 0 to 10');
    expect(body).toContain('>kept</textarea>');
    const crossSite = await fetch(link, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' },
      body: 'n.nps=1',
    });
    expect(crossSite.status).toBe(403);
    expect((await activeSurveys(acc.integrationToken, acc.nodeId, { customer: { email: 'v@example.com' } })).json.count).toBe(1);
  });
});
