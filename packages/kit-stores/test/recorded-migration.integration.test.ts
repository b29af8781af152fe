import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMongo, type MongoHandle } from '../src/mongo.js';
import { passById, runRecordedMigration, type MigrationPass } from '../src/recorded-migration.js';
import { logger, stack, uniqueName } from './stack.js';

describe('runRecordedMigration (collection migrations)', () => {
  let mongo: MongoHandle;

  beforeAll(async () => {
    mongo = await connectMongo({ url: stack.mongo_url, dbName: uniqueName('kit_stores_migrations').replaceAll('-', '_'), logger });
  });

  afterAll(async () => {
    await mongo?.db.dropDatabase().catch(() => undefined);
    await mongo?.close();
  });

  const run = (names: string[], pass: () => Promise<MigrationPass>) =>
    runRecordedMigration(mongo.db, { id: 'test.pass', names, logger, doneMessage: 'test pass done', pass });

  it('runs once per list of names: a stopped pass is not recorded, a finished one is, a new name runs it again', async () => {
    let passes = 0;
    const finished = async () => (passes++, { scanned: 3, rewritten: 2 });
    expect(await run(['tckn'], async () => (passes++, { scanned: 1, rewritten: 1, stopped: true }))).toEqual({ scanned: 1, rewritten: 1 });
    expect(await mongo.db.collection('migrations').findOne({ _id: 'test.pass' as never })).toBeNull();
    expect(await run(['tckn', 'passport'], finished)).toEqual({ scanned: 3, rewritten: 2 });
    expect(await mongo.db.collection('migrations').findOne({ _id: 'test.pass' as never })).toMatchObject({ names: ['passport', 'tckn'] });
    // The same names, or fewer: done before, the pass does not run.
    expect(await run(['passport', 'tckn'], finished)).toBe('done before');
    expect(await run(['tckn'], finished)).toBe('done before');
    expect(passes).toBe(2);
    expect(await run(['tckn', 'vergi_no'], finished)).toEqual({ scanned: 3, rewritten: 2 });
    expect(passes).toBe(3);
  });

  it('a failed pass leaves no mark', async () => {
    const id = 'test.failing';
    await expect(
      runRecordedMigration(mongo.db, { id, names: ['tckn'], logger, doneMessage: 'x', pass: () => Promise.reject(new Error('boom')) }),
    ).rejects.toThrow('boom');
    expect(await mongo.db.collection('migrations').findOne({ _id: id as never })).toBeNull();
  });

  it('passById reads the whole collection in _id order, a batch at a time, and stops between batches', async () => {
    const docs = mongo.db.collection<{ _id: string; v: number; other: string }>('pass_by_id');
    await docs.insertMany(['e', 'a', 'd', 'b', 'c'].map((id, v) => ({ _id: id, v, other: 'x' })));
    const seen: string[][] = [];
    const pass = await passById(docs, {
      batch: 2,
      projection: { v: 1 },
      rewrite: async (batch) => {
        seen.push(batch.map((d) => d._id));
        expect(batch.every((d) => d.other === undefined)).toBe(true);
        return batch.length - 1;
      },
    });
    expect(seen).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
    expect(pass).toEqual({ scanned: 5, rewritten: 2 });

    const stop = new AbortController();
    const stopped = await passById(docs, {
      batch: 2,
      signal: stop.signal,
      rewrite: async (batch) => (stop.abort(), batch.length),
    });
    expect(stopped).toEqual({ scanned: 2, rewritten: 2, stopped: true });
  });
});
