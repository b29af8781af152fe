import { randomUUID } from 'node:crypto';
import type { MongoHandle } from '@feedback/kit-stores';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MongoOptOutRepository } from '../src/opt-outs/adapters/mongo/opt-out.repository.js';
import { OptOutSnapshots } from '../src/opt-outs/adapters/opt-out.snapshots.js';
import { dropTestDb, openTestDb } from './stack.js';

const silent = { warn: () => undefined } as never;
const phone = (i: number) => `90532${String(i).padStart(7, '0')}`;

// Two processes' snapshots over one stack MongoDB: what either one adds or removes counts at once in the other.
describe('suppression-list snapshots on the stack MongoDB', () => {
  let mongo: MongoHandle;
  let store: MongoOptOutRepository;

  beforeAll(async () => {
    mongo = await openTestDb();
    store = new MongoOptOutRepository(mongo.db);
  });
  afterAll(async () => {
    await dropTestDb(mongo);
  });

  it('answers as the database does before and after loading, and sees another process add and remove at once', async () => {
    const account = randomUUID();
    const other = randomUUID();
    await store.addMany({ accountId: account, phones: [phone(1), phone(2), phone(3)], source: 'api', at: new Date() });
    await store.addMany({ accountId: other, phones: [phone(4)], source: 'api', at: new Date() });
    // Counts the database lookups a makes: none once its snapshot is loaded.
    let queries = 0;
    const counted = Object.assign(Object.create(store) as MongoOptOutRepository, {
      findOptedOut: (id: string, phones: string[]) => (queries++, store.findOptedOut(id, phones)),
    });
    const a = new OptOutSnapshots(counted, store, { maxPhones: 1_000, logger: silent });
    const b = new OptOutSnapshots(store, store, { maxPhones: 1_000, logger: silent });
    const asked = [phone(1), phone(2), phone(4), phone(5)];

    // Before the snapshot is there: the database's answer.
    expect(await a.findOptedOut(account, asked)).toEqual(new Set([phone(1), phone(2)]));
    expect(queries).toBe(1);
    await a.ready(account);
    await b.ready(account);
    expect(await a.findOptedOut(account, asked)).toEqual(new Set([phone(1), phone(2)]));

    // b adds one and removes one; a sees both on its next lookup.
    await b.addMany({ accountId: account, phones: [phone(5)], source: 'keyword', at: new Date() });
    expect(await b.remove(account, phone(1))).toBe(true);
    expect(await a.findOptedOut(account, asked)).toEqual(new Set([phone(2), phone(5)]));
    // Removed and added again: on the list.
    await store.addMany({ accountId: account, phones: [phone(1)], source: 'api', at: new Date() });
    expect(await a.findOptedOut(account, asked)).toEqual(new Set([phone(1), phone(2), phone(5)]));
    expect(queries).toBe(1);
    // Another account's list is its own.
    expect(await a.findOptedOut(other, asked)).toEqual(new Set([phone(4)]));
  });

  it('keeps at most maxPhones phones: an account whose list is larger stays on the database, still exact', async () => {
    const account = randomUUID();
    await store.addMany({
      accountId: account,
      phones: Array.from({ length: 20 }, (_, i) => phone(100 + i)),
      source: 'api',
      at: new Date(),
    });
    const small = new OptOutSnapshots(store, store, { maxPhones: 10, logger: silent });
    await small.ready(account);
    expect(await small.findOptedOut(account, [phone(100), phone(119), phone(120)])).toEqual(new Set([phone(100), phone(119)]));
    await store.remove(account, phone(100));
    expect(await small.findOptedOut(account, [phone(100), phone(119)])).toEqual(new Set([phone(119)]));
  });
});
