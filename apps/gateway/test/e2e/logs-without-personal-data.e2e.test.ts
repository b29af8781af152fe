import { randomBytes, randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { smsClient, waitFor } from './sms-client.js';
import { settle, stackLogLines, type LogLine } from './stack-logs.js';

const api = smsClient();

/** A valid-looking TCKN (its two check digits right) nobody else's test uses. */
function randomTckn(): string {
  const d = [randomInt(1, 10), ...Array.from({ length: 8 }, () => randomInt(0, 10))];
  const odd = d[0]! + d[2]! + d[4]! + d[6]! + d[8]!;
  const even = d[1]! + d[3]! + d[5]! + d[7]!;
  d.push((((odd * 7 - even) % 10) + 10) % 10);
  d.push(d.reduce((a, b) => a + b, 0) % 10);
  return d.join('');
}

// A data-protection audit of the running stack: requests carrying a phone, an e-mail address, a
// TCKN and capability tokens (a survey link, a blob URL) in paths, query strings and bodies,
// through the gateway and on to every service and Kafka consumer; then no log file of the
// stack may hold any of them, in any notation (docs/decisions.md "Request logging").
describe('the logs of the running stack', () => {
  it('hold no phone, e-mail address, TCKN, survey or blob token a request carried', async () => {
    const national = `532${String(randomInt(0, 10_000_000)).padStart(7, '0')}`;
    const phone = `+90${national}`;
    const mailbox = `audit-${randomBytes(6).toString('hex')}`;
    const email = `${mailbox}@example.com`;
    const tckn = randomTckn();
    const surveyToken = randomBytes(18).toString('base64url');
    const blobToken = randomBytes(18).toString('base64url');
    const q = encodeURIComponent;

    const { account, nodeId, campaignId } = await api.newCampaign('Merhaba {{name}}: {{link}}');
    const auth = { authorization: `Bearer ${account.apiToken}` };
    const json = { ...auth, 'content-type': 'application/json' };
    const integration = { authorization: `Bearer ${account.integrationToken}`, 'content-type': 'application/json' };
    const statuses: Record<string, number> = {};
    const send = async (label: string, method: string, path: string, opts: Parameters<typeof api.request>[2] = {}) => {
      statuses[label] = (await api.request(method, path, opts)).status;
    };

    await send('sharing', 'POST', `/v1/sms_campaigns/${campaignId}/sms_sharings`, {
      headers: json,
      body: JSON.stringify({ phone_numbers: [phone], custom_attributes: { [phone]: { name: 'Ada', email, tckn } } }),
    });
    // The SMS goes out through Kafka and messaging; the outbox provider records it.
    await waitFor('the SMS in the outbox', async () => ((await api.outbox(account.id, phone)).data.length > 0 ? true : undefined));
    await send('admin sms_messages', 'GET', `/admin/v1/accounts/${account.id}/sms_messages?phone=${q(phone)}`, {
      headers: { authorization: `Bearer ${api.adminToken}` },
    });
    await send('opt-out create', 'POST', '/v1/sms_opt_outs', { headers: json, body: JSON.stringify({ phone_numbers: [phone] }) });
    await send('opt-out list', 'GET', `/v1/sms_opt_outs?phone=${q(phone)}`, { headers: auth });
    await send('opt-out list digits', 'GET', `/v1/sms_opt_outs?phone=90${national}`, { headers: auth });
    await send('opt-out delete', 'DELETE', `/v1/sms_opt_outs/${q(phone)}`, { headers: auth });
    await send('opt-out delete again', 'DELETE', `/v1/sms_opt_outs/${q(phone)}`, { headers: auth });
    await send('active surveys', 'POST', `/external/v1/nodes/${nodeId}/active_surveys`, {
      headers: integration,
      body: JSON.stringify({ customer: { phone_number: phone, email, schema: { TCKN: tckn } } }),
    });
    await send('active surveys by e-mail', 'POST', `/external/v1/nodes/${nodeId}/active_surveys`, {
      headers: integration,
      body: JSON.stringify({ customer: { email } }),
    });
    await send('survey page', 'GET', `/s/${surveyToken}`);
    await send('survey page post', 'POST', `/s/${surveyToken}?lang=en`, {
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: api.baseUrl },
      body: `n.nps=9&t.email=${q(email)}`,
    });
    await send('blob', 'GET', `/public/v2/storage/blobs/${blobToken}/customers-${national}.csv`);
    await send('unmatched', 'GET', `/v1/customers/${q(phone)}/${q(email)}?phone=${q(phone)}&email=${q(email)}`, { headers: auth });
    await send('unmatched unauthenticated', 'GET', `/v1/sms_opt_outs/${q(phone)}?email=${q(email)}`);
    const shortener = api.stack.shortener_url!;
    statuses['link 404'] = (await fetch(`${shortener}/${surveyToken}?phone=${q(phone)}`, { redirect: 'manual' })).status;
    statuses['link 404 deep'] = (await fetch(`${shortener}/x/${q(phone)}/${q(email)}`, { redirect: 'manual' })).status;
    statuses.shorten = (
      await fetch(`${shortener}/shorten`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ url: `${api.baseUrl}/s/${surveyToken}?email=${q(email)}` }),
      })
    ).status;
    // Each call was made and answered (none was stopped before reaching what it exercises by a bad request of ours).
    expect(statuses).toMatchObject({
      sharing: 200,
      'admin sms_messages': 200,
      'opt-out create': 200,
      'opt-out list': 200,
      'opt-out delete': 204,
      'active surveys': 200,
      'active surveys by e-mail': 200,
      'survey page': 404,
      blob: 404,
      unmatched: 404,
      shorten: 200,
    });

    // The sharing's consumers, the survey and shortener services act after the answers.
    await settle(3_000);
    const needles: Array<[string, string]> = [
      ['phone (national digits, in every notation)', national],
      ['e-mail (its mailbox, also %-encoded)', mailbox],
      ['TCKN', tckn],
      ['survey token', surveyToken],
      ['blob token', blobToken],
    ];
    const found = (l: LogLine) => needles.filter(([, needle]) => l.text.includes(needle)).map(([what]) => what);
    const leaks = stackLogLines()
      .filter((l) => found(l).length > 0)
      .map((l) => `${l.file}:${l.line} (${found(l).join(', ')}): ${l.text.slice(0, 400)}`);
    expect(leaks).toEqual([]);
  }, 60_000);
});
