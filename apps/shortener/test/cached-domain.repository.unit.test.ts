import { describe, expect, it } from 'vitest';
import { CachedDomainRepository } from '../src/adapters/cached-domain.repository.js';
import { MemoryDomains } from './fakes/memory-deps.js';

/** MemoryDomains that counts lookups. */
class CountingDomains extends MemoryDomains {
  lookups = 0;
  override async findByName(name: string) {
    this.lookups++;
    return super.findByName(name);
  }
}

const domain = (name: string, accountId = 'a') => ({ name, accountId, createdAt: new Date() });

describe('CachedDomainRepository', () => {
  it('answers repeated lookups, found or not, from memory', async () => {
    const inner = new CountingDomains();
    await inner.insertIfNew(domain('go.example'));
    const cached = new CachedDomainRepository(inner, { ttlMs: 60_000, maxEntries: 10 });
    for (let i = 0; i < 3; i++) {
      expect(await cached.findByName('go.example')).toMatchObject({ name: 'go.example' });
      expect(await cached.findByName('shop.example')).toBeNull();
    }
    expect(inner.lookups).toBe(2);
  });

  it('sees a domain added or removed through it at once', async () => {
    const inner = new CountingDomains();
    const cached = new CachedDomainRepository(inner, { ttlMs: 60_000, maxEntries: 10 });
    expect(await cached.findByName('go.example')).toBeNull();
    expect(await cached.insertIfNew(domain('go.example'))).toBe(true);
    expect(await cached.findByName('go.example')).toMatchObject({ accountId: 'a' });
    expect(await cached.remove('a', 'go.example')).toBe(true);
    expect(await cached.findByName('go.example')).toBeNull();
  });

  it('asks again once an answer is older than the TTL (another replica changed the domains)', async () => {
    const inner = new CountingDomains();
    const cached = new CachedDomainRepository(inner, { ttlMs: 20, maxEntries: 10 });
    expect(await cached.findByName('go.example')).toBeNull();
    await inner.insertIfNew(domain('go.example'));
    expect(await cached.findByName('go.example')).toBeNull();
    await new Promise((r) => setTimeout(r, 40));
    expect(await cached.findByName('go.example')).toMatchObject({ name: 'go.example' });
  });
});
