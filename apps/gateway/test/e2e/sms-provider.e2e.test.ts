import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomPhone, smsClient, waitFor } from './sms-client.js';
import { ERROR_KEYS } from './stack-client.js';

interface Hit {
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * One customer's SMS operator: an HTTP SMS API on 127.0.0.1:0 that takes a message only with its
 * own credentials (401 otherwise) and records every request it gets.
 */
async function smsOperator(accepts: (h: Hit) => boolean, answer: string) {
  const hits: Hit[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://operator');
      const hit = { path: url.pathname, query: Object.fromEntries(url.searchParams), headers: req.headers, body };
      hits.push(hit);
      if (accepts(hit)) res.writeHead(200, { 'content-type': 'text/plain' }).end(answer);
      else res.writeHead(401).end('bad credentials');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const digits = (phone: string) => phone.replace(/^\+/, '');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Accounts' own SMS providers (docs/api.md "Admin API"), over HTTP against the running stack:
 * each account's SMS go to its own operator with its own sender and credentials, and only its
 * own; the admin API never shows the credentials; delivery reports come back through the signed
 * callback URL and are read by each operator's rule; DELETE puts the account back on the
 * deployment's provider (the local stack's outbox).
 */
describe("an account's own SMS provider", () => {
  const sms = smsClient();
  const secretA = `pw-${randomBytes(8).toString('hex')}`;
  const tokenB = `tok-${randomBytes(8).toString('hex')}`;
  let a: Awaited<ReturnType<typeof sms.newCampaign>>;
  let b: Awaited<ReturnType<typeof sms.newCampaign>>;
  let opA: Awaited<ReturnType<typeof smsOperator>>;
  let opB: Awaited<ReturnType<typeof smsOperator>>;
  const admin = (method: string, accountId: string, body?: unknown) =>
    sms.request(method, `/admin/v1/accounts/${accountId}/sms_provider`, {
      headers: { authorization: `Bearer ${sms.adminToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  // A: a Kannel-like GET API, credentials in the query, reports by `status=%d` in the callback URL.
  const providerA = () => ({
    url: `${opA.url}/cgi-bin/sendsms`,
    method: 'GET',
    sender: 'ACME',
    query: { username: 'acme', password: secretA, from: '{sender}', to: '{to}', text: '{text}', 'dlr-url': '{dlr_url}' },
    success: { body_regex: '^0: Accepted' },
    dlr: { url_query: 'status=%d', status_param: 'status', delivered: ['1'], failed: ['2', '16'] },
  });
  // B: a JSON API with a bearer token, reporting its own state names in a JSON body.
  const providerB = () => ({
    url: `${opB.url}/v1/sms`,
    sender: 'Beta Shop',
    headers: { authorization: `Bearer ${tokenB}` },
    body: '{"from": "{sender}", "to": "{to}", "message": "{text}", "callback_url": "{dlr_url}"}',
    message_id_regex: '"id":"([^"]+)"',
    dlr: { status_param: 'state', delivered: ['DELIVRD'], failed: ['UNDELIV', 'REJECTD'] },
  });

  beforeAll(async () => {
    [a, b, opA, opB] = await Promise.all([
      sms.newCampaign(),
      sms.newCampaign(),
      smsOperator((h) => h.query.username === 'acme' && h.query.password === secretA, '0: Accepted for delivery'),
      smsOperator((h) => h.headers.authorization === `Bearer ${tokenB}`, '{"id":"b-42"}'),
    ]);
  });
  afterAll(async () => {
    await opA?.close();
    await opB?.close();
  });

  it(
    "sends each account's SMS through its own operator only, shows the providers masked, applies each operator's reports, and DELETE goes back to the deployment's provider",
    { timeout: 120_000 },
    async () => {
      // Set: each answer is the provider as stored, defaults filled in, credentials masked.
      const putA = await admin('PUT', a.account.id, providerA());
      expect(putA.status, putA.text).toBe(200);
      expect(putA.json).toEqual({
        url: `${opA.url}/cgi-bin/sendsms`,
        method: 'GET',
        sender: 'ACME',
        headers: {},
        query: { username: '****', password: '****', from: '{sender}', to: '{to}', text: '{text}', 'dlr-url': '{dlr_url}' },
        body_encoding: 'json',
        timeout_ms: 10000,
        success: { status_min: 200, status_max: 299, body_regex: '^0: Accepted' },
        retry_statuses: [408, 425, 429, 500, 502, 503, 504],
        dlr: { url_query: 'status=%d', status_param: 'status', delivered: ['1'], failed: ['2', '16'] },
        turkish_shift_table: false,
        created_at: expect.stringMatching(/\+00:00$/),
        updated_at: expect.stringMatching(/\+00:00$/),
      });
      const putB = await admin('PUT', b.account.id, providerB());
      expect(putB.status, putB.text).toBe(200);
      expect(putB.json.headers).toEqual({ authorization: '****' });
      expect(JSON.parse(String(putB.json.body))).toEqual({ from: '{sender}', to: '{to}', message: '{text}', callback_url: '{dlr_url}' });
      for (const res of [putA, putB]) expect(res.text).not.toMatch(new RegExp(`${secretA}|${tokenB}|acme"`));

      // GET shows the same, and never a credential.
      const [getA, getB] = await Promise.all([admin('GET', a.account.id), admin('GET', b.account.id)]);
      expect([getA.status, getB.status]).toEqual([200, 200]);
      expect(getA.json).toEqual(putA.json);
      expect(getB.json).toEqual(putB.json);
      expect(getA.text + getB.text).not.toMatch(new RegExp(`${secretA}|${tokenB}`));

      // A sharing in each account.
      const phonesA = [randomPhone(), randomPhone()];
      const phonesB = [randomPhone(), randomPhone()];
      const [shareA, shareB] = await Promise.all([
        sms.share(a.account.apiToken, a.campaignId, { phone_numbers: phonesA, custom_attributes: { [phonesA[0]!]: { name: 'Ayşe' } } }),
        sms.share(b.account.apiToken, b.campaignId, { phone_numbers: phonesB }),
      ]);
      expect([shareA.status, shareB.status], shareA.text + shareB.text).toEqual([200, 200]);
      expect([shareA.json.accepted, shareB.json.accepted]).toEqual([2, 2]);

      await waitFor(
        'both operators to get both SMS',
        async () => (opA.hits.length >= 2 && opB.hits.length >= 2 ? true : undefined),
        60_000,
      );
      await sleep(1_000); // anything more would come now
      expect(opA.hits).toHaveLength(2);
      expect(opB.hits).toHaveLength(2);

      // A's operator: A's phones only, with A's sender and credentials.
      expect(opA.hits.map((h) => h.query.to).sort()).toEqual(phonesA.map(digits).sort());
      for (const h of opA.hits) {
        expect(h.path).toBe('/cgi-bin/sendsms');
        expect([h.query.username, h.query.password, h.query.from]).toEqual(['acme', secretA, 'ACME']);
        expect(h.query.text).toMatch(
          new RegExp(`^Merhaba (Ayşe)?, ziyaretinizi değerlendirin: ${sms.stack.shortener_url}/[A-Za-z0-9_-]+$`),
        );
        expect(h.headers.authorization).toBeUndefined();
      }
      // B's operator: B's phones only, with B's sender and token.
      const bodiesB = opB.hits.map((h) => JSON.parse(h.body) as Record<string, string>);
      expect(bodiesB.map((m) => m.to).sort()).toEqual(phonesB.map(digits).sort());
      for (const [k, h] of opB.hits.entries()) {
        expect([h.path, h.headers.authorization, h.headers['content-type']]).toEqual(['/v1/sms', `Bearer ${tokenB}`, 'application/json']);
        expect(bodiesB[k]!.from).toBe('Beta Shop');
        expect(bodiesB[k]!.message).toMatch(/^Merhaba , ziyaretinizi değerlendirin: /);
      }
      // Neither went through the deployment's provider.
      expect((await sms.outbox(a.account.id)).data).toEqual([]);
      expect((await sms.outbox(b.account.id)).data).toEqual([]);

      // Delivery reports, each operator its own way, through the signed URL it was handed.
      const byPhoneA = new Map(opA.hits.map((h) => [h.query.to!, h.query['dlr-url']!]));
      expect(new URL(byPhoneA.get(digits(phonesA[0]!))!).searchParams.get('status')).toBe('%d');
      const reportA = (phone: string, code: string) => fetch(byPhoneA.get(digits(phone))!.replace('%d', code));
      expect((await reportA(phonesA[0]!, '8')).status).toBe(200); // progress: changes nothing
      expect((await reportA(phonesA[0]!, '1')).status).toBe(200);
      expect((await reportA(phonesA[1]!, '16')).status).toBe(200);

      const byPhoneB = new Map(bodiesB.map((m) => [m.to!, m.callback_url!]));
      const reportB = (phone: string, report: unknown) =>
        fetch(byPhoneB.get(digits(phone))!, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(report),
        });
      // The deployment's report field means nothing for B's messages: B's rule reads them.
      expect((await reportB(phonesB[0]!, { status: '1' })).status).toBe(400);
      expect((await reportB(phonesB[0]!, { state: 'UNDELIV' })).status).toBe(200);
      expect((await reportB(phonesB[1]!, { state: 'DELIVRD' })).status).toBe(200);
      // A forged signature: refused.
      const forged = new URL(byPhoneB.get(digits(phonesB[1]!))!);
      forged.searchParams.set('sig', 'x'.repeat(32));
      expect(
        (await fetch(forged, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"state":"UNDELIV"}' })).status,
      ).toBe(403);

      const statuses = async (token: string, sharingId: string) =>
        Object.fromEntries(
          ((await sms.sharing(token, sharingId)).json.recipients as { phone: string; status: string }[]).map((r) => [r.phone, r.status]),
        );
      expect(await statuses(a.account.apiToken, String(shareA.json.id))).toEqual({
        [digits(phonesA[0]!)]: 'delivered',
        [digits(phonesA[1]!)]: 'failed',
      });
      expect(await statuses(b.account.apiToken, String(shareB.json.id))).toEqual({
        [digits(phonesB[0]!)]: 'failed',
        [digits(phonesB[1]!)]: 'delivered',
      });

      // DELETE: A is back on the deployment's provider (the outbox here); B keeps its own.
      const del = await admin('DELETE', a.account.id);
      expect([del.status, del.text]).toEqual([204, '']);
      const gone = await admin('GET', a.account.id);
      expect([gone.status, gone.json.code, gone.json.errors]).toEqual([404, 13002, { sms_provider: a.account.id }]);

      const [phoneA3, phoneB3] = [randomPhone(), randomPhone()];
      const [again, againB] = await Promise.all([
        sms.share(a.account.apiToken, a.campaignId, { phone_numbers: [phoneA3] }),
        sms.share(b.account.apiToken, b.campaignId, { phone_numbers: [phoneB3] }),
      ]);
      expect([again.status, againB.status]).toEqual([200, 200]);
      const inOutbox = await waitFor('the SMS in the outbox', async () => (await sms.outbox(a.account.id, phoneA3)).data[0]);
      expect(inOutbox).toMatchObject({ phone: digits(phoneA3), sharing_id: again.json.id });
      await waitFor("B's third SMS at B's operator", async () => (opB.hits.length >= 3 ? true : undefined));
      await sleep(500);
      expect(opA.hits).toHaveLength(2);
      expect(JSON.parse(opB.hits[2]!.body)).toMatchObject({ to: digits(phoneB3), from: 'Beta Shop' });
      expect((await sms.outbox(b.account.id)).data).toEqual([]);
    },
  );

  it('refuses invalid providers naming the field (400), unknown accounts (404), and answers 404 without one', async () => {
    const account = await sms.newAccount('sms-provider-e2e');
    const valid = {
      url: 'https://sms.example.com/send',
      sender: 'ACME',
      query: { key: 'k', to: '{to}', text: '{text}' },
    };
    const cases: [unknown, Record<string, unknown>][] = [
      [{ ...valid, sender: undefined }, { 'body.sender': expect.any(String) }],
      [{ ...valid, sender: 'FAR TOO LONG A SENDER' }, { 'body.sender': expect.any(String) }],
      [{ ...valid, method: 'DELETE' }, { 'body.method': expect.any(String) }],
      [{ ...valid, password: 'p' }, { 'body.password': 'is not allowed' }],
      [{ ...valid, timeout_ms: 5 }, { 'body.timeout_ms': expect.any(String) }],
      [{ ...valid, url: 'ftp://sms.example.com/send' }, { url: 'must be an http or https URL' }],
      [
        { ...valid, query: { key: 'k' } },
        { '{to}': 'must appear in query, headers or body', '{text}': 'must appear in query, headers or body' },
      ],
      [{ ...valid, success: { body_regex: '(' } }, { 'success.body_regex': expect.stringMatching(/Unterminated group/) }],
      [{ ...valid, method: 'GET', body: '{"to":"{to}"}' }, { body: 'is not sent with method GET' }],
    ];
    for (const [body, errors] of cases) {
      const res = await admin('PUT', account.id, body);
      expect([res.status, res.json.code], `${JSON.stringify(body)} → ${res.text}`).toEqual([400, 13000]);
      expect(Object.keys(res.json).sort()).toEqual(ERROR_KEYS);
      expect(res.json.errors, JSON.stringify(body)).toEqual(errors);
    }
    // Nothing was stored by any of them.
    const none = await admin('GET', account.id);
    expect([none.status, none.json.errors]).toEqual([404, { sms_provider: account.id }]);
    const delNone = await admin('DELETE', account.id);
    expect([delNone.status, delNone.json.errors]).toEqual([404, { sms_provider: account.id }]);

    const unknown = 'no-such-account';
    for (const [method, body] of [
      ['PUT', valid],
      ['GET', undefined],
      ['DELETE', undefined],
    ] as const) {
      const res = await admin(method, unknown, body);
      expect([res.status, res.json.code, res.json.errors], `${method} → ${res.text}`).toEqual([404, 13002, { account_id: unknown }]);
    }
    const noToken = await sms.request('GET', `/admin/v1/accounts/${account.id}/sms_provider`);
    expect([noToken.status, noToken.json.code]).toEqual([401, 13001]);
    const asAccount = await sms.request('PUT', `/admin/v1/accounts/${account.id}/sms_provider`, {
      headers: { authorization: `Bearer ${account.apiToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(valid),
    });
    expect(asAccount.status).toBe(401);
  });
});
