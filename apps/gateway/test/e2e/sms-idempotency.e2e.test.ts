import { readStackFile } from '@feedback/dev-stack';
import { MongoClient } from 'mongodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { randomPhone, smsClient } from './sms-client.js';
import { publicError } from '../public-error.js';

// Idempotency-Key on POST /v1/sms_campaigns/{id}/sms_sharings, Stripe's semantics, against the stack.
describe('SMS sharing Idempotency-Key', () => {
  const sms = smsClient();
  let setup: Awaited<ReturnType<typeof sms.newCampaign>>;
  const key = () => `idem-${Math.random().toString(36).slice(2)}`;
  beforeAll(async () => {
    setup = await sms.newCampaign();
  });

  it('replays the first answer for the same key and body, without sending again', async () => {
    const k = key();
    const phone = randomPhone();
    const body = { phone_numbers: [phone, '12'], custom_attributes: { [phone]: { name: 'Can', email: 'can@example.com' } } };
    const first = await sms.share(setup.account.apiToken, setup.campaignId, body, { 'idempotency-key': k });
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    // The same JSON with its keys in another order is the same request.
    const reordered = { custom_attributes: { [phone]: { email: 'can@example.com', name: 'Can' } }, phone_numbers: [phone, '12'] };
    const again = await sms.share(setup.account.apiToken, setup.campaignId, reordered, { 'idempotency-key': k });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.text).toBe(first.text);
    // Without the key the same body is a new sharing.
    const fresh = await sms.share(setup.account.apiToken, setup.campaignId, body);
    expect(fresh.json.id).not.toBe(first.json.id);
    await new Promise((r) => setTimeout(r, 1_500));
    const sent = (await sms.outbox(setup.account.id, phone)).data;
    expect(sent.map((m) => m.sharing_id).sort()).toEqual([first.json.id, fresh.json.id].sort());
  }, 30_000);

  it('replays an error answer too (the request ran): 404 stays 404', async () => {
    const k = key();
    const unknown = '00000000-0000-4000-8000-000000000000';
    const first = await sms.share(setup.account.apiToken, unknown, { phone_numbers: [randomPhone()] }, { 'idempotency-key': k });
    const again = await sms.share(setup.account.apiToken, unknown, JSON.parse(first.text).errors ? { phone_numbers: [] } : {}, {
      'idempotency-key': k,
    });
    expect(first.status).toBe(404);
    // Another body (even an invalid one fails validation before the key is looked at).
    expect(again.status).toBe(400);
  });

  it('answers 422 / 13030 for the same key with another body or another campaign', async () => {
    const k = key();
    const phone = randomPhone();
    const other = await sms.newCampaign();
    expect((await sms.share(setup.account.apiToken, setup.campaignId, { phone_numbers: [phone] }, { 'idempotency-key': k })).status).toBe(
      200,
    );
    const otherBody = await sms.share(
      setup.account.apiToken,
      setup.campaignId,
      { phone_numbers: [randomPhone()] },
      { 'idempotency-key': k },
    );
    expect(otherBody.status).toBe(422);
    expect(otherBody.json).toEqual(
      publicError('Idempotency key already used for another request', 13030, { 'idempotency-key': expect.any(String) }),
    );
    // Another campaign id (a foreign one: 404 would leak nothing either) with the same key.
    const otherPath = await sms.share(setup.account.apiToken, other.campaignId, { phone_numbers: [phone] }, { 'idempotency-key': k });
    expect(otherPath.status).toBe(422);
  });

  it('a retry after a lost answer (the key released, as after a 503) is the same sharing, each SMS sent once', async () => {
    const k = key();
    const phone = randomPhone();
    const body = { phone_numbers: [phone] };
    const first = await sms.share(setup.account.apiToken, setup.campaignId, body, { 'idempotency-key': k });
    expect(first.status).toBe(200);
    // What a 5xx after the sharing was stored and published leaves behind: no key record.
    const mongo = new MongoClient(readStackFile().mongo_url);
    try {
      const gone = await mongo
        .db('gateway')
        .collection('idempotency_keys')
        .deleteOne({ _id: `${setup.account.id}:sms_sharings:${k}` } as never);
      expect(gone.deletedCount).toBe(1);
    } finally {
      await mongo.close();
    }
    const retry = await sms.share(setup.account.apiToken, setup.campaignId, body, { 'idempotency-key': k });
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect(retry.json.id).toBe(first.json.id);
    await new Promise((r) => setTimeout(r, 2_000));
    expect((await sms.outbox(setup.account.id, phone)).data.map((m) => m.sharing_id)).toEqual([first.json.id]);
  }, 30_000);

  it("scopes keys per account: another account's same key runs its own request", async () => {
    const k = key();
    const other = await sms.newCampaign();
    const a = await sms.share(setup.account.apiToken, setup.campaignId, { phone_numbers: [randomPhone()] }, { 'idempotency-key': k });
    const b = await sms.share(other.account.apiToken, other.campaignId, { phone_numbers: [randomPhone()] }, { 'idempotency-key': k });
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(b.headers.get('idempotent-replayed')).toBeNull();
    expect(b.json.id).not.toBe(a.json.id);
  });

  it('runs the request once when the same key arrives concurrently: the others get 409 / 13031 or the replay', async () => {
    const k = key();
    const body = { phone_numbers: Array.from({ length: 40 }, randomPhone) };
    const all = await Promise.all(
      Array.from({ length: 6 }, () => sms.share(setup.account.apiToken, setup.campaignId, body, { 'idempotency-key': k })),
    );
    const ran = all.filter((r) => r.status === 200 && r.headers.get('idempotent-replayed') === null);
    expect(ran).toHaveLength(1);
    for (const r of all) {
      if (r === ran[0]) continue;
      if (r.status === 200) expect(r.text).toBe(ran[0]!.text);
      else {
        expect(r.status).toBe(409);
        expect(r.json).toEqual(
          publicError('A request with this idempotency key is still in progress', 13031, { 'idempotency-key': expect.any(String) }),
        );
      }
    }
    // Whether any of them lands while the first still runs depends on the machine's load; the
    // next test holds a first request's claim to see the 409 every time.
  }, 30_000);

  it('answers 409 / 13031 while the first request with the key has not answered (its claim held)', async () => {
    const k = key();
    // An account of its own: the file's account has nearly used its 20 sharings in 5 s.
    const own = await sms.newCampaign();
    const body = { phone_numbers: [randomPhone()] };
    const first = await sms.share(own.account.apiToken, own.campaignId, body, { 'idempotency-key': k });
    expect(first.status).toBe(200);
    // The record as it is between the first request's claim and its answer (or as a gateway that
    // died mid-request leaves it, until the lease ends): in flight, locked a minute ahead.
    const mongo = new MongoClient(readStackFile().mongo_url);
    const records = mongo.db('gateway').collection('idempotency_keys');
    const id = { _id: `${own.account.id}:sms_sharings:${k}` } as never;
    try {
      const held = await records.updateOne(id, { $set: { state: 'in_flight', locked_until: new Date(Date.now() + 60_000) } });
      expect(held.modifiedCount).toBe(1);
      const retry = await sms.share(own.account.apiToken, own.campaignId, body, { 'idempotency-key': k });
      expect(retry.status).toBe(409);
      expect(retry.json).toEqual(
        publicError('A request with this idempotency key is still in progress', 13031, { 'idempotency-key': expect.any(String) }),
      );
      // Another request under the key is still 422, held or not.
      const other = await sms.share(own.account.apiToken, own.campaignId, { phone_numbers: [randomPhone()] }, { 'idempotency-key': k });
      expect(other.status).toBe(422);
    } finally {
      await records.deleteOne(id);
      await mongo.close();
    }
  }, 30_000);

  it('refuses a malformed key (400 naming the header)', async () => {
    const res = await sms.share(
      setup.account.apiToken,
      setup.campaignId,
      { phone_numbers: [randomPhone()] },
      { 'idempotency-key': 'x'.repeat(256) },
    );
    expect(res.status).toBe(400);
    expect(Object.keys(res.json.errors!)).toEqual(['headers.idempotency-key']);
  });
});
