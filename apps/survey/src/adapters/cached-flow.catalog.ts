import { LRUCache } from 'lru-cache';
import type { Flow } from '../domain/flow.js';
import type { FlowCatalog } from '../domain/ports.js';

/**
 * Flows never change, so a found flow is cached for good (LRU bounded); misses are not cached,
 * so a flow created a moment ago is found at once.
 */
export class CachedFlowCatalog implements FlowCatalog {
  private readonly cache: LRUCache<string, Flow>;

  constructor(
    private readonly inner: FlowCatalog,
    maxEntries = 1_000,
  ) {
    this.cache = new LRUCache({ max: maxEntries });
  }

  async get(accountId: string, flowId: string): Promise<Flow | null> {
    const key = `${accountId}/${flowId}`;
    const hit = this.cache.get(key);
    if (hit) return hit;
    const flow = await this.inner.get(accountId, flowId);
    if (flow) this.cache.set(key, flow);
    return flow;
  }
}
