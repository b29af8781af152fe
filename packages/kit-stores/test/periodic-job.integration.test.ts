import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMongo, type MongoHandle } from '../src/mongo.js';
import { MongoLease } from '../src/mongo-lease.js';
import { startPeriodicJob } from '../src/periodic-job.js';
import { logger, stack, uniqueName } from './stack.js';

/** Resolves once `cond` holds (polled); the test's own timeout bounds it. */
async function until(cond: () => boolean): Promise<void> {
  while (!cond()) await new Promise((r) => setTimeout(r, 5));
}

describe('periodic job leader election on MongoDB (MongoLease)', () => {
  let mongo: MongoHandle;

  beforeAll(async () => {
    mongo = await connectMongo({ url: stack.mongo_url, dbName: uniqueName('kit_stores_lease').replaceAll('-', '_'), logger });
  });

  afterAll(async () => {
    await mongo?.db.dropDatabase().catch(() => undefined);
    await mongo?.close();
  });

  it('two replicas of a leased job: only one ever runs, until it stops and its lease runs out', async () => {
    const running = new Set<string>();
    const ranBy = { a: 0, b: 0 };
    let overlapped = false;
    const start = (k: 'a' | 'b') =>
      startPeriodicJob({
        name: 'test-leader',
        everyMs: 10,
        // Short, so the second replica takes over soon after the first stops.
        leaseMs: 300,
        lease: new MongoLease(mongo.db, 'test-leader'),
        logger,
        run: async () => {
          running.add(k);
          if (running.size > 1) overlapped = true;
          ranBy[k]++;
          await new Promise((r) => setTimeout(r, 5));
          running.delete(k);
        },
      });
    const a = start('a');
    await until(() => ranBy.a > 0);
    const b = start('b');
    await until(() => ranBy.a > 10);
    expect(ranBy.b).toBe(0);
    await a.stop();
    // The stopped leader's lease lapses; the other replica takes over.
    await until(() => ranBy.b > 0);
    await b.stop();
    expect(overlapped).toBe(false);
  });
});
