import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomPhone, smsClient, waitFor } from './sms-client.js';

// Erasure of one person's data (docs/api.md "Personal data") over HTTP against the running stack:
// a person with an SMS (and its short link), an answer (and its webhook delivery), an opt-out and
// a personal link; the erasure request goes through every service and completes; then their data
// is gone, another person's is not, and the phone is still suppressed.
const sms = smsClient();
const json = { 'content-type': 'application/json' };
const asApi = (token: string) => ({ authorization: `Token token=${token}`, ...json });

interface Erasure {
  id: string;
  status: 'pending' | 'completed';
  requested_at: string;
  completed_at: string | null;
  counts: Record<string, number>;
}

/** A webhook receiver on 127.0.0.1 answering 204 to everything. */
function receiver() {
  let received = 0;
  const server: Server = createServer((req, res) => {
    req.resume().on('end', () => {
      received++;
      res.writeHead(204).end();
    });
  });
  return {
    count: () => received,
    async start() {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('data erasure end to end', () => {
  const rx = receiver();
  let setup: Awaited<ReturnType<typeof sms.newCampaign>>;
  let endpointId: string;
  const [person, other] = [randomPhone(), randomPhone()];

  beforeAll(async () => {
    const origin = await rx.start();
    setup = await sms.newCampaign('Anket: {{link}}');
    const ep = await sms.request('POST', '/v1/webhook_endpoints', {
      headers: asApi(setup.account.apiToken),
      body: JSON.stringify({ url: `${origin}/hooks`, events: ['survey.answered'] }),
    });
    expect(ep.status, ep.text).toBe(201);
    endpointId = (ep.json.endpoint as { id: string }).id;
  });
  afterAll(() => rx.close());

  const erasures = {
    request: (body: unknown, token = setup.account.apiToken) =>
      sms.request('POST', '/v1/data_erasures', { headers: asApi(token), body: JSON.stringify(body) }),
    get: (id: string, token = setup.account.apiToken) =>
      sms.request('GET', `/v1/data_erasures/${id}`, { headers: { authorization: `Token token=${token}` } }),
  };
  const activeSurveys = (phone: string) =>
    sms.request('POST', `/external/v1/nodes/${setup.nodeId}/active_surveys`, {
      headers: { authorization: `Bearer ${setup.account.integrationToken}`, ...json },
      body: JSON.stringify({ customer: { phone_number: phone } }),
    });
  const deliveries = async () =>
    (
      await sms.request('GET', `/v1/webhook_endpoints/${endpointId}/deliveries`, {
        headers: { authorization: `Token token=${setup.account.apiToken}` },
      })
    ).json.data as unknown[];
  const responses = async () =>
    (await sms.request('GET', '/v1/responses', { headers: { authorization: `Token token=${setup.account.apiToken}` } })).json.data as {
      customer: { phone: string | null };
    }[];

  it("erases the person's customer, messages, short link, response and webhook deliveries in every service, keeps the opt-out as a hash only", async () => {
    // The person and another get the campaign's SMS; the person taps the short link and answers.
    const shared = await sms.share(setup.account.apiToken, setup.campaignId, { phone_numbers: [person, other] });
    expect(shared.status, shared.text).toBe(200);
    const message = await waitFor('the SMS to the person', async () => (await sms.outbox(setup.account.id, person)).data[0]);
    await waitFor('the SMS to the other', async () => (await sms.outbox(setup.account.id, other)).data[0]);
    const shortLink = message.text.replace(/^Anket: /, '');
    const tap = await fetch(shortLink, { redirect: 'manual' });
    expect(tap.status).toBe(302);
    const page = await fetch(tap.headers.get('location')!, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: sms.baseUrl },
      body: 'n.nps=9',
    });
    expect(page.status).toBe(200);
    await waitFor('the webhook delivery', async () => ((await deliveries()).length === 1 && rx.count() >= 1 ? true : undefined));
    // A personal link of another channel: an active survey found by the phone.
    const channel = await sms.admin('POST', `/accounts/${setup.account.id}/channels`, {
      name: 'web',
      node_id: setup.nodeId,
      flow_id: setup.flowId,
      link_ttl_days: 7,
    });
    const personal = await sms.request('POST', `/external/v1/link_channels/${channel.id}/links`, {
      headers: { authorization: `Bearer ${setup.account.integrationToken}`, ...json },
      body: JSON.stringify({ customer: { phone_number: person } }),
    });
    expect(personal.status, personal.text).toBe(200);
    expect((await activeSurveys(person)).json.count).toBe(1);
    const optOut = await sms.request('POST', '/v1/sms_opt_outs', {
      headers: asApi(setup.account.apiToken),
      body: JSON.stringify({ phone_numbers: [person] }),
    });
    expect(optOut.status, optOut.text).toBe(200);
    expect((await responses()).map((r) => r.customer.phone)).toEqual([person.slice(1)]);

    const requested = await erasures.request({ phone_number: `0${person.slice(3)}` });
    expect(requested.status, requested.text).toBe(202);
    expect(requested.json).toMatchObject({ status: 'pending', completed_at: null, requested_at: expect.stringMatching(/\+00:00$/) });
    const id = requested.json.id as string;
    const done = await waitFor('the erasure to complete', async () => {
      const res = await erasures.get(id);
      expect(res.status, res.text).toBe(200);
      return (res.json as unknown as Erasure).status === 'completed' ? (res.json as unknown as Erasure) : undefined;
    });
    expect(done).toEqual({
      id,
      status: 'completed',
      requested_at: requested.json.requested_at,
      completed_at: expect.stringMatching(/\+00:00$/),
      counts: { customers: 1, messages: 1, responses: 1, links: 1, webhook_deliveries: 1, opt_outs_kept: 1 },
    });

    // Gone: the SMS records, the active survey, the response, the survey page, the delivery log entry.
    expect((await sms.outbox(setup.account.id, person)).data).toEqual([]);
    expect((await sms.outbox(setup.account.id, other)).data).toHaveLength(1);
    expect((await activeSurveys(person)).json.count).toBe(0);
    expect(await responses()).toEqual([]);
    // The short link is gone from the shortener (counts.links); the gateway may still redirect from
    // its link cache for LINK_CACHE_TTL_MS, to a survey page that is gone.
    expect((await fetch(tap.headers.get('location')!)).status).toBe(404);
    expect(await deliveries()).toEqual([]);
    // The opt-out is kept without the number, and still suppresses it.
    const list = await sms.request('GET', '/v1/sms_opt_outs', { headers: { authorization: `Token token=${setup.account.apiToken}` } });
    expect(list.text).not.toContain(person.slice(1));
    expect(list.json.data).toHaveLength(1);
    const again = await sms.share(setup.account.apiToken, setup.campaignId, { phone_numbers: [person] });
    expect(again.json).toMatchObject({ accepted: 0, rejected: 1, rejected_phones: [{ phone: person, reason: 'opted_out' }] });

    // The same request on the admin API; another account's token does not see it.
    const viaAdmin = await sms.admin('GET', `/accounts/${setup.account.id}/data_erasures/${id}`);
    expect(viaAdmin).toEqual(done);
    const stranger = await sms.newAccount('erasure-stranger');
    const foreign = await erasures.get(id, stranger.apiToken);
    expect(foreign.status).toBe(404);
    expect(foreign.json).toMatchObject({ code: 13002, errors: { data_erasure_id: id } });
  }, 90_000);

  it('answers 400 / 13000 naming the fields of a bad body, 404 / 13002 for an unknown id, 401 without a token', async () => {
    const none = await erasures.request({});
    expect(none.status).toBe(400);
    expect(none.json).toMatchObject({
      code: 13000,
      errors: { phone_number: expect.any(String), email: expect.any(String), external_id: expect.any(String) },
    });
    const bad = await erasures.request({ phone_number: '12', email: 'nope' });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.json.errors ?? {}).sort()).toEqual(['email', 'phone_number']);
    const extra = await erasures.request({ phone: person });
    expect(extra.status).toBe(400);
    expect(extra.json.code).toBe(13000);
    const unknown = await erasures.get('00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ code: 13002, errors: { data_erasure_id: '00000000-0000-4000-8000-000000000000' } });
    expect((await sms.request('POST', '/v1/data_erasures', { headers: json, body: '{"email":"a@b.co"}' })).status).toBe(401);
  });

  it('the admin API requests an erasure in a given account, and nothing matched completes with zero counts', async () => {
    const res = await sms.request('POST', `/admin/v1/accounts/${setup.account.id}/data_erasures`, {
      headers: { authorization: `Bearer ${sms.adminToken}`, ...json },
      body: JSON.stringify({ email: 'nobody@example.com' }),
    });
    expect(res.status, res.text).toBe(202);
    const done = await waitFor('the erasure to complete', async () => {
      const e = (await sms.admin('GET', `/accounts/${setup.account.id}/data_erasures/${res.json.id}`)) as unknown as Erasure;
      return e.status === 'completed' ? e : undefined;
    });
    expect(Object.values(done.counts)).toEqual([0, 0, 0, 0, 0, 0]);
    const missing = await sms.request('POST', '/admin/v1/accounts/00000000-0000-4000-8000-000000000000/data_erasures', {
      headers: { authorization: `Bearer ${sms.adminToken}`, ...json },
      body: JSON.stringify({ email: 'nobody@example.com' }),
    });
    expect(missing.status).toBe(404);
  });
});
