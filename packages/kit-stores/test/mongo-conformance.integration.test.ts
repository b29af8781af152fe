import type { Document } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMongo, type MongoHandle } from '../src/index.js';
import { logger, stack, uniqueName } from './stack.js';

/**
 * Does the running MongoDB-wire server keep the promises our services rely on? Run by
 * `./stack test` against whatever `infra/mongo.sh` started (docs/decisions.md "Local MongoDB
 * server"): atomic single-document updates, index use, transactions, TTL, change streams.
 * FerretDB 1.24 failed every one of these; real MongoDB and SecantusDB pass them.
 */
describe('mongo server conformance', () => {
  let mongo: MongoHandle;

  beforeAll(async () => {
    mongo = await connectMongo({ url: stack.mongo_url, dbName: uniqueName('conformance').replaceAll('-', '_'), logger });
  });
  afterAll(async () => {
    await mongo?.db.dropDatabase().catch(() => undefined);
    await mongo?.close();
  });

  it('gives a conditional findOneAndUpdate exactly one winner among 20 concurrent claimers', async () => {
    const docs = mongo.db.collection<{ _id: string; owner: string | null }>('claims');
    const workers = Array.from({ length: 20 }, (_, i) => `worker-${i}`);
    for (let round = 0; round < 15; round++) {
      const _id = `doc-${round}`;
      await docs.insertOne({ _id, owner: null });
      const results = await Promise.all(
        workers.map((owner) => docs.findOneAndUpdate({ _id, owner: null }, { $set: { owner } }, { returnDocument: 'after' })),
      );
      const winners = results.filter((r) => r !== null);
      expect(winners, `round ${round}`).toHaveLength(1);
      expect(await docs.findOne({ _id })).toEqual(winners[0]);
    }
  });

  it('loses no increment among 50 concurrent $inc', async () => {
    const counters = mongo.db.collection<{ _id: string; n: number }>('counters');
    await counters.insertOne({ _id: 'c', n: 0 });
    await Promise.all(Array.from({ length: 50 }, () => counters.updateOne({ _id: 'c' }, { $inc: { n: 1 } })));
    expect(await counters.findOne({ _id: 'c' })).toEqual({ _id: 'c', n: 50 });
  });

  it('answers lookups by _id and by a compound index with an index scan, not a collection scan', async () => {
    const people = mongo.db.collection<{ _id: string; account: string; phone: string }>('people');
    await people.insertMany(Array.from({ length: 2_000 }, (_, i) => ({ _id: `p${i}`, account: `a${i % 7}`, phone: `90532${i}` })));
    await people.createIndex({ account: 1, phone: 1 }, { name: 'account_phone' });

    const byId = await people.find({ _id: 'p42' }).explain('executionStats');
    expect(stages(byId.queryPlanner?.winningPlan)).toContain('IXSCAN');
    const byPhone = await people.find({ account: 'a0', phone: '905327' }).explain('executionStats');
    expect(stages(byPhone.queryPlanner?.winningPlan)).toContain('IXSCAN');
    expect(indexNames(byPhone.queryPlanner?.winningPlan)).toContain('account_phone');
    expect(byPhone.executionStats?.totalDocsExamined).toBeLessThanOrEqual(1);
    // A partial unique index (an identifier some documents lack) serves an equality query by
    // itself when its filter is a range the server can prove implied: `{$gte: ''}` (every string).
    // SecantusDB 0.7 proves equality and ranges but not `$exists`, and answers a `hint` by walking
    // the whole index, so the services neither hint nor use `$exists` filters (docs/decisions.md).
    await people.createIndex(
      { account: 1, email: 1 },
      { name: 'account_email', unique: true, partialFilterExpression: { email: { $gte: '' } } },
    );
    const byEmail = await people.find({ account: 'a0', email: 'x@example.com' }).explain('executionStats');
    expect(indexNames(byEmail.queryPlanner?.winningPlan)).toContain('account_email');
    // The check can fail: an unindexed field is scanned.
    const unindexed = await people.find({ phone: '905327' }).explain();
    expect(stages(unindexed.queryPlanner?.winningPlan)).not.toContain('IXSCAN');
  });

  it('commits the two documents of a transaction together, or neither', async () => {
    const ledger = mongo.db.collection<{ _id: string; amount: number }>('ledger');
    await ledger.insertOne({ _id: 'seed', amount: 0 }); // the collection must exist before a transaction writes to it
    const session = mongo.client.startSession();
    try {
      await session.withTransaction(async () => {
        await ledger.insertOne({ _id: 'debit', amount: -5 }, { session });
        await ledger.insertOne({ _id: 'credit', amount: 5 }, { session });
      });
      await expect(
        session.withTransaction(async () => {
          await ledger.insertOne({ _id: 'debit-2', amount: -7 }, { session });
          throw new Error('abort before the credit');
        }),
      ).rejects.toThrow('abort before the credit');
    } finally {
      await session.endSession();
    }
    const ids = (await ledger.find({}, { projection: { _id: 1 } }).toArray()).map((d) => d._id).sort();
    expect(ids).toEqual(['credit', 'debit', 'seed']);
  });

  it('removes a document through a TTL index', { timeout: 150_000 }, async () => {
    const sessions = mongo.db.collection<{ _id: string; expires_at: Date }>('sessions');
    await sessions.createIndex({ expires_at: 1 }, { expireAfterSeconds: 0 });
    await sessions.insertMany([
      { _id: 'old', expires_at: new Date(Date.now() - 1_000) },
      { _id: 'new', expires_at: new Date(Date.now() + 3_600_000) },
    ]);
    // mongod and SecantusDB sweep TTL indexes every 60 s.
    const deadline = Date.now() + 130_000;
    while ((await sessions.countDocuments({ _id: 'old' })) > 0 && Date.now() < deadline) await sleep(500);
    expect((await sessions.find().toArray()).map((d) => d._id)).toEqual(['new']);
  });

  it('shows an insert to a change stream opened before it', async () => {
    const events = mongo.db.collection<{ _id: string; kind: string }>('events');
    await events.insertOne({ _id: 'before', kind: 'x' });
    const stream = events.watch([], { maxAwaitTimeMS: 500 });
    try {
      const next = stream.next();
      await sleep(300); // let the stream's first getMore be in flight
      await events.insertOne({ _id: 'after', kind: 'created' });
      const change = await Promise.race([next, sleep(15_000).then(() => null)]);
      expect(change).toMatchObject({ operationType: 'insert', fullDocument: { _id: 'after', kind: 'created' } });
    } finally {
      await stream.close();
    }
  });
});

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Every stage name in an explain plan tree. */
function stages(plan: Document | undefined): string[] {
  if (!plan) return [];
  const children = [plan.inputStage, ...((plan.inputStages as Document[] | undefined) ?? [])].filter(Boolean) as Document[];
  return [String(plan.stage), ...children.flatMap(stages)];
}

function indexNames(plan: Document | undefined): string[] {
  if (!plan) return [];
  const children = [plan.inputStage, ...((plan.inputStages as Document[] | undefined) ?? [])].filter(Boolean) as Document[];
  return [...(plan.indexName ? [String(plan.indexName)] : []), ...children.flatMap(indexNames)];
}
