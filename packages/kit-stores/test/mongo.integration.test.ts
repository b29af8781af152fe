import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectMongo,
  ensureIndexes,
  insertManyOnce,
  insertOnce,
  isDuplicateKeyError,
  upsertAndRead,
  type MongoHandle,
} from '../src/index.js';
import { logger, stack, uniqueName } from './stack.js';

describe('mongo', () => {
  let mongo: MongoHandle;

  beforeAll(async () => {
    mongo = await connectMongo({ url: stack.mongo_url, dbName: uniqueName('kit_stores').replace('-', '_'), logger });
  });
  afterAll(async () => {
    await mongo?.db.dropDatabase().catch(() => undefined);
    await mongo?.close();
  });

  it('rejects a duplicate through a unique index, and ensureIndexes is idempotent', async () => {
    const spec = { directories: [{ key: { account_id: 1, name: 1 }, name: 'account_name_unique', unique: true }] };
    await ensureIndexes(mongo.db, spec);
    await ensureIndexes(mongo.db, spec);
    const names = (await mongo.db.collection('directories').indexes()).map((i) => i.name);
    expect(names).toContain('account_name_unique');

    const dirs = mongo.db.collection('directories');
    await dirs.insertOne({ account_id: 'a1', name: 'inbox' });
    await dirs.insertOne({ account_id: 'a2', name: 'inbox' }); // other account: allowed
    const err = await dirs.insertOne({ account_id: 'a1', name: 'inbox' }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).not.toBeNull();
    expect(isDuplicateKeyError(err)).toBe(true);
    expect(await dirs.countDocuments({ account_id: 'a1' })).toBe(1);
    expect(isDuplicateKeyError(new Error('other'))).toBe(false);
  });

  // The primitive for "exactly one wins" on a record that does not exist yet; a conditional
  // findOneAndUpdate on an existing one is covered by mongo-conformance.integration.test.ts.
  it('lets exactly one of 20 concurrent claimers win an insertOnce claim', async () => {
    const claims = mongo.db.collection<{ _id: string; claimed_by: string }>('claims');
    const claimers = Array.from({ length: 20 }, (_, i) => `worker-${i}`);
    for (let round = 0; round < 5; round++) {
      const key = `file-${round}`;
      const results = await Promise.all(claimers.map((id) => insertOnce(claims, { _id: key, claimed_by: id })));
      const winners = claimers.filter((_, i) => results[i]);
      expect(winners).toHaveLength(1);
      expect(await claims.findOne({ _id: key })).toMatchObject({ claimed_by: winners[0] });
    }
  });

  it('insertManyOnce inserts the new documents of a batch and names the ones that already existed, also under racing batches', async () => {
    const claims = mongo.db.collection<{ _id: string; by: string }>('many_claims');
    await claims.insertOne({ _id: 'm-2', by: 'earlier' });
    const first = await insertManyOnce(
      claims,
      ['m-1', 'm-2', 'm-3', 'm-2'].map((_id) => ({ _id, by: 'batch' })),
    );
    expect(first).toEqual([true, false, true, false]);
    expect(await claims.findOne({ _id: 'm-2' })).toMatchObject({ by: 'earlier' });
    expect(await insertManyOnce(claims, [])).toEqual([]);

    // Five batches racing over the same 50 keys: each key won by exactly one of them.
    const keys = Array.from({ length: 50 }, (_, i) => `race-${i}`);
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, b) =>
        insertManyOnce(
          claims,
          keys.map((_id) => ({ _id, by: `b${b}` })),
        ),
      ),
    );
    for (let k = 0; k < keys.length; k++) {
      const winners = results.map((r, b) => (r[k] ? `b${b}` : null)).filter(Boolean);
      expect(winners).toHaveLength(1);
      expect(await claims.findOne({ _id: keys[k]! })).toMatchObject({ by: winners[0] });
    }
  });

  it('insertManyOnce throws on a write error that is not a duplicate', async () => {
    const strict = await mongo.db
      .createCollection<{ _id: string; by?: string }>('strict_docs', {
        validator: { $jsonSchema: { bsonType: 'object', required: ['by'] } },
      })
      .catch(() => null);
    if (!strict) return expect.fail('the server refused a validated collection');
    await expect(insertManyOnce(strict, [{ _id: 'x' }])).rejects.toThrow();
  });

  it('upsertAndRead: 12 racing first upserts of one key make one document, each call answers it, no update applied twice', async () => {
    const counters = mongo.db.collection<{ _id?: unknown; key: string; n: number; created_by?: number }>('upsert_counters');
    await ensureIndexes(mongo.db, { upsert_counters: [{ key: { key: 1 }, name: 'key_unique', unique: true }] });
    for (let round = 0; round < 3; round++) {
      const key = `k-${round}`;
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) => upsertAndRead(counters, { key }, { $inc: { n: 1 }, $setOnInsert: { created_by: i } })),
      );
      const docs = await counters.find({ key }).toArray();
      expect(docs).toHaveLength(1);
      expect(docs[0]!.n).toBe(12);
      expect(new Set(answers.map((a) => String(a._id)))).toEqual(new Set([String(docs[0]!._id)]));
      expect(answers.every((a) => a.n >= 1 && a.n <= 12)).toBe(true);
    }
  });

  it('creates a TTL index from its spec', async () => {
    await ensureIndexes(mongo.db, { pe: [{ key: { processed_at: 1 }, name: 'processed_at_ttl', expireAfterSeconds: 3600 }] });
    const ttl = (await mongo.db.collection('pe').indexes()).find((i) => i.name === 'processed_at_ttl');
    expect(ttl).toMatchObject({ key: { processed_at: 1 }, expireAfterSeconds: 3600 });
  });

  it('fails fast when no server answers', async () => {
    const started = Date.now();
    await expect(connectMongo({ url: 'mongodb://127.0.0.1:1', dbName: 'x', logger, serverSelectionTimeoutMS: 1_000 })).rejects.toThrow(
      /cannot reach/,
    );
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
