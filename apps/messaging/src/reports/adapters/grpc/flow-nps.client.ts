import { AppError } from '@feedback/kit-core';
import type { GrpcClient } from '@feedback/kit-grpc';
import type { FlowServiceClient } from '@feedback/proto/feedback/flow/v1/flow';
import { LRUCache } from 'lru-cache';
import type { FlowQuestions } from '../../ports.js';

/**
 * Each flow's NPS question from the flow service (`GetFlow`), remembered per account and flow:
 * flows never change once created (the flow service has no update), so an answer stays right; the
 * ttl only bounds how long a forgotten flow takes memory. One call per flow and replica, however
 * many answers it gets. An unknown flow (or another account's) is remembered as having none; an
 * unreachable flow service throws, so the event is retried rather than counted without its score.
 */
export class CachedNpsQuestions implements FlowQuestions {
  private readonly cache: LRUCache<string, { key: string | null }>;

  constructor(
    private readonly client: Pick<GrpcClient<FlowServiceClient>, 'getFlow'>,
    opts: { maxEntries: number; ttlMs: number },
  ) {
    this.cache = new LRUCache({ max: opts.maxEntries, ttl: opts.ttlMs });
  }

  async npsQuestionOf(accountId: string, flowId: string): Promise<string | null> {
    const id = `${accountId}/${flowId}`;
    const hit = this.cache.get(id);
    if (hit) return hit.key;
    const key = await this.lookUp(accountId, flowId);
    this.cache.set(id, { key });
    return key;
  }

  private async lookUp(accountId: string, flowId: string): Promise<string | null> {
    try {
      const { flow } = await this.client.getFlow({ accountId, flowId });
      return flow?.questions.find((q) => q.style === 'nps')?.key ?? null;
    } catch (err) {
      if (err instanceof AppError && err.kind === 'not_found') return null;
      throw err;
    }
  }
}
