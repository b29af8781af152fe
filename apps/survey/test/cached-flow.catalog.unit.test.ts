import { describe, expect, it } from 'vitest';
import { CachedFlowCatalog } from '../src/adapters/cached-flow.catalog.js';
import type { Flow } from '../src/domain/flow.js';
import type { FlowCatalog } from '../src/domain/ports.js';

const flow = (id: string, accountId = 'a') =>
  ({ id, accountId, name: 'n', questions: [], createdAt: '2026-01-01T00:00:00Z' }) as unknown as Flow;

function counting(items: Flow[]) {
  const calls = { get: 0 };
  const catalog: FlowCatalog = {
    get: async (accountId, id) => {
      calls.get++;
      return items.find((f) => f.id === id && f.accountId === accountId) ?? null;
    },
  };
  return { catalog, calls };
}

describe('CachedFlowCatalog', () => {
  it('asks the flow service once for a found flow, per account', async () => {
    const { catalog, calls } = counting([flow('f1', 'a')]);
    const cached = new CachedFlowCatalog(catalog, 10);
    expect(await cached.get('a', 'f1')).toMatchObject({ id: 'f1' });
    expect(await cached.get('a', 'f1')).toMatchObject({ id: 'f1' });
    expect(calls.get).toBe(1);
    expect(await cached.get('b', 'f1')).toBeNull();
  });

  it('does not cache a miss: a flow created a moment later is found', async () => {
    const items: Flow[] = [];
    const { catalog, calls } = counting(items);
    const cached = new CachedFlowCatalog(catalog, 10);
    expect(await cached.get('a', 'f2')).toBeNull();
    items.push(flow('f2'));
    expect(await cached.get('a', 'f2')).toMatchObject({ id: 'f2' });
    expect(calls.get).toBe(2);
  });
});
