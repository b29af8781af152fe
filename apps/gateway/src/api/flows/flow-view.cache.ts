import { LRUCache } from 'lru-cache';
import type { FlowsPort } from './flows.port.js';
import { flowView } from './flows.views.js';

/** A flow's answer, ready to send: its view as JSON bytes, and the id that names it. */
export type FlowViewBytes = { id: string; json: Buffer };

type Key = string;
type Context = { accountId: string; flowId: string };

/**
 * Flow details without a gRPC call per request (docs/decisions.md "Flow details
 * cache"). Flows never change and are never deleted, so an account's flow, once fetched, is the
 * same answer forever: the gateway keeps its view, serialized once, per (account, flow). The
 * account is part of the key, so the flow service's ownership check still decides every pair
 * the first time; a 404 (unknown or foreign id) is never cached. Bounded by bytes (LRU); loads
 * of one key run once however many requests wait for it.
 */
export class FlowViewCache {
  private readonly cache: LRUCache<Key, FlowViewBytes, Context>;

  constructor(flows: Pick<FlowsPort, 'getFlow'>, opts: { maxBytes: number }) {
    this.cache = new LRUCache<Key, FlowViewBytes, Context>({
      maxSize: opts.maxBytes,
      sizeCalculation: (v) => v.json.length + v.id.length + 64,
      fetchMethod: async (_key, _stale, { context }) => {
        const { flow } = await flows.getFlow({ accountId: context.accountId, flowId: context.flowId });
        const view = flowView(flow);
        return { id: view.id, json: Buffer.from(JSON.stringify(view)) };
      },
    });
  }

  /** The cached answer without waiting, or undefined. */
  peek(accountId: string, flowId: string): FlowViewBytes | undefined {
    return this.cache.get(keyOf(accountId, flowId));
  }

  /** The answer, from the cache or the flow service; the service's errors (404, 503) pass through. */
  async load(accountId: string, flowId: string): Promise<FlowViewBytes> {
    const got = await this.cache.fetch(keyOf(accountId, flowId), { context: { accountId, flowId } });
    if (!got) throw new Error('flow view cache: no value after fetch');
    return got;
  }
}

const keyOf = (accountId: string, flowId: string): Key => `${accountId}\u0000${flowId}`;
