import { AppError } from '@feedback/kit-core';
import type { GrpcClient } from '@feedback/kit-grpc';
import type { FlowServiceClient } from '@feedback/proto/feedback/flow/v1/flow';
import { LRUCache } from 'lru-cache';
import type { Flow } from '../../domain/flow.js';
import type { FlowCatalog } from '../../domain/ports.js';

/**
 * Flows from the flow service. Flows never change, so a found flow is cached for good (LRU
 * bounded); misses are not cached, so a flow created a moment ago is found at once.
 */
export function grpcFlowCatalog(client: GrpcClient<FlowServiceClient>, maxEntries = 1_000): FlowCatalog {
  const cache = new LRUCache<string, Flow>({ max: maxEntries });
  return {
    async get(accountId, flowId) {
      const key = `${accountId}/${flowId}`;
      const hit = cache.get(key);
      if (hit) return hit;
      try {
        const { flow } = await client.getFlow({ accountId, flowId });
        if (!flow) return null;
        cache.set(key, flow);
        return flow;
      } catch (err) {
        if (err instanceof AppError && err.kind === 'not_found') return null;
        throw err;
      }
    },
  };
}
