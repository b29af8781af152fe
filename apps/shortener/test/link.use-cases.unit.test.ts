import { describe, expect, it, vi } from 'vitest';
import { addDomain, listDomains, removeDomain } from '../src/domain/domain.use-cases.js';
import { LINK_LIMITS, shortUrlOf } from '../src/domain/link.js';
import { linkStats, resolve, shorten, shortenMany } from '../src/domain/link.use-cases.js';
import { MemoryDomains, MemoryLinks, MemoryTallies } from './fakes/memory-deps.js';

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

  it("makes links on a named customer domain for the account that owns it only; anyone else's is permission denied", async () => {
    const d = deps();
    await addDomain(d, 'acc-1', 'Go.Acme.example');
    const own = await shorten(d, { url: 'https://a.example', domain: 'GO.acme.example', accountId: 'acc-1' });
    expect(own).toMatchObject({ accountId: 'acc-1', domain: 'go.acme.example' });
    expect(shortUrlOf(own, settings)).toBe(`https://go.acme.example/${own.code}`);
    for (const accountId of [undefined, '', 'acc-2']) {
      await expect(shorten(d, { url: 'https://a.example', domain: 'go.acme.example', accountId }), String(accountId)).rejects.toMatchObject(
        {
          kind: 'permission_denied',
          code: 13013,
        },
      );
    }
    expect(d.links.items.size).toBe(1);
  });

  it('refuses a domain nobody configured, naming it, with or without an account', async () => {
    const d = deps();
    for (const accountId of [undefined, 'acc-1']) {
      await expect(shorten(d, { url: 'https://a.example', domain: 'other.example', accountId })).rejects.toMatchObject({
        kind: 'invalid',
        fields: { domain: 'is not a configured short link domain' },
      });
    }
  });

  it("takes the service's own short domain named as none given, with or without an account", async () => {
    const d = deps();
    await addDomain(d, 'acc-1', 'go.acme.example');
    const anonymous = await shorten(d, { url: 'https://a.example', domain: 'SHO.rt' });
    expect(anonymous).toMatchObject({ accountId: null, domain: null });
    expect(shortUrlOf(anonymous, settings)).toBe(`https://sho.rt/${anonymous.code}`);
    // Named explicitly, it wins over the account's default customer domain.
    expect(await shorten(d, { url: 'https://a.example', domain: 'sho.rt', accountId: 'acc-1' })).toMatchObject({
      accountId: 'acc-1',
      domain: null,
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

describe('shortenMany', () => {
  it('answers one link per URL in order, a URL given twice getting two, stored with one write', async () => {
    const d = deps();
    const write = vi.spyOn(d.links, 'insertManyIfNew');
    const urls = ['https://a.example/1', 'https://b.example/2', 'https://a.example/1', 'https://c.example/3'];
    const links = await shortenMany(d, { urls, accountId: 'acc-1' });
    expect(links.map((l) => l.fullUrl)).toEqual(urls);
    expect(new Set(links.map((l) => l.code)).size).toBe(4);
    expect(links.every((l) => l.accountId === 'acc-1' && l.domain === null)).toBe(true);
    expect(write).toHaveBeenCalledTimes(1);
    for (const l of links) expect(await resolve(d, l.code)).toEqual(l);
  });

  it("makes the links on the account's default (oldest) domain", async () => {
    const d = deps();
    await addDomain(d, 'acc-1', 'first.example');
    await addDomain(d, 'acc-1', 'second.example');
    const links = await shortenMany(d, { urls: ['https://a.example', 'https://b.example'], accountId: 'acc-1' });
    expect(links.map((l) => shortUrlOf(l, settings))).toEqual(links.map((l) => `https://first.example/${l.code}`));
    expect((await shortenMany(d, { urls: ['https://a.example'], accountId: 'acc-2' }))[0]!.domain).toBeNull();
  });

  it('draws new codes for the taken ones only, taken before or within the batch', async () => {
    const d = deps(['taken01', 'aaaa001', 'taken01', 'bbbb001', 'bbbb001', 'fresh01', 'fresh02']);
    await shorten(d, { url: 'https://old.example' });
    const write = vi.spyOn(d.links, 'insertManyIfNew');
    const links = await shortenMany(d, {
      urls: ['https://a.example', 'https://b.example', 'https://c.example', 'https://d.example'],
      accountId: 'acc-1',
    });
    expect(links.map((l) => l.code)).toEqual(['aaaa001', 'fresh01', 'bbbb001', 'fresh02']);
    expect(write).toHaveBeenCalledTimes(2);
    expect(write.mock.calls[1]![0].map((l) => l.fullUrl)).toEqual(['https://b.example', 'https://d.example']);
    expect((await resolve(d, 'taken01')).fullUrl).toBe('https://old.example');
    for (const l of links) expect((await resolve(d, l.code)).fullUrl).toBe(l.fullUrl);
  });

  it('gives up with an internal error when codes stay taken', async () => {
    const d = deps(Array(LINK_LIMITS.codeAttempts + 2).fill('same001'));
    await shorten(d, { url: 'https://old.example' });
    await expect(shortenMany(d, { urls: ['https://a.example'], accountId: 'acc-1' })).rejects.toMatchObject({ kind: 'internal' });
  });

  it('refuses the whole call naming the first refused URL by position, and stores nothing', async () => {
    const d = deps();
    await addDomain(d, 'acc-1', 'go.acme.example');
    const ok = 'https://a.example';
    await expect(shortenMany(d, { urls: [ok, ok, 'javascript:alert(1)', 'ftp://x.example'], accountId: 'acc-1' })).rejects.toMatchObject({
      kind: 'invalid',
      fields: { 'urls[2]': expect.stringMatching(/javascript: scheme/) },
    });
    await expect(shortenMany(d, { urls: [ok, 'https://sho.rt/abc'], accountId: 'acc-1' })).rejects.toMatchObject({
      fields: { 'urls[1]': 'must not point to the short link domain' },
    });
    const lookups = vi.spyOn(d.domains, 'findByName');
    const looping = [ok, 'https://b.example', ok, 'https://GO.acme.example/x', 'https://b.example/2'];
    const err = await shortenMany(d, { urls: looping, accountId: 'acc-1' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'invalid', fields: { 'urls[3]': 'must not point to a short link domain' } });
    expect(Object.keys((err as { fields: object }).fields)).toEqual(['urls[3]']);
    expect(lookups.mock.calls.map(([host]) => host).sort()).toEqual(['a.example', 'b.example', 'go.acme.example']);
    expect(d.links.items.size).toBe(0);
  });

  it('requires an account and 1 to 1000 URLs', async () => {
    const d = deps();
    await expect(shortenMany(d, { urls: ['https://a.example'], accountId: '' })).rejects.toMatchObject({
      kind: 'invalid',
      fields: { account_id: 'is required' },
    });
    for (const n of [0, 1001]) {
      const urls = Array.from({ length: n }, (_, i) => `https://a.example/${i}`);
      await expect(shortenMany(d, { urls, accountId: 'acc-1' })).rejects.toMatchObject({
        kind: 'invalid',
        fields: { urls: expect.any(String) },
      });
    }
    expect((await shortenMany(d, { urls: Array(1000).fill('https://a.example'), accountId: 'acc-1' })).length).toBe(1000);
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

// A customer domain carries its owner's brand: asked with the Host it was requested on, resolve
// finds a link only where it is served.
describe('resolve on a host', () => {
  it('a customer domain serves only its own links; a link made without a domain is served on every other host', async () => {
    const d = deps(['anon001', 'brand01']);
    await addDomain(d, 'acc', 'go.brand.example');
    const anonymous = await shorten(d, { url: 'https://attacker.example/phish' });
    const branded = await shorten(d, { url: 'https://brand.example/offer', accountId: 'acc', domain: 'go.brand.example' });

    for (const host of ['go.brand.example', 'GO.Brand.Example.', 'go.brand.example:443'])
      await expect(resolve(d, anonymous.code, host)).rejects.toMatchObject({ kind: 'not_found' });
    for (const host of ['sho.rt', '127.0.0.1:8081', 'shortener.internal:8081', ''])
      expect((await resolve(d, anonymous.code, host)).fullUrl).toBe('https://attacker.example/phish');

    for (const host of ['go.brand.example', 'GO.brand.example:443'])
      expect((await resolve(d, branded.code, host)).fullUrl).toBe('https://brand.example/offer');
    for (const host of ['sho.rt', '127.0.0.1:8081', 'other.brand.example', ''])
      await expect(resolve(d, branded.code, host)).rejects.toMatchObject({ kind: 'not_found' });
    // Without a host (callers that are not redirecting), no host check.
    expect((await resolve(d, branded.code)).code).toBe('brand01');
  });
});
