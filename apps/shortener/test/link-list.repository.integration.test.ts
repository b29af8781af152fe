import { pageQueryOf } from '@feedback/kit-core';
import { ensureIndexes, type MongoHandle } from '@feedback/kit-stores';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shortenerIndexes } from '../src/adapters/mongo/indexes.js';
import { MongoLinkRepository } from '../src/adapters/mongo/link.repository.js';
import { LINKS_PAGE } from '../src/domain/account-links.use-cases.js';
import type { Link } from '../src/domain/link.js';
import { dropTestDb, openTestDb } from './stack.js';

// Against the real MongoDB-compatible server: keyset pages over its indexes, options set and unset.
describe('MongoLinkRepository: an account’s links', () => {
  let mongo: MongoHandle;
  let links: MongoLinkRepository;
  const base = Date.UTC(2026, 10, 22, 9, 0, 0);
  // Two links share each instant (a ShortenMany batch): pages must split ties by code.
  const made: Link[] = Array.from({ length: 7 }, (_, i) => ({
    code: `List${String(i).padStart(3, '0')}`,
    fullUrl: `https://example.com/${i}`,
    accountId: 'acc-1',
    domain: i % 3 === 0 ? 'go.example.com' : null,
    createdAt: new Date(base + Math.floor(i / 2) * 1000),
    ...(i % 2 === 0 && { tags: ['even', `n${i}`] }),
  }));

  beforeAll(async () => {
    mongo = await openTestDb('shortener_list_test');
    await ensureIndexes(mongo.db, shortenerIndexes);
    links = new MongoLinkRepository(mongo.db);
    await links.insertManyIfNew([...made, { ...made[0]!, code: 'Other01', accountId: 'acc-2' }]);
  });
  afterAll(() => dropTestDb(mongo));

  /** Every page of a filter, by the tokens the repository answers. */
  async function allPages(filter: Parameters<MongoLinkRepository['list']>[0], size: number): Promise<string[][]> {
    const pages: string[][] = [];
    let token = '';
    do {
      const page = await links.list(filter, pageQueryOf({ pageSize: size, pageToken: token }, LINKS_PAGE));
      pages.push(page.items.map((l) => l.code));
      token = page.nextPageToken;
    } while (token);
    return pages;
  }

  it('pages through the account’s links newest first, ties by code, never another account’s', async () => {
    expect(await allPages({ accountId: 'acc-1' }, 3)).toEqual([
      ['List006', 'List005', 'List004'],
      ['List003', 'List002', 'List001'],
      ['List000'],
    ]);
  });

  it('filters by tag, by domain (null: none), by both, and after an instant', async () => {
    expect((await allPages({ accountId: 'acc-1', tag: 'even' }, 2)).flat()).toEqual(['List006', 'List004', 'List002', 'List000']);
    expect((await allPages({ accountId: 'acc-1', domain: 'go.example.com' }, 1)).flat()).toEqual(['List006', 'List003', 'List000']);
    expect((await allPages({ accountId: 'acc-1', domain: null }, 10)).flat()).toEqual(['List005', 'List004', 'List002', 'List001']);
    expect((await allPages({ accountId: 'acc-1', domain: null, tag: 'even' }, 1)).flat()).toEqual(['List004', 'List002']);
    expect((await allPages({ accountId: 'acc-1', createdAfter: new Date(base + 1000) }, 2)).flat()).toEqual([
      'List006',
      'List005',
      'List004',
    ]);
  });

  it('sets and removes options, keeping the rest', async () => {
    const expiresAt = new Date(base + 86_400_000);
    const set = await links.update('List001', { title: 'Shelf', maxClicks: 3, expiresAt, tags: ['a'] });
    expect(set).toMatchObject({ code: 'List001', fullUrl: 'https://example.com/1', title: 'Shelf', maxClicks: 3, expiresAt, tags: ['a'] });
    const cleared = await links.update('List001', { maxClicks: undefined, tags: undefined });
    expect(cleared).toEqual({ ...made[1], title: 'Shelf', expiresAt });
    expect(await links.findByCode('List001')).toEqual(cleared);
    expect(await links.update('Missing1', { title: 'x' })).toBeNull();
  });
});
