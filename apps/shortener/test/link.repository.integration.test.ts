import type { MongoHandle } from '@feedback/kit-stores';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MongoLinkRepository } from '../src/adapters/mongo/link.repository.js';
import type { Link } from '../src/domain/link.js';
import { dropTestDb, openTestDb, uniq } from './stack.js';

// Against the real MongoDB-compatible server: its bulk write errors are what the repository reads.
describe('MongoLinkRepository.insertManyIfNew', () => {
  let mongo: MongoHandle;
  let links: MongoLinkRepository;
  const link = (code: string, fullUrl: string): Link => ({ code, fullUrl, accountId: 'acc-1', domain: null, createdAt: new Date() });

  beforeAll(async () => {
    mongo = await openTestDb('shortener_repo_test');
    links = new MongoLinkRepository(mongo.db);
  });

  afterAll(() => dropTestDb(mongo));

  it('stores all but the links whose code is taken (before or earlier in the batch), and says which', async () => {
    const old = link('Taken01', 'https://old.example/');
    expect(await links.insertIfNew(old)).toBe(true);
    const batch = [
      link('Fresh01', 'https://a.example/'),
      link('Taken01', 'https://b.example/'),
      link('Fresh02', 'https://c.example/'),
      link('Fresh02', 'https://d.example/'),
      link('Fresh03', 'https://e.example/'),
    ];
    expect(await links.insertManyIfNew(batch)).toEqual([true, false, true, false, true]);
    expect(await links.findByCode('Taken01')).toEqual(old);
    for (const i of [0, 2, 4]) expect(await links.findByCode(batch[i]!.code)).toEqual(batch[i]);
    expect(await mongo.db.collection('links').countDocuments()).toBe(4);
  });

  it('throws when a document is refused for anything but a taken code, even next to a taken one', async () => {
    // Its own database, whose links collection refuses links without an account.
    const strict = mongo.client.db(uniq('shortener_repo_test').replace('-', '_'));
    try {
      await strict.createCollection('links', { validator: { account_id: { $type: 'string' } } });
      const repo = new MongoLinkRepository(strict);
      await repo.insertManyIfNew([link('Taken02', 'https://a.example/')]);
      const batch = [link('Taken02', 'https://b.example/'), { ...link('NoAcc01', 'https://c.example/'), accountId: null }];
      await expect(repo.insertManyIfNew(batch)).rejects.toMatchObject({
        writeErrors: expect.arrayContaining([expect.objectContaining({ code: 121 })]),
      });
    } finally {
      await strict.dropDatabase().catch(() => {});
    }
  });
});
