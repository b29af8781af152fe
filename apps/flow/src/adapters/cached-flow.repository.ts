import { LRUCache } from 'lru-cache';
import type { Flow } from '../domain/flow.js';
import type { FlowRepository } from '../domain/ports.js';

/**
 * Flows never change once created (there is no update or delete RPC), so a found flow can
 * be served from memory for as long as it stays in the LRU. Misses are not cached: a flow
 * created through another replica must be visible at once. If flows ever become editable,
 * this cache needs invalidation (or a short TTL) first.
 */
export class CachedFlowRepository implements FlowRepository {
  private readonly cache: LRUCache<string, Flow>;

  constructor(
    private readonly inner: FlowRepository,
    maxEntries: number,
  ) {
    this.cache = new LRUCache({ max: maxEntries });
  }

  async insert(flow: Flow): Promise<void> {
    await this.inner.insert(flow);
    this.cache.set(flow.id, flow);
  }

  async findById(accountId: string, flowId: string): Promise<Flow | null> {
    const hit = this.cache.get(flowId);
    if (hit) return hit.accountId === accountId ? hit : null;
    const flow = await this.inner.findById(accountId, flowId);
    if (flow) this.cache.set(flow.id, flow);
    return flow;
  }
}
