import { encodePageToken } from '@feedback/kit-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ERROR_KEYS } from './stack-client.js';
import { surveyClient } from './survey-client.js';

const { api, newSurveyAccount } = surveyClient();

/** Tokens no list answered: garbage, the formats the lists used before, and another list's token. */
const BAD_TOKENS = {
  garbage: 'bm9wZQ', // "nope"
  'an old SMS list cursor': Buffer.from(JSON.stringify([Date.now(), 'x'])).toString('base64url'),
  'an old webhook cursor': Buffer.from(`${Date.now()}:x`).toString('base64url'),
  "another list's token": encodePageToken('some_other_list', { at: new Date(), id: 'x' }),
};

// One rule for every list, public and admin: a page_token the list did not answer is 400 / 13000
// naming page_token (before, the SMS lists answered such a token with their first page).
describe('page tokens on every list route', () => {
  let routes: [string, string, Record<string, string>][];

  beforeAll(async () => {
    const acc = await newSurveyAccount();
    const asApi = { authorization: `Token token="${acc.apiToken}"` };
    const asAdmin = { authorization: `Bearer ${api.adminToken}` };
    const created = await api.request('POST', '/v1/webhook_endpoints', {
      headers: { ...asApi, 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'http://127.0.0.1:9/paging', events: ['survey.answered'] }),
    });
    expect(created.status, created.text).toBe(201);
    const endpoint = (created.json.endpoint as { id: string }).id;
    const admin = `/admin/v1/accounts/${acc.id}`;
    const campaign = await api.admin('POST', `/accounts/${acc.id}/sms_campaigns`, {
      name: 'paging',
      node_id: acc.nodeId,
      flow_id: acc.flowId,
      message_template: '{{link}}',
    });
    routes = [
      ['GET /v1/responses', '/v1/responses', asApi],
      ['GET /v1/sms_opt_outs', '/v1/sms_opt_outs', asApi],
      ['GET /v1/sms_campaigns', '/v1/sms_campaigns', asApi],
      ['GET /v1/sms_sharings', '/v1/sms_sharings', asApi],
      ['GET /v1/sms_campaigns/{id}/sms_sharings', `/v1/sms_campaigns/${campaign.id}/sms_sharings`, asApi],
      ['GET /v1/webhook_endpoints', '/v1/webhook_endpoints', asApi],
      ['GET /v1/links', '/v1/links', asApi],
      ['GET /admin/v1/accounts/{id}/links', `${admin}/links`, asAdmin],
      ['GET /v1/webhook_endpoints/{id}/deliveries', `/v1/webhook_endpoints/${endpoint}/deliveries`, asApi],
      ['GET /admin/v1/accounts/{id}/sms_messages', `${admin}/sms_messages`, asAdmin],
      ['GET /admin/v1/accounts/{id}/sms_campaigns', `${admin}/sms_campaigns`, asAdmin],
      ['GET /admin/v1/accounts/{id}/sms_sharings', `${admin}/sms_sharings`, asAdmin],
      ['GET /admin/v1/accounts/{id}/responses', `${admin}/responses?flow_id=${acc.flowId}`, asAdmin],
      ['GET /admin/v1/accounts/{id}/webhook_endpoints', `${admin}/webhook_endpoints`, asAdmin],
      ['GET /admin/v1/accounts/{id}/webhook_endpoints/{id}/deliveries', `${admin}/webhook_endpoints/${endpoint}/deliveries`, asAdmin],
    ];
  });

  it('answers 400 / 13000 naming page_token for a token the list did not answer, and a page for none', async () => {
    for (const [route, path, headers] of routes) {
      const first = await api.request('GET', path, { headers });
      expect(first.status, `${route}: ${first.text}`).toBe(200);
      expect(first.json).toHaveProperty('next_page_token', null);
      for (const [what, token] of Object.entries(BAD_TOKENS)) {
        const sep = path.includes('?') ? '&' : '?';
        const res = await api.request('GET', `${path}${sep}page_token=${token}`, { headers });
        expect(res.status, `${route}, ${what}: ${res.text}`).toBe(400);
        expect(Object.keys(res.json).sort()).toEqual(ERROR_KEYS);
        expect(res.json.code, `${route}, ${what}`).toBe(13000);
        expect(res.json.errors, `${route}, ${what}`).toHaveProperty(['page_token']);
      }
    }
  });
});
