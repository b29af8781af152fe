import { describe, expect, it } from 'vitest';
import { randomPhone, smsClient, waitFor } from './sms-client.js';

const { request, newCampaign, share, outbox } = smsClient();

const activeSurveys = (token: string, nodeId: string, body: unknown) =>
  request('POST', `/external/v1/nodes/${nodeId}/active_surveys`, {
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('a customer first reached by SMS, found by the active survey query with customer.schema.TCKN', () => {
  it('keeps the sharing’s TCKN custom attribute in the customer schema', async () => {
    const { account, nodeId, campaignId } = await newCampaign('Merhaba {{name}}: {{link}}');
    const [withTckn, lowerCase, without] = [randomPhone(), randomPhone(), randomPhone()];
    const res = await share(account.apiToken, campaignId, {
      phone_numbers: [withTckn, lowerCase, without],
      custom_attributes: {
        [withTckn]: { name: 'Ayşe', TCKN: '10000000146' },
        [lowerCase]: { name: 'Can', tckn: '20000000046' },
        [without]: { name: 'Deniz' },
      },
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ accepted: 3, rejected: 0 });
    // The link is activated (and the customer written) before the SMS reaches the provider.
    for (const phone of [withTckn, lowerCase, without])
      await waitFor(`the SMS to ${phone}`, async () => ((await outbox(account.id, phone)).data.length === 1 ? true : undefined));

    const query = (phone: string, tckn?: string) =>
      activeSurveys(account.integrationToken, nodeId, { customer: { phone_number: phone, ...(tckn ? { schema: { TCKN: tckn } } : {}) } });
    const found = await query(withTckn, '10000000146');
    expect(found.status).toBe(200);
    expect(found.json.count).toBe(1);
    expect((await query(withTckn, '99999999999')).json).toEqual({ count: 0, surveys: [] });
    expect((await query(lowerCase, '20000000046')).json.count).toBe(1);
    // Without a TCKN on the customer a query naming one finds nothing; without one in the query, it does.
    expect((await query(without, '10000000146')).json.count).toBe(0);
    expect((await query(without)).json.count).toBe(1);
  });
});
