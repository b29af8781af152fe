import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseCsv } from '../rfc4180.js';
import { randomPhone, smsClient } from './sms-client.js';
import { settle, stackLogLines } from './stack-logs.js';
import { surveyClient } from './survey-client.js';

const sms = smsClient();
const { personalLink, submitPage } = surveyClient();
const api = sms;

// What an attacker sent the running stack: JSON nested thousands deep (a 500 and a stack trace
// per request), bytes that are not UTF-8 (stored as U+FFFD), offsets no zone has, a CSV cell
// starting with a line feed. Each is refused, or defused, at the edge.
describe('the gateway edge', () => {
  let acc: Awaited<ReturnType<typeof sms.newCampaign>>;
  let channelId: string;
  let auth: Record<string, string>;

  beforeAll(async () => {
    acc = await sms.newCampaign();
    auth = { authorization: `Bearer ${acc.account.apiToken}`, 'content-type': 'application/json' };
    channelId = (await api.admin('POST', `/accounts/${acc.account.id}/channels`, { name: 'web', node_id: acc.nodeId, flow_id: acc.flowId }))
      .id!;
  }, 60_000);

  it('answers 400 naming the body for JSON nested too deeply, on every route, and logs nothing above warn', async () => {
    const integration = { authorization: `Bearer ${acc.account.integrationToken}`, 'content-type': 'application/json' };
    const routes: Array<[string, Record<string, string>]> = [
      ['/v1/sms_opt_outs', auth],
      ['/v1/webhook_endpoints', auth],
      [`/v1/sms_campaigns/${acc.campaignId}/sms_sharings`, auth],
      [`/external/v1/nodes/${acc.nodeId}/active_surveys`, integration],
      ['/admin/v1/accounts', { authorization: `Bearer ${api.adminToken}`, 'content-type': 'application/json' }],
    ];
    const requestIds: string[] = [];
    for (const depth of [65, 4_000, 8_000, 50_000]) {
      for (const [path, headers] of routes) {
        const requestId = `deep-${randomUUID()}`;
        requestIds.push(requestId);
        const body = `{"phone_numbers": ${'['.repeat(depth)}${']'.repeat(depth)}}`;
        const res = await api.request('POST', path, { headers: { ...headers, 'x-request-id': requestId }, body });
        expect(res.status, `${path} at ${depth}: ${res.text}`).toBe(400);
        expect(res.json).toMatchObject({ code: 13000, errors: { body: expect.stringContaining('nested too deeply') } });
      }
    }
    await settle();
    const loud = stackLogLines((f) => f.startsWith('gateway')).filter(
      (l) => requestIds.some((id) => l.text.includes(id)) && (JSON.parse(l.text) as { level: number }).level > 40,
    );
    expect(loud.map((l) => `${l.file}:${l.line} ${l.text.slice(0, 300)}`)).toEqual([]);
  });

  it('answers 400 for a JSON body that is not UTF-8 instead of storing U+FFFD', async () => {
    const body = Buffer.concat([
      Buffer.from('{"url": "https://example.com/'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('", "events": ["survey.answered"]}'),
    ]);
    const res = await api.request('POST', '/v1/webhook_endpoints', { headers: auth, body });
    expect(res.status, res.text).toBe(400);
    expect(res.json.errors).toEqual({ body: 'is not valid UTF-8' });
    const list = await api.request('GET', '/v1/webhook_endpoints', { headers: auth });
    expect(list.text).not.toContain('%EF%BF%BD');
  });

  it('answers 400 for a query string whose %-escapes are not UTF-8, naming the parameter', async () => {
    for (const path of [
      '/v1/sms_opt_outs?phone=%FF%FE',
      '/v1/responses?customer_external_id=%C3',
      '/v1/webhook_endpoints?page_token=%ED%A0%80',
    ]) {
      const res = await api.request('GET', path, { headers: auth });
      expect(res.status, `${path}: ${res.text}`).toBe(400);
      expect(res.json).toMatchObject({
        code: 13000,
        errors: { [`querystring.${path.split('?')[1]!.split('=')[0]}`]: 'is not valid UTF-8' },
      });
    }
  });

  it('answers 400 for a survey form that is not UTF-8, and stores no answer', async () => {
    const link = await personalLink(acc.account.integrationToken, channelId, { customer: { external_id: `form-${randomUUID()}` } });
    expect(link.status, link.text).toBe(200);
    expect((await submitPage(String(link.json.link), 'n.nps=9&t.comment=%FF')).status).toBe(400);
    const responses = await api.request('GET', `/v1/responses?flow_id=${acc.flowId}`, { headers: auth });
    expect(responses.json.data).toEqual([]);
  });

  it('refuses a send_at offset beyond ±14:00 or with minutes over 59, naming send_at', async () => {
    const day = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    for (const offset of ['+25:00', '+23:60', '-24:30', '+14:30']) {
      const res = await sms.share(acc.account.apiToken, acc.campaignId, {
        phone_numbers: [randomPhone()],
        send_at: `${day}T10:00:00${offset}`,
      });
      expect(res.status, `${offset}: ${res.text}`).toBe(400);
      expect(res.json.errors).toEqual({ send_at: expect.stringContaining('offset') });
    }
    const ok = await sms.share(acc.account.apiToken, acc.campaignId, { phone_numbers: [randomPhone()], send_at: `${day}T10:00:00+14:00` });
    expect(ok.status, ok.text).toBe(200);
  });

  it('defuses a CSV cell starting with a line feed', async () => {
    const externalId = `lf-${randomUUID()}`;
    const link = await personalLink(acc.account.integrationToken, channelId, {
      customer: { external_id: externalId },
      built_in_responses: { customerDetailInfo1: '\n=HYPERLINK("http://evil.example")' },
    });
    expect(link.status, link.text).toBe(200);
    expect((await submitPage(String(link.json.link), 'n.nps=9')).status).toBe(200);
    const res = await fetch(`${api.baseUrl}/v1/responses/export.csv?flow_id=${acc.flowId}&customer_external_id=${externalId}`, {
      headers: { authorization: `Bearer ${acc.account.apiToken}` },
    });
    const rows = parseCsv(await res.text());
    expect(rows[1]?.[7]).toBe('\'\n=HYPERLINK("http://evil.example")');
  });
});
