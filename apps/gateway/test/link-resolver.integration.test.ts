import { AppError } from '@feedback/kit-core';
import { createLogger } from '@feedback/kit-core/runtime';
import { readStackFile } from '@feedback/dev-stack';
import { createRedis, waitForRedis, type Redis } from '@feedback/kit-stores';
import type { ResolveRequest, ResolveResponse } from '@feedback/proto/feedback/shortener/v1/shortener';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LinkResolver, requestHost } from '../src/links/link.resolver.js';
import type { ResolvePort } from '../src/links/links.port.js';

const logger = createLogger('gateway-test', 'silent');

/** The shortener's Resolve, counting its calls and answering slowly enough for calls to overlap. */
function fakeShortener(links: Record<string, string>) {
  let calls = 0;
  const port: ResolvePort = {
    async resolve({ code }: ResolveRequest): Promise<ResolveResponse> {
      calls++;
      await new Promise((r) => setTimeout(r, 20));
      const fullUrl = links[code];
      if (!fullUrl) throw new AppError('not_found', undefined, { code });
      return { link: { code, fullUrl, shortUrl: '', accountId: '', domain: '', createdAt: '' } };
    },
  };
  return { port, calls: () => calls };
}

const opts = { maxEntries: 100, ttlMs: 60_000, missTtlMs: 50, logger };
const code = () => `T${Math.random().toString(36).slice(2, 10)}`;

// A real Redis (the local stack's), never a mock.
describe('LinkResolver', () => {
  let redis: Redis;
  beforeAll(async () => {
    redis = createRedis({ url: readStackFile().redis_url, logger, name: 'gateway-test' });
    await waitForRedis(redis);
  });
  afterAll(() => redis?.disconnect());

  it('asks the shortener once for a burst of concurrent taps on a fresh code', async () => {
    const c = code();
    const s = fakeShortener({ [c]: 'https://a.example/' });
    const resolver = new LinkResolver(s.port, redis, opts);
    const urls = await Promise.all(Array.from({ length: 50 }, () => resolver.fullUrl(c)));
    expect(new Set(urls)).toEqual(new Set(['https://a.example/']));
    expect(s.calls()).toBe(1);
  });

  it('shares resolved codes through Redis with other gateway processes', async () => {
    const c = code();
    const first = fakeShortener({ [c]: 'https://b.example/' });
    await new LinkResolver(first.port, redis, opts).fullUrl(c);
    await new Promise((r) => setTimeout(r, 20)); // the Redis write is not awaited
    const second = fakeShortener({});
    expect(await new LinkResolver(second.port, redis, opts).fullUrl(c)).toBe('https://b.example/');
    expect(second.calls()).toBe(0);
    expect(await redis.pttl(`link:v3:${c}`)).toBeGreaterThan(50_000);
  });

  it("keeps each host's answer apart: a code resolved on one host is asked again for another, which may not serve it", async () => {
    const c = code();
    const hosts: (string | undefined)[] = [];
    const port: ResolvePort = {
      async resolve({ code: asked, host }: ResolveRequest): Promise<ResolveResponse> {
        hosts.push(host);
        if (host === 'brand.example') throw new AppError('not_found', undefined, { code: asked });
        return { link: { code: asked, fullUrl: 'https://d.example/', shortUrl: '', accountId: '', domain: '', createdAt: '' } };
      },
    };
    const resolver = new LinkResolver(port, redis, opts);
    expect(await resolver.fullUrl(c, undefined, 'sho.rt')).toBe('https://d.example/');
    expect(resolver.cached(c, 'sho.rt')).toBe('https://d.example/');
    expect(resolver.cached(c, 'brand.example')).toBeUndefined();
    expect(await resolver.fullUrl(c, undefined, 'brand.example')).toBeNull();
    expect(await new LinkResolver(port, redis, opts).fullUrl(c, undefined, 'brand.example')).toBeNull();
    expect(hosts).toEqual(['sho.rt', 'brand.example', 'brand.example']);
  });

  it.each([
    ['Brand.Example', 'brand.example'],
    ['brand.example.:8081', 'brand.example'],
    ['[::1]:8081', '[::1]'],
    ['127.0.0.1:8081', '127.0.0.1'],
    [undefined, ''],
    [`${'a'.repeat(300)}.example`, ''],
  ])('keys the Host %s as %s', (header, host) => {
    expect(requestHost(header)).toBe(host);
  });

  it('remembers an unknown code only briefly', async () => {
    const c = code();
    const links: Record<string, string> = {};
    const s = fakeShortener(links);
    const resolver = new LinkResolver(s.port, redis, opts);
    expect(await resolver.fullUrl(c)).toBeNull();
    expect(await resolver.fullUrl(c)).toBeNull();
    expect(s.calls()).toBe(1);
    links[c] = 'https://late.example/';
    await new Promise((r) => setTimeout(r, 80));
    expect(await resolver.fullUrl(c)).toBe('https://late.example/');
  });

  it('still resolves, through the shortener, while Redis is unreachable', async () => {
    const dead = createRedis({ url: 'redis://127.0.0.1:1', logger, name: 'gateway-test-dead', connectTimeoutMs: 100 });
    try {
      const c = code();
      const s = fakeShortener({ [c]: 'https://c.example/' });
      expect(await new LinkResolver(s.port, dead, opts).fullUrl(c)).toBe('https://c.example/');
    } finally {
      dead.disconnect();
    }
  });

  it('lets other failures through (the shortener being down is not a 404)', async () => {
    const resolver = new LinkResolver({ resolve: async () => Promise.reject(new AppError('unavailable')) }, null, opts);
    await expect(resolver.fullUrl(code())).rejects.toMatchObject({ kind: 'unavailable' });
  });
});
