import { readStackFile } from '@feedback/dev-stack';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, call } from './api.js';
import { receiver, verifyAll } from './receiver.js';
import { waitFor } from './stack.js';

// Webhooks over HTTP against the running stack, as an integrator uses them, with a real receiver
// on 127.0.0.1 (the local stack allows plain http to loopback, and retries within seconds) that
// checks every delivery with the Standard Webhooks library.
const stack = readStackFile();
const base = stack.base_url!;

async function newAccount() {
  const account = await admin('POST', '/accounts', { name: 'webhooks e2e' });
  const api = await admin('POST', `/accounts/${account.id}/tokens`, { kind: 'api', name: 'api' });
  const integration = await admin('POST', `/accounts/${account.id}/tokens`, { kind: 'integration', name: 'int' });
  return { id: account.id as string, apiToken: api.token as string, integrationToken: integration.token as string };
}

describe('webhooks end to end', () => {
  const rx = receiver();
  let origin: string;
  let acc: Awaited<ReturnType<typeof newAccount>>;
  let other: Awaited<ReturnType<typeof newAccount>>;

  beforeAll(async () => {
    origin = await rx.start();
    [acc, other] = await Promise.all([newAccount(), newAccount()]);
  });
  afterAll(() => rx.close());

  const create = (token: string, body: unknown) => call('POST', '/v1/webhook_endpoints', { token, body });
  const endpoint = async (path: string, events = ['survey.answered']) => {
    const res = await create(acc.apiToken, { url: origin + path, events, description: path });
    expect(res.status, res.text).toBe(201);
    return res.json as { endpoint: { id: string; enabled: boolean }; secret: string };
  };
  const deliveries = async (id: string, token = acc.apiToken) => call('GET', `/v1/webhook_endpoints/${id}/deliveries`, { token });

  it('an answer on the survey page arrives as survey.answered, once per webhook-id, signed', async () => {
    const { endpoint: ep, secret } = await endpoint('/answers');
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]+$/);
    const node = await admin('POST', `/accounts/${acc.id}/nodes`, { name: 'store' });
    const flow = await admin('POST', `/accounts/${acc.id}/flows`, {
      name: 'Visit',
      questions: [{ key: 'nps', body: { en: 'Recommend us?' }, style: 'nps' }],
    });
    const channel = await admin('POST', `/accounts/${acc.id}/channels`, {
      name: 'web',
      node_id: node.id,
      flow_id: flow.id,
      link_ttl_days: 7,
    });
    const link = await fetch(`${base}/external/v1/link_channels/${channel.id}/links`, {
      method: 'POST',
      headers: { authorization: `Bearer ${acc.integrationToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ customer: { external_id: 'C-42' } }),
    }).then((r) => r.json() as Promise<{ link: string }>);
    const page = await fetch(link.link, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(link.link).origin },
      body: 'n.nps=9',
    });
    expect(page.status).toBe(200);

    await waitFor('the survey.answered delivery', () => rx.at('/answers').length >= 1);
    const [event] = verifyAll(rx.at('/answers'), secret);
    expect(event).toMatchObject({
      type: 'survey.answered',
      data: { flow_id: flow.id, channel_id: channel.id, answers: { nps: 9 }, campaign_id: null, custom_attributes: {} },
    });
    // One shape everywhere: the REST API's answers of that response are the webhook's.
    const stored = await call('GET', `/v1/responses/${String(event!.data.response_id)}`, {
      token: acc.apiToken,
    });
    expect(stored.json.answers).toEqual(event!.data.answers);
    const log = await deliveries(ep.id);
    expect(log.json.data).toHaveLength(1);
    expect(log.json.data[0]).toMatchObject({
      event_type: 'survey.answered',
      status: 'succeeded',
      attempts: [{ status_code: 204, error: null }],
    });
    expect(new Set(rx.at('/answers').map((r) => r.headers['webhook-id']))).toEqual(new Set([log.json.data[0].webhook_id]));
    // A second webhook-id would mean a second delivery: the log has one, succeeded at its first attempt.
    expect(rx.at('/answers')).toHaveLength(log.json.data[0].attempts.length);
  });

  it('a receiver failing three times then answering 2xx gets the same webhook-id four times', async () => {
    const { endpoint: ep, secret } = await endpoint('/flaky');
    rx.plan('/flaky', [500, 503, 502, 200]);
    const test = await call('POST', `/v1/webhook_endpoints/${ep.id}/test`, { token: acc.apiToken });
    expect(test.status, test.text).toBe(202);
    await waitFor('four attempts', () => rx.at('/flaky').length >= 4, 60_000);
    const events = verifyAll(rx.at('/flaky'), secret);
    expect(events.map((e) => e.type)).toEqual(Array(4).fill('webhook.test'));
    expect(new Set(rx.at('/flaky').map((r) => r.headers['webhook-id']))).toEqual(new Set([test.json.delivery.webhook_id]));
    await waitFor('the log to show the success', async () => (await deliveries(ep.id)).json.data[0].status === 'succeeded');
    const [d] = (await deliveries(ep.id)).json.data;
    expect(d.attempts.map((a: { status_code: number }) => a.status_code)).toEqual([500, 503, 502, 200]);
    expect(d.attempts[0].response_body).toBe('failing with 500');

    // Replayed: due again at once, with the same webhook-id.
    const replay = await call('POST', `/v1/webhook_endpoints/${ep.id}/deliveries/${d.id}/replay`, { token: acc.apiToken });
    expect(replay.status, replay.text).toBe(202);
    await waitFor('the replay', () => rx.at('/flaky').length >= 5);
    expect(rx.at('/flaky')[4]!.headers['webhook-id']).toBe(d.webhook_id);
  });

  it('410 disables the endpoint, and the delivery log says so', async () => {
    const { endpoint: ep } = await endpoint('/gone');
    rx.plan('/gone', [410]);
    await call('POST', `/v1/webhook_endpoints/${ep.id}/test`, { token: acc.apiToken });
    await waitFor(
      'the endpoint disabled',
      async () => (await call('GET', `/v1/webhook_endpoints/${ep.id}`, { token: acc.apiToken })).json.endpoint.enabled === false,
    );
    const got = await call('GET', `/v1/webhook_endpoints/${ep.id}`, { token: acc.apiToken });
    expect(got.json.endpoint.disabled_reason).toMatch(/410/);
    const [d] = (await deliveries(ep.id)).json.data;
    expect(d).toMatchObject({ status: 'failed', note: expect.stringMatching(/disabled.*410/) });
    expect(rx.at('/gone')).toHaveLength(1);
    // Enabled again by its account.
    const on = await call('PATCH', `/v1/webhook_endpoints/${ep.id}`, { token: acc.apiToken, body: { enabled: true } });
    expect(on.json.endpoint).toMatchObject({ enabled: true, disabled_reason: null });
  });

  it('after a rotation each delivery verifies with the old and with the new secret', async () => {
    const { endpoint: ep, secret: old } = await endpoint('/rotated');
    const rotated = await call('POST', `/v1/webhook_endpoints/${ep.id}/secret/rotate`, { token: acc.apiToken });
    expect(rotated.status, rotated.text).toBe(200);
    const fresh = rotated.json.secret as string;
    expect(fresh).not.toBe(old);
    expect(Date.parse(rotated.json.endpoint.previous_secret_expires_at) - Date.now()).toBeGreaterThan(23 * 3_600_000);
    await call('POST', `/v1/webhook_endpoints/${ep.id}/test`, { token: acc.apiToken });
    await waitFor('the test event', () => rx.at('/rotated').length >= 1);
    expect(String(rx.at('/rotated')[0]!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verifyAll(rx.at('/rotated'), old)[0]!.type).toBe('webhook.test');
    expect(verifyAll(rx.at('/rotated'), fresh)[0]!.type).toBe('webhook.test');
  });

  it("another account's endpoint and delivery are 404 13002", async () => {
    const { endpoint: ep } = await endpoint('/mine');
    const test = await call('POST', `/v1/webhook_endpoints/${ep.id}/test`, { token: acc.apiToken });
    const deliveryId = test.json.delivery.id as string;
    const theirs = await create(other.apiToken, { url: `${origin}/theirs`, events: ['sms.failed'] });
    const notFound = { code: 13002, errors: { endpoint_id: ep.id } };
    for (const [method, path, body] of [
      ['GET', `/v1/webhook_endpoints/${ep.id}`],
      ['PATCH', `/v1/webhook_endpoints/${ep.id}`, { enabled: false }],
      ['DELETE', `/v1/webhook_endpoints/${ep.id}`],
      ['POST', `/v1/webhook_endpoints/${ep.id}/secret/rotate`],
      ['POST', `/v1/webhook_endpoints/${ep.id}/test`],
      ['GET', `/v1/webhook_endpoints/${ep.id}/deliveries`],
      ['POST', `/v1/webhook_endpoints/${ep.id}/deliveries/${deliveryId}/replay`],
    ] as const) {
      const res = await call(method, path, { token: other.apiToken, body });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.json).toMatchObject(notFound);
    }
    // Their own endpoint with my delivery's id.
    const replay = await call('POST', `/v1/webhook_endpoints/${theirs.json.endpoint.id}/deliveries/${deliveryId}/replay`, {
      token: other.apiToken,
    });
    expect(replay.status).toBe(404);
    expect(replay.json).toMatchObject({ code: 13002, errors: { delivery_id: deliveryId } });
    expect((await call('GET', '/v1/webhook_endpoints', { token: other.apiToken })).json.data.map((e: { id: string }) => e.id)).toEqual([
      theirs.json.endpoint.id,
    ]);
    expect((await call('GET', `/v1/webhook_endpoints/${ep.id}`, { token: acc.apiToken })).status).toBe(200);
  });

  it('the metadata address is refused, even with loopback allowed; bad urls and events name their field', async () => {
    for (const url of [
      'http://169.254.169.254/latest/meta-data',
      'http://[::ffff:169.254.169.254]/',
      'http://10.0.0.1/hook',
      'ftp://example.com/x',
      'not a url',
    ]) {
      const res = await create(acc.apiToken, { url, events: ['survey.answered'] });
      expect(res.status, url).toBe(400);
      expect(Object.keys(res.json.errors), url).toEqual(['url']);
    }
    const bad = await create(acc.apiToken, { url: `${origin}/x`, events: ['survey.answered', 'survey.deleted'] });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.json.errors)[0]).toMatch(/events/);
    const { endpoint: ep } = await endpoint('/moved');
    const patched = await call('PATCH', `/v1/webhook_endpoints/${ep.id}`, {
      token: acc.apiToken,
      body: { url: 'http://169.254.169.254/' },
    });
    expect(patched.status).toBe(400);
    expect(patched.json.errors).toEqual({ url: expect.stringMatching(/metadata/) });
  });

  it('lists, updates and deletes endpoints, a page at a time', async () => {
    const token = (await newAccount()).apiToken;
    const ids: string[] = [];
    for (const path of ['/a', '/b', '/c'])
      ids.push((await create(token, { url: origin + path, events: ['file.expired'] })).json.endpoint.id);
    const first = await call('GET', '/v1/webhook_endpoints?page_size=2', { token });
    const second = await call('GET', `/v1/webhook_endpoints?page_size=2&page_token=${first.json.next_page_token}`, { token });
    expect([...first.json.data, ...second.json.data].map((e: { id: string }) => e.id)).toEqual([...ids].reverse());
    expect(second.json.next_page_token).toBeNull();
    const patched = await call('PATCH', `/v1/webhook_endpoints/${ids[0]}`, {
      token,
      body: { events: ['sms.delivered', 'sms.opted_out'], description: 'CRM' },
    });
    expect(patched.json.endpoint).toMatchObject({ events: ['sms.delivered', 'sms.opted_out'], description: 'CRM' });
    expect((await call('DELETE', `/v1/webhook_endpoints/${ids[0]}`, { token })).status).toBe(204);
    expect((await call('GET', `/v1/webhook_endpoints/${ids[0]}`, { token })).status).toBe(404);
  });
});
