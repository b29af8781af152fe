import { randomBytes, randomUUID } from 'node:crypto';
import { readStackFile } from '@feedback/dev-stack';
import { createLogger } from '@feedback/kit-core/runtime';
import { connectMongo, ensureIndexes, MongoLease, MongoRetentionSettings, type MongoHandle } from '@feedback/kit-stores';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhooksIndexes } from '../src/adapters/mongo/indexes.js';
import { webhooksRetentionSweep } from '../src/adapters/mongo/retention.sweep.js';

const DAY = 86_400_000;
const now = new Date();
const ago = (days: number) => new Date(now.getTime() - days * DAY);

/** The webhooks retention sweep on the stack's MongoDB-wire server, called directly (no waiting for a timer). */
describe('webhooks retention sweep', () => {
  let mongo: MongoHandle;

  beforeAll(async () => {
    mongo = await connectMongo({
      url: readStackFile().mongo_url,
      dbName: `webhooks_retention_${randomBytes(4).toString('hex')}`,
      logger: createLogger('retention-test', 'silent'),
    });
    await ensureIndexes(mongo.db, webhooksIndexes);
  });
  afterAll(async () => {
    await mongo?.db.dropDatabase().catch(() => undefined);
    await mongo?.close();
  });

  it("deletes delivery log entries older than the account's retention, only in that account, in bounded batches over sweeps", async () => {
    const db = mongo.db;
    const settings = new MongoRetentionSettings(db);
    await settings.apply({ accountId: 'short', days: { webhook_deliveries: 3 }, version: 1 });
    await settings.apply({ accountId: 'long', days: { webhook_deliveries: 90 }, version: 1 });
    const delivery = (account: string, age: number) => ({
      _id: randomUUID(),
      account_id: account,
      endpoint_id: randomUUID(),
      event_id: randomUUID(),
      created_at: ago(age),
    });
    await db
      .collection<{ _id: string }>('deliveries')
      .insertMany([
        ...Array.from({ length: 5 }, () => delivery('short', 4)),
        delivery('short', 2),
        delivery('long', 60),
        delivery('other', 31),
        delivery('other', 29),
      ]);
    const sweep = webhooksRetentionSweep(db, settings, 30);

    // At most two deletes of two a sweep: the backlog spreads over sweeps, each starting further on.
    const counts: number[] = [];
    for (let offset = 0; offset < 6; offset++)
      counts.push((await sweep(now, { batchSize: 2, maxBatches: 2, pause: async () => undefined, offset })).deliveries ?? 0);
    expect(Math.max(...counts)).toBeLessThanOrEqual(4);
    expect(counts.reduce((a, b) => a + b)).toBe(6);

    const left = (await db.collection('deliveries').find({}).toArray())
      .map((d) => `${d.account_id}:${Math.round((now.getTime() - d.created_at.getTime()) / DAY)}`)
      .sort();
    expect(left).toEqual(['long:60', 'other:29', 'short:2']);
  });

  it('one replica at a time leads the sweep; another takes over once the lease runs out', async () => {
    const lease = new MongoLease(mongo.db, `lease-${randomBytes(3).toString('hex')}`);
    const t = new Date();
    const later = new Date(t.getTime() + 60_000);
    const wins = await Promise.all(Array.from({ length: 5 }, (_, i) => lease.lead(`replica-${i}`, t, later)));
    expect(wins.filter(Boolean)).toHaveLength(1);
    const leader = `replica-${wins.indexOf(true)}`;
    expect(await lease.lead('replica-x', t, later)).toBe(false);
    expect(await lease.lead(leader, t, later)).toBe(true);
    expect(await lease.lead('replica-x', new Date(later.getTime() + 1), new Date(later.getTime() + 60_000))).toBe(true);
  });
});
