import { describe, expect, it } from 'vitest';
import { CachedFlowRepository } from '../src/adapters/cached-flow.repository.js';
import type { Flow } from '../src/domain/flow.js';
import type { FlowRepository } from '../src/domain/ports.js';

const flow = (id: string, accountId = 'a'): Flow => ({ id, accountId, name: 'n', questions: [], createdAt: new Date() });

function counting(items: Flow[]) {
  const calls = { find: 0 };
  const repo: FlowRepository = {
    insert: async (f) => void items.push(f),
    findById: async (accountId, id) => {
      calls.find++;
      return items.find((f) => f.id === id && f.accountId === accountId) ?? null;
    },
  };
  return { repo, calls };
}

describe('CachedFlowRepository', () => {
  it('reads a found flow from the store once', async () => {
    const { repo, calls } = counting([flow('f1')]);
    const cached = new CachedFlowRepository(repo, 10);
    expect(await cached.findById('a', 'f1')).toMatchObject({ id: 'f1' });
    expect(await cached.findById('a', 'f1')).toMatchObject({ id: 'f1' });
    expect(calls.find).toBe(1);
  });

  it('keeps account scoping on cache hits', async () => {
    const { repo } = counting([flow('f1', 'a')]);
    const cached = new CachedFlowRepository(repo, 10);
    await cached.findById('a', 'f1');
    expect(await cached.findById('b', 'f1')).toBeNull();
  });

  it('does not remember misses, so a flow created elsewhere shows up at once', async () => {
    const items: Flow[] = [];
    const { repo, calls } = counting(items);
    const cached = new CachedFlowRepository(repo, 10);
    expect(await cached.findById('a', 'f2')).toBeNull();
    items.push(flow('f2'));
    expect(await cached.findById('a', 'f2')).toMatchObject({ id: 'f2' });
    expect(calls.find).toBe(2);
  });
});
