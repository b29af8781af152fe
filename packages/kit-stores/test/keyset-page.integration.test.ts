import { explainFinds } from '@feedback/dev-stack';
import { pageQueryOf, type PageKey } from '@feedback/kit-core';
import { MongoClient, type Collection } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keysetPage, type KeysetPageOptions } from '../src/index.js';
import { stack, uniqueName } from './stack.js';

interface Item {
  _id: string;
  account: string;
  created_at: Date;
  /** created_at's ISO string, '|', the id: the one-field order. */
  sort_key: string;
  odd: boolean;
}

const rule = { list: 'items', default: 50, max: 100 };
const sortKey = (k: PageKey) => `${k.at.toISOString()}|${k.id}`;

/** Every item of a list, page after page, as a client reads them. */
async function readAll(items: Collection<Item>, size: number, o: KeysetPageOptions<Item>): Promise<string[]> {
  const seen: string[] = [];
  let token = '';
  do {
    const page = await keysetPage(items, pageQueryOf({ pageSize: size, pageToken: token }, rule), o);
    seen.push(...page.items.map((i) => i._id));
    token = page.nextPageToken;
  } while (token);
  return seen;
}

describe('keyset pages on the running MongoDB-wire server', () => {
  let client: MongoClient;
  let items: Collection<Item>;
  const dbName = uniqueName('keyset').replaceAll('-', '_');
  // 600 items of account a, many on one instant (a bulk write), and 600 of account b.
  const all: Item[] = Array.from({ length: 1_200 }, (_, n) => {
    const at = new Date(Date.UTC(2026, 10, 1) + Math.floor(n / 40) * 1_000);
    const _id = `i${String(n).padStart(5, '0')}`;
    return { _id, account: n % 2 ? 'b' : 'a', created_at: at, sort_key: sortKey({ at, id: _id }), odd: n % 4 === 2 };
  });
  const newestFirst = (xs: Item[]) => [...xs].sort((x, y) => (x.sort_key < y.sort_key ? 1 : -1)).map((i) => i._id);

  beforeAll(async () => {
    client = await MongoClient.connect(stack.mongo_url, { monitorCommands: true });
    items = client.db(dbName).collection<Item>('items');
    await items.insertMany(all);
    await items.createIndex({ account: 1, created_at: -1, _id: -1 }, { name: 'account_created' });
    await items.createIndex({ account: 1, sort_key: -1 }, { name: 'account_newest' });
  });
  afterAll(async () => {
    await client?.db(dbName).dropDatabase();
    await client?.close();
  });

  it('reads every item once, newest first (or oldest), ties by id, by date and id or by one sort key', async () => {
    const ofA = newestFirst(all.filter((i) => i.account === 'a'));
    expect(await readAll(items, 7, { filter: { account: 'a' }, order: { date: 'created_at' } })).toEqual(ofA);
    expect(await readAll(items, 7, { filter: { account: 'a' }, order: { date: 'created_at', ascending: true } })).toEqual(
      [...ofA].reverse(),
    );
    const bySortKey = { date: 'created_at', field: 'sort_key', sortKey } as const;
    expect(await readAll(items, 7, { filter: { account: 'a' }, order: bySortKey })).toEqual(ofA);
    // A filter field the index lacks, checked while reading down the index.
    const odd = newestFirst(all.filter((i) => i.account === 'a' && i.odd));
    expect(await readAll(items, 9, { filter: { account: 'a' }, order: { date: 'created_at' }, accept: (i) => i.odd })).toEqual(odd);
    // The filter's own upper bound and the token's: the lower holds.
    const until = sortKey({ at: new Date(Date.UTC(2026, 10, 1, 0, 0, 10)), id: '' });
    const before = newestFirst(all.filter((i) => i.account === 'a' && i.sort_key < until));
    expect(await readAll(items, 7, { filter: { account: 'a', sort_key: { $lt: until } }, order: bySortKey })).toEqual(before);
    // A date range with the date order: both bounds hold on every page, the lower one too.
    const [from, to] = [new Date(Date.UTC(2026, 10, 1, 0, 0, 3)), new Date(Date.UTC(2026, 10, 1, 0, 0, 7))];
    const ranged = newestFirst(all.filter((i) => i.account === 'a' && i.created_at > from && i.created_at < to));
    // $gt, not $gte: the local server reads $gte on a descending index as $gt (docs/decisions.md).
    const range = { account: 'a', created_at: { $gt: from, $lt: to } };
    expect(await readAll(items, 7, { filter: range, order: { date: 'created_at' } })).toEqual(ranged);
  });

  it('reads a page after a token from the index, not by scanning the collection', async () => {
    const first = await keysetPage(items, pageQueryOf({ pageSize: 10 }, rule), { filter: { account: 'a' }, order: { date: 'created_at' } });
    const second = pageQueryOf({ pageSize: 10, pageToken: first.nextPageToken }, rule);
    const plans = await explainFinds(client, () => keysetPage(items, second, { filter: { account: 'a' }, order: { date: 'created_at' } }));
    // The rest of the token's instant, then everything older: two ranges of one index.
    expect(plans).toHaveLength(2);
    for (const plan of plans) {
      expect(plan.stages).toContain('IXSCAN');
      expect(plan.stages).not.toContain('COLLSCAN');
      expect(plan.indexes).toEqual(['account_created']);
      expect(plan.docsExamined).toBeLessThan(all.length / 2);
    }
    const bySortKey = { filter: { account: 'a' }, order: { date: 'created_at', field: 'sort_key', sortKey } } as const;
    const [one] = await explainFinds(client, () => keysetPage(items, second, bySortKey));
    expect(one?.indexes).toEqual(['account_newest']);
    expect(one?.stages).not.toContain('COLLSCAN');
    // The check can fail: the one-$or form pages the same items by scanning the collection.
    const [scan] = await explainFinds(client, async () => {
      const after = second.after!;
      const or = [{ created_at: { $lt: after.at } }, { created_at: after.at, _id: { $lt: after.id } }];
      await items.find({ account: 'a', $or: or }).sort({ created_at: -1, _id: -1 }).limit(11).toArray();
    });
    expect(scan?.stages).toContain('COLLSCAN');
  });
});
