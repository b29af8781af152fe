import { describe, expect, it } from 'vitest';
import { addDomain, listDomains, removeDomain } from '../src/domain/domain.use-cases.js';
import { shortUrlOf } from '../src/domain/link.js';
import { linkStats, resolve, shorten } from '../src/domain/link.use-cases.js';
import { MemoryDomains, MemoryLinks, MemoryTallies } from './memory-stores.js';

const settings = { shortBase: 'https://sho.rt', maxUrlLength: 2048 };
let t = 0;

function deps(codes: string[] = []) {
  let n = 0;
  return {
    links: new MemoryLinks(),
    domains: new MemoryDomains(),
    tallies: new MemoryTallies(),
    clock: { now: () => new Date(Date.UTC(2026, 10, 22, 9, 30, 0, 123) + t++ * 1000) },
    newCode: () => codes.shift() ?? `code${String(++n).padStart(3, '0')}`,
    settings,
  };
}

describe('shorten', () => {
  it('keeps the URL exactly as given and builds the short URL on the own domain', async () => {
    const d = deps(['aZ3kP9q']);
    const url = 'https://bücher.example/a%2Fb?q=%E2%9C%93#Frag';
    const link = await shorten(d, { url });
    expect(link).toMatchObject({ code: 'aZ3kP9q', fullUrl: url, accountId: null, domain: null });
    expect(shortUrlOf(link, settings)).toBe('https://sho.rt/aZ3kP9q');
    expect((await resolve(d, 'aZ3kP9q')).fullUrl).toBe(url);
  });

  it('draws another code when the one drawn is taken, and never serves a code twice', async () => {
    const d = deps(['dupe001', 'dupe001', 'fresh01']);
    const first = await shorten(d, { url: 'https://a.example' });
    const second = await shorten(d, { url: 'https://b.example' });
    expect([first.code, second.code]).toEqual(['dupe001', 'fresh01']);
    expect((await resolve(d, 'dupe001')).fullUrl).toBe('https://a.example');
  });

  it('gives up with an internal error after several collisions', async () => {
    const d = deps(Array(10).fill('same001'));
    await shorten(d, { url: 'https://a.example' });
    await expect(shorten(d, { url: 'https://b.example' })).rejects.toMatchObject({ kind: 'internal' });
  });

  it('uses a named customer domain only if it is configured (for the account, when there is one)', async () => {
    const d = deps();
    await addDomain(d, 'acc-1', 'Go.Acme.example');
    const pub = await shorten(d, { url: 'https://a.example', domain: 'go.acme.example' });
    expect(shortUrlOf(pub, settings)).toBe(`https://go.acme.example/${pub.code}`);
    await expect(shorten(d, { url: 'https://a.example', domain: 'other.example' })).rejects.toMatchObject({
      kind: 'invalid',
      fields: { domain: 'is not a configured short link domain' },
    });
    await expect(shorten(d, { url: 'https://a.example', domain: 'go.acme.example', accountId: 'acc-2' })).rejects.toMatchObject({
      fields: { domain: expect.any(String) },
    });
  });

  it("makes an account's links on its oldest domain by default, and on the own domain without one", async () => {
    const d = deps();
    await addDomain(d, 'acc-1', 'first.example');
    await addDomain(d, 'acc-1', 'second.example');
    expect((await shorten(d, { url: 'https://a.example', accountId: 'acc-1' })).domain).toBe('first.example');
    expect((await shorten(d, { url: 'https://a.example', accountId: 'acc-1', domain: 'second.example' })).domain).toBe('second.example');
    expect((await shorten(d, { url: 'https://a.example', accountId: 'acc-9' })).domain).toBeNull();
    await removeDomain(d, 'acc-1', 'first.example');
    expect((await shorten(d, { url: 'https://a.example', accountId: 'acc-1' })).domain).toBe('second.example');
  });

  it('refuses links to any customer domain (they would redirect to us)', async () => {
    const d = deps();
    await addDomain(d, 'acc-1', 'go.acme.example');
    await expect(shorten(d, { url: 'https://GO.acme.example/abc' })).rejects.toMatchObject({
      fields: { url: 'must not point to a short link domain' },
    });
  });

  it('stores nothing for an invalid URL', async () => {
    const d = deps();
    await expect(shorten(d, { url: 'javascript:alert(1)' })).rejects.toMatchObject({ kind: 'invalid' });
    expect(d.links.items.size).toBe(0);
  });
});

describe('resolve and stats', () => {
  it('answers not found naming the code, for unknown and malformed codes alike', async () => {
    const d = deps();
    for (const code of ['nope123', '../etc', '', 'x'.repeat(40)]) {
      await expect(resolve(d, code)).rejects.toMatchObject({ kind: 'not_found', fields: { code } });
    }
  });

  it('reports zero clicks before any were counted', async () => {
    const d = deps();
    const link = await shorten(d, { url: 'https://a.example' });
    expect((await linkStats(d, link.code)).clicks).toBe(0);
  });
});

describe('customer domains', () => {
  it('belong to one account; the same name again is a conflict', async () => {
    const d = deps();
    await addDomain(d, 'acc-1', 'go.acme.example');
    await expect(addDomain(d, 'acc-2', 'GO.ACME.EXAMPLE')).rejects.toMatchObject({
      kind: 'conflict',
      fields: { domain: 'go.acme.example' },
    });
    await expect(addDomain(d, 'acc-1', 'sho.rt')).rejects.toMatchObject({ kind: 'invalid' });
    expect((await listDomains(d, 'acc-1')).map((x) => x.name)).toEqual(['go.acme.example']);
    await expect(removeDomain(d, 'acc-2', 'go.acme.example')).rejects.toMatchObject({ kind: 'not_found' });
  });
});
