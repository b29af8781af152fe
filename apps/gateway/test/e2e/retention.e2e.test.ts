import { createLogger } from '@feedback/kit-core/runtime';
import { connectMongo, type MongoHandle } from '@feedback/kit-stores';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_KEYS, stackClient } from './stack-client.js';

/** docs/api.md "Retention": the admin routes over HTTP, and the setting reaching the services that apply it. */
describe('account retention (admin API)', () => {
  const c = stackClient();
  let mongo: MongoHandle;
  const put = (accountId: string, body: unknown) =>
    c.request('PUT', `/admin/v1/accounts/${accountId}/retention`, {
      headers: { authorization: `Bearer ${c.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const get = (accountId: string) =>
    c.request('GET', `/admin/v1/accounts/${accountId}/retention`, { headers: { authorization: `Bearer ${c.adminToken}` } });

  beforeAll(async () => {
    mongo = await connectMongo({ url: c.stack.mongo_url, dbName: 'gateway', logger: createLogger('retention-e2e', 'silent') });
  });
  afterAll(async () => {
    await mongo?.close();
  });

  it('an account without a setting follows the deployment defaults, saying so', async () => {
    const { id } = await c.admin('POST', '/accounts', { name: 'retention-defaults' });
    const res = await get(id!);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      account_id: id,
      retention_days: null,
      messages: { days: 365, source: 'default' },
      responses: { days: 730, source: 'default' },
      webhook_deliveries: { days: 30, source: 'default' },
      updated_at: null,
    });
  });

  it('retention_days applies to every kind, a kind of its own over it; GET answers the same; {} returns to the defaults', async () => {
    const { id } = await c.admin('POST', '/accounts', { name: 'retention-set' });
    const set = await put(id!, { retention_days: 90, messages_days: 30 });
    expect(set.status).toBe(200);
    expect(set.json).toMatchObject({
      account_id: id,
      retention_days: 90,
      messages: { days: 30, source: 'account' },
      responses: { days: 90, source: 'account' },
      webhook_deliveries: { days: 90, source: 'account' },
    });
    expect((await get(id!)).json).toEqual(set.json);

    const forEver = await put(id!, { responses_days: 0 });
    expect(forEver.json).toMatchObject({
      retention_days: null,
      messages: { days: 365, source: 'default' },
      responses: { days: 0, source: 'account' },
    });
    const reset = await put(id!, {});
    expect(reset.json).toMatchObject({ messages: { source: 'default' }, responses: { days: 730, source: 'default' } });
  });

  it('messaging, survey and webhooks receive the setting (account.retention) into their own databases', async () => {
    const { id } = await c.admin('POST', '/accounts', { name: 'retention-propagation' });
    expect((await put(id!, { retention_days: 45, webhook_deliveries_days: 7 })).status).toBe(200);
    const client = mongo.client;
    for (const db of ['messaging', 'survey', 'webhooks']) {
      const col = client.db(db).collection<{ _id: string; days: Record<string, number> }>('account_retention');
      let doc = null;
      for (let i = 0; i < 150 && !doc; i++) {
        doc = await col.findOne({ _id: id! });
        if (!doc) await new Promise((r) => setTimeout(r, 200));
      }
      expect(doc?.days, db).toEqual({ messages: 45, responses: 45, webhook_deliveries: 7 });
    }
    // Each service's account.retention consumer may still be joining its group when the test
    // command starts the tests right after the apps (a warm cache): up to 30 s per database above.
  }, 100_000);

  it('bad values answer 400 naming the field; an unknown account 404; no admin token 401', async () => {
    const { id } = await c.admin('POST', '/accounts', { name: 'retention-bad' });
    for (const [body, field] of [
      [{ retention_days: -1 }, 'body.retention_days'],
      [{ messages_days: 1.5 }, 'body.messages_days'],
      [{ responses_days: 36_501 }, 'body.responses_days'],
      [{ webhook_deliveries_days: '30' }, 'body.webhook_deliveries_days'],
      [{ retention: 30 }, 'body.retention'],
    ] as const) {
      const res = await put(id!, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(res.json).sort()).toEqual(ERROR_KEYS);
      expect(res.json.code).toBe(13000);
      expect(Object.keys(res.json.errors ?? {})).toEqual([field]);
    }
    const unknown = await put('00000000-0000-4000-8000-000000000000', { retention_days: 30 });
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ code: 13002, errors: { account_id: '00000000-0000-4000-8000-000000000000' } });
    expect((await get('00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await c.request('GET', `/admin/v1/accounts/${id}/retention`)).status).toBe(401);
  });

  it("the gateway's Idempotency-Key records expire by a TTL index on expires_at (24 h after the first request)", async () => {
    const indexes = await mongo.db.collection('idempotency_keys').indexes();
    expect(indexes.find((i) => i.name === 'expires_at_ttl')).toMatchObject({ key: { expires_at: 1 }, expireAfterSeconds: 0 });
  });
});
