import { describe, expect, it } from 'vitest';
import { CachedEndpointRepository } from '../src/adapters/cached-endpoint.repository.js';
import type { EndpointRepository } from '../src/domain/ports.js';
import type { Endpoint } from '../src/domain/webhook.js';
import { memoryDeps } from './fakes/memory-deps.js';

const endpoint = (id: string, accountId = 'acc-1'): Endpoint => ({
  id,
  accountId,
  url: `https://example.com/${id}`,
  events: ['survey.answered'],
  description: '',
  enabled: true,
  disabledReason: '',
  failingSince: null,
  secrets: [],
  createdAt: new Date(0),
  updatedAt: new Date(0),
});

/** The in-memory repository, counting the lookups the cache should save, failing them while `failing`. */
function countingRepository() {
  const inner = memoryDeps({ value: new Date(0) }, () => ({ status: 200 }) as never).deps.endpoints;
  const calls = { findById: 0, subscribed: 0 };
  let failing = false;
  const repo: EndpointRepository = {
    ...inner,
    findById: async (id) => {
      calls.findById++;
      if (failing) throw new Error('database down');
      return inner.findById(id);
    },
    subscribed: async (a, t) => {
      calls.subscribed++;
      return inner.subscribed(a, t);
    },
  };
  return { repo, calls, fail: (on: boolean) => (failing = on) };
}

describe('CachedEndpointRepository', () => {
  it('answers repeated and concurrent lookups from one query while they live', async () => {
    const { repo, calls } = countingRepository();
    const cached = new CachedEndpointRepository(repo, { ttlMs: 60_000, maxEntries: 100 });
    await cached.insert(endpoint('e1'));
    const [a, b] = await Promise.all([cached.findById('e1'), cached.findById('e1')]);
    expect(await cached.findById('e1')).toEqual(a);
    expect(b).toEqual(a);
    expect(calls.findById).toBe(1);
    await cached.subscribed('acc-1', 'survey.answered');
    expect((await cached.subscribed('acc-1', 'survey.answered')).map((e) => e.id)).toEqual(['e1']);
    expect(calls.subscribed).toBe(1);
  });

  it('drops what a change through it touches: update, delete, disable, failing and healthy marks', async () => {
    const { repo, calls } = countingRepository();
    const cached = new CachedEndpointRepository(repo, { ttlMs: 60_000, maxEntries: 100 });
    await cached.insert(endpoint('e1'));
    await cached.findById('e1');
    await cached.subscribed('acc-1', 'survey.answered');
    await cached.update('acc-1', 'e1', { url: 'https://example.com/new' }, new Date(1));
    expect((await cached.findById('e1'))?.url).toBe('https://example.com/new');
    expect(calls.findById).toBe(2);
    await cached.disable('e1', 'failing', new Date(2));
    expect(await cached.subscribed('acc-1', 'survey.answered')).toEqual([]);
    expect(calls.subscribed).toBe(2);
    await cached.markFailing('e1', new Date(3));
    expect((await cached.findById('e1'))?.failingSince).toEqual(new Date(3));
    await cached.markHealthy('e1');
    expect((await cached.findById('e1'))?.failingSince).toBeNull();
    await cached.delete('acc-1', 'e1');
    expect(await cached.findById('e1')).toBeNull();
    expect(calls.findById).toBe(5);
  });

  it('keeps no failed lookup, and forgets an answer once its time is up', async () => {
    const { repo, calls, fail } = countingRepository();
    const cached = new CachedEndpointRepository(repo, { ttlMs: 1, maxEntries: 100 });
    await cached.insert(endpoint('e1'));
    fail(true);
    await expect(cached.findById('e1')).rejects.toThrow(/database down/);
    fail(false);
    expect((await cached.findById('e1'))?.id).toBe('e1');
    expect(calls.findById).toBe(2);
    await new Promise((r) => setTimeout(r, 20));
    await cached.findById('e1');
    expect(calls.findById).toBe(3);
  });

  it('holds at most maxEntries lookups', async () => {
    const { repo, calls } = countingRepository();
    const cached = new CachedEndpointRepository(repo, { ttlMs: 60_000, maxEntries: 2 });
    for (const id of ['e1', 'e2', 'e3']) await cached.insert(endpoint(id));
    for (const id of ['e1', 'e2', 'e3']) await cached.findById(id);
    await cached.findById('e1');
    expect(calls.findById).toBe(4);
  });
});
