import { describe, expect, it } from 'vitest';
import type { ApiToken } from '../src/accounts/domain/account.js';
import type { TokenRepository } from '../src/accounts/domain/ports.js';
import { CachedTokenRepository } from '../src/accounts/adapters/cached-token.repository.js';

function countingRepo(token: ApiToken) {
  let lookups = 0;
  const repo: TokenRepository = {
    insert: async () => {},
    listByAccount: async () => [token],
    findByHash: async (h) => {
      lookups++;
      return h === token.hash ? token : null;
    },
    revoke: async () => ({ ...token, revokedAt: new Date() }),
  };
  return { repo, lookups: () => lookups };
}

describe('CachedTokenRepository', () => {
  const token: ApiToken = { id: 't', accountId: 'a', kind: 'api', name: 'n', hash: 'h1', createdAt: new Date(), revokedAt: null };

  it('serves repeated lookups from memory until the entry expires', async () => {
    let now = 0;
    const { repo, lookups } = countingRepo(token);
    const cache = new CachedTokenRepository(repo, { ttlMs: 1000, missTtlMs: 100, maxEntries: 10, now: () => now });
    await cache.findByHash('h1');
    await cache.findByHash('h1');
    expect(lookups()).toBe(1);
    now = 1001;
    await cache.findByHash('h1');
    expect(lookups()).toBe(2);
  });

  it('forgets a token at once when it is revoked here', async () => {
    const { repo, lookups } = countingRepo(token);
    const cache = new CachedTokenRepository(repo, { ttlMs: 60_000, missTtlMs: 100, maxEntries: 10 });
    await cache.findByHash('h1');
    await cache.revoke('a', 't', new Date());
    await cache.findByHash('h1');
    expect(lookups()).toBe(2);
  });

  it('stays within its size bound', async () => {
    const { repo, lookups } = countingRepo(token);
    const cache = new CachedTokenRepository(repo, { ttlMs: 60_000, missTtlMs: 60_000, maxEntries: 2 });
    for (const h of ['x1', 'x2', 'x3', 'x1']) await cache.findByHash(h);
    expect(lookups()).toBe(4); // x1 was evicted by x3
  });
});
