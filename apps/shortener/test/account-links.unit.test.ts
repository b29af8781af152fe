import { AppError } from '@feedback/kit-core';
import { describe, expect, it } from 'vitest';
import { getLink, listLinks, updateLink } from '../src/domain/account-links.use-cases.js';
import { checkLinkOptions, parseRfc3339 } from '../src/domain/link-options.js';
import { shorten } from '../src/domain/link.use-cases.js';
import { MemoryDomains, MemoryLinks, MemoryTallies } from './fakes/memory-deps.js';

const settings = { shortBase: 'https://sho.rt', maxUrlLength: 2048 };
const NOW = new Date('2026-11-22T09:30:00.000Z');

function deps() {
  let n = 0;
  let t = 0;
  return {
    links: new MemoryLinks(),
    domains: new MemoryDomains(),
    tallies: new MemoryTallies(),
    clock: { now: () => new Date(NOW.getTime() + t++ * 1000) },
    newCode: () => `code${String(++n).padStart(3, '0')}`,
    settings,
  };
}

/** The fields an AppError names, or the error itself when it is none. */
const fieldsOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError) return { kind: err.kind, fields: err.fields };
    throw err;
  }
  return null;
};

describe('link options', () => {
  it('reads RFC 3339 with an offset only, and real calendar days only', () => {
    expect(parseRfc3339('2026-11-22T09:30:00Z')?.toISOString()).toBe('2026-11-22T09:30:00.000Z');
    expect(parseRfc3339('2026-11-22T12:30:00.5+03:00')?.toISOString()).toBe('2026-11-22T09:30:00.500Z');
    for (const bad of ['2026-11-22', '2026-11-22T09:30:00', '2026-02-30T00:00:00Z', 'tomorrow', '2026-11-22T09:30Z']) {
      expect(parseRfc3339(bad), bad).toBeNull();
    }
  });

  it('refuses an expiry already past, a max_clicks below 1, a bad expired_url, a long title and too many tags, naming each', () => {
    const found = fieldsOf(() =>
      checkLinkOptions(
        {
          expiresAt: '2026-11-22T09:29:59Z',
          maxClicks: -1,
          expiredUrl: 'javascript:alert(1)',
          title: 'x'.repeat(201),
          tags: Array.from({ length: 21 }, (_, i) => `t${i}`),
        },
        settings,
        NOW,
      ),
    );
    expect(found?.kind).toBe('invalid');
    expect(Object.keys(found?.fields ?? {}).sort()).toEqual(['expired_url', 'expires_at', 'max_clicks', 'tags', 'title']);
    expect(fieldsOf(() => checkLinkOptions({ tags: ['ok', 'y'.repeat(51)] }, settings, NOW))?.fields).toHaveProperty('tags');
    expect(fieldsOf(() => checkLinkOptions({ expiresAt: 'soon' }, settings, NOW))?.fields).toHaveProperty('expires_at');
  });

  it('takes empty values as "clear" and drops repeated tags', () => {
    expect(checkLinkOptions({ title: '', tags: [], expiresAt: '', maxClicks: 0, expiredUrl: '' }, settings, NOW)).toEqual({
      title: undefined,
      tags: undefined,
      expiresAt: undefined,
      maxClicks: undefined,
      expiredUrl: undefined,
    });
    expect(checkLinkOptions({ tags: ['a', 'b', 'a'], maxClicks: 3 }, settings, NOW)).toEqual({ tags: ['a', 'b'], maxClicks: 3 });
  });
});

describe("an account's links", () => {
  it('shorten stores the options given and nothing for those not given', async () => {
    const d = deps();
    const link = await shorten(d, {
      url: 'https://example.com/a',
      accountId: 'acc-1',
      options: {
        title: 'Receipt',
        tags: ['shop'],
        expiresAt: '2026-12-01T00:00:00Z',
        maxClicks: 5,
        expiredUrl: 'https://example.com/over',
      },
    });
    expect(link).toMatchObject({ title: 'Receipt', tags: ['shop'], maxClicks: 5, expiredUrl: 'https://example.com/over' });
    expect(link.expiresAt?.toISOString()).toBe('2026-12-01T00:00:00.000Z');
    const plain = await shorten(d, { url: 'https://example.com/b', accountId: 'acc-1' });
    expect(Object.keys(plain).sort()).toEqual(['accountId', 'code', 'createdAt', 'domain', 'fullUrl']);
    await expect(shorten(d, { url: 'https://example.com/c', options: { expiresAt: '2020-01-01T00:00:00Z' } })).rejects.toMatchObject({
      kind: 'invalid',
      fields: { expires_at: 'must be in the future' },
    });
  });

  it("lists only the account's links, newest first, by tag and domain, with clicks, a page at a time", async () => {
    const d = deps();
    const a = await shorten(d, { url: 'https://example.com/1', accountId: 'acc-1', options: { tags: ['x'] } });
    await shorten(d, { url: 'https://example.com/2', accountId: 'acc-2', options: { tags: ['x'] } });
    const c = await shorten(d, { url: 'https://example.com/3', accountId: 'acc-1' });
    d.tallies.items.set(a.code, { count: 4, checkpoints: {} });

    const all = await listLinks(d, { accountId: 'acc-1', pageSize: 1 });
    expect(all.items.map((i) => i.link.code)).toEqual([c.code]);
    const next = await listLinks(d, { accountId: 'acc-1', pageSize: 1, pageToken: all.nextPageToken });
    expect(next.items).toEqual([{ link: a, clicks: 4 }]);
    expect(next.nextPageToken).toBe('');
    expect((await listLinks(d, { accountId: 'acc-1', tag: 'x' })).items.map((i) => i.link.code)).toEqual([a.code]);
    expect((await listLinks(d, { accountId: 'acc-1', domain: 'sho.rt' })).items).toHaveLength(2);
    expect((await listLinks(d, { accountId: 'acc-1', createdAfter: a.createdAt.toISOString() })).items.map((i) => i.link.code)).toEqual([
      c.code,
    ]);
    await expect(listLinks(d, { accountId: 'acc-1', createdAfter: 'yesterday' })).rejects.toMatchObject({
      fields: { created_after: expect.any(String) },
    });
  });

  it("gets and changes the account's own link only; another account's is not found", async () => {
    const d = deps();
    const link = await shorten(d, { url: 'https://example.com/1', accountId: 'acc-1', options: { maxClicks: 2, title: 'Old' } });
    await expect(getLink(d, 'acc-2', link.code)).rejects.toMatchObject({ kind: 'not_found', fields: { code: link.code } });
    await expect(updateLink(d, 'acc-2', link.code, { title: 'Mine' })).rejects.toMatchObject({ kind: 'not_found' });

    const changed = await updateLink(d, 'acc-1', link.code, { maxClicks: 0, expiresAt: '2026-12-24T18:00:00+03:00', tags: ['xmas'] });
    expect(changed.link).toMatchObject({ code: link.code, fullUrl: 'https://example.com/1', title: 'Old', tags: ['xmas'] });
    expect(changed.link.maxClicks).toBeUndefined();
    expect(changed.link.expiresAt?.toISOString()).toBe('2026-12-24T15:00:00.000Z');
    expect((await getLink(d, 'acc-1', link.code)).link).toEqual(changed.link);
    await expect(updateLink(d, 'acc-1', link.code, { expiresAt: '2026-11-01T00:00:00Z' })).rejects.toMatchObject({
      fields: { expires_at: 'must be in the future' },
    });
    // An expired_url on a customer domain would be a link to ourselves, as a url there is.
    d.domains.items.set('go.example.com', { name: 'go.example.com', accountId: 'acc-1', createdAt: NOW });
    for (const attempt of [
      updateLink(d, 'acc-1', link.code, { expiredUrl: 'https://GO.example.com/x' }),
      shorten(d, { url: 'https://example.com/2', options: { expiredUrl: 'https://go.example.com/x' } }),
    ]) {
      await expect(attempt).rejects.toMatchObject({ fields: { expired_url: 'must not point to a short link domain' } });
    }
  });
});
