import { randomBytes, randomUUID } from 'node:crypto';
import { readStackFile } from '@feedback/dev-stack';
import { createLogger } from '@feedback/kit-core/runtime';
import { connectMongo, ensureIndexes, MongoRetentionSettings, type MongoHandle } from '@feedback/kit-stores';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messagingIndexes } from '../src/shared/adapters/mongo/indexes.js';
import { messagingRetentionSweep } from '../src/erasure/adapters/mongo/retention.sweep.js';

const DAY = 86_400_000;
const now = new Date();
const ago = (days: number) => new Date(now.getTime() - days * DAY);
const limits = { batchSize: 2, maxBatches: 100, pause: async () => undefined };

/** The messaging retention sweep on the stack's MongoDB-wire server, called directly (no waiting for a timer). */
describe('messaging retention sweep', () => {
  let mongo: MongoHandle;

  beforeAll(async () => {
    mongo = await connectMongo({
      url: readStackFile().mongo_url,
      dbName: `messaging_retention_${randomBytes(4).toString('hex')}`,
      logger: createLogger('retention-test', 'silent'),
    });
    await ensureIndexes(mongo.db, messagingIndexes);
  });
  afterAll(async () => {
    await mongo?.db.dropDatabase().catch(() => undefined);
    await mongo?.close();
  });

  it("deletes messages, outbox records and sharings (with their recipients and steps) older than the account's retention, only in that account", async () => {
    const db = mongo.db;
    const settings = new MongoRetentionSettings(db);
    await settings.apply({ accountId: 'short', days: { messages: 10 }, version: 1 });
    await settings.apply({ accountId: 'long', days: { messages: 500 }, version: 1 });
    const sharing = (account: string, age: number) => ({ _id: randomUUID(), account_id: account, created_at: ago(age) });
    const sharings = [sharing('short', 20), sharing('short', 5), sharing('long', 400), sharing('other', 400), sharing('other', 20)];
    await db.collection<{ _id: string }>('sharings').insertMany(sharings);
    await db
      .collection<{ _id: string }>('sharing_recipients')
      .insertMany(sharings.map((s) => ({ _id: `${s._id}.0`, sharing_id: s._id, recipients: [{ phone: '+905321234567' }] })));
    await db
      .collection<{ _id: string }>('sms_jobs')
      .insertMany(sharings.map((s) => ({ _id: `${s._id}.j1`, sharing_id: s._id, state: 'done' })));
    const message = (account: string, age: number) => ({
      _id: randomUUID(),
      account_id: account,
      phone: '+905321234567',
      created_at: ago(age),
    });
    await db
      .collection<{ _id: string }>('sms_messages')
      .insertMany([message('short', 11), message('short', 9), message('long', 400), message('other', 366), message('other', 364)]);
    await db.collection<{ _id: string }>('sms_outbox').insertMany([message('short', 11), message('other', 366), message('long', 366)]);

    const deleted = await messagingRetentionSweep(db, settings, 365)(now, limits);

    expect(deleted).toEqual({ sms_messages: 2, sms_outbox: 2, sharings: 2 });
    const left = async (name: string) =>
      (await db.collection(name).find({}).toArray())
        .map((d) => `${d.account_id}:${Math.round((now.getTime() - d.created_at.getTime()) / DAY)}`)
        .sort();
    expect(await left('sms_messages')).toEqual(['long:400', 'other:364', 'short:9']);
    expect(await left('sms_outbox')).toEqual(['long:366']);
    expect(await left('sharings')).toEqual(['long:400', 'other:20', 'short:5']);
    const kept = new Set(
      ['short:5', 'long:400', 'other:20'].map(
        (k) => sharings.find((s) => `${s.account_id}:${(now.getTime() - s.created_at.getTime()) / DAY}` === k)!._id,
      ),
    );
    expect(new Set((await db.collection('sharing_recipients').find({}).toArray()).map((d) => d.sharing_id))).toEqual(kept);
    expect(new Set((await db.collection('sms_jobs').find({}).toArray()).map((d) => d.sharing_id))).toEqual(kept);
  });

  it('keeps the newest setting of an account whatever order the records arrive in', async () => {
    const settings = new MongoRetentionSettings(mongo.db);
    await settings.apply({ accountId: 'order', days: { messages: 20 }, version: 2 });
    await settings.apply({ accountId: 'order', days: { messages: 99 }, version: 1 });
    await settings.apply({ accountId: 'order', days: { messages: 20 }, version: 2 });
    expect((await settings.list()).find((s) => s.accountId === 'order')).toEqual({
      accountId: 'order',
      days: { messages: 20 },
      version: 2,
    });
  });
});
