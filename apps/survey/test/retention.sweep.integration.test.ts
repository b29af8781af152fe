import { randomBytes, randomUUID } from 'node:crypto';
import { readStackFile } from '@feedback/dev-stack';
import { createLogger } from '@feedback/kit-core/runtime';
import { connectMongo, ensureIndexes, MongoRetentionSettings, type MongoHandle } from '@feedback/kit-stores';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { surveyIndexes } from '../src/adapters/mongo/indexes.js';
import { surveyRetentionSweep } from '../src/adapters/mongo/retention.sweep.js';

const DAY = 86_400_000;
const now = new Date();
const ago = (days: number) => new Date(now.getTime() - days * DAY);
const limits = { batchSize: 2, maxBatches: 100, pause: async () => undefined };

/** The survey retention sweep on the stack's MongoDB-wire server, called directly (no waiting for a timer). */
describe('survey retention sweep', () => {
  let mongo: MongoHandle;

  beforeAll(async () => {
    mongo = await connectMongo({
      url: readStackFile().mongo_url,
      dbName: `survey_retention_${randomBytes(4).toString('hex')}`,
      logger: createLogger('retention-test', 'silent'),
    });
    await ensureIndexes(mongo.db, surveyIndexes);
  });
  afterAll(async () => {
    await mongo?.db.dropDatabase().catch(() => undefined);
    await mongo?.close();
  });

  it("deletes responses older than the account's retention (or the default), only in that account, and links expired past the grace", async () => {
    const db = mongo.db;
    const settings = new MongoRetentionSettings(db);
    await settings.apply({ accountId: 'short', days: { responses: 30 }, version: 1 });
    await settings.apply({ accountId: 'ever', days: { responses: 0 }, version: 1 });
    const response = (account: string, age: number) => {
      const id = randomUUID();
      return {
        _id: id,
        account_id: account,
        link_id: randomUUID(),
        activation: 1,
        answered_at: ago(age),
        sort_key: `${ago(age).toISOString()}|${id}`,
      };
    };
    await db
      .collection<{ _id: string }>('responses')
      .insertMany([response('short', 31), response('short', 29), response('ever', 5000), response('other', 731), response('other', 31)]);
    const link = (account: string, expiredDaysAgo: number) => ({
      _id: randomUUID(),
      account_id: account,
      channel_id: randomUUID(),
      customer_id: randomUUID(),
      token: randomUUID(),
      expires_at: ago(expiredDaysAgo),
    });
    await db.collection<{ _id: string }>('links').insertMany([link('short', 31), link('other', 29), link('other', -7)]);

    const deleted = await surveyRetentionSweep(db, settings, { responsesDays: 730, linkGraceDays: 30 })(now, limits);

    expect(deleted).toEqual({ responses: 2, links: 1 });
    const ages = async (name: string, field: string) =>
      (await db.collection(name).find({}).toArray())
        .map((d) => `${d.account_id}:${Math.round((now.getTime() - d[field].getTime()) / DAY)}`)
        .sort();
    expect(await ages('responses', 'answered_at')).toEqual(['ever:5000', 'other:31', 'short:29']);
    expect(await ages('links', 'expires_at')).toEqual(['other:-7', 'other:29']);
  });
});
