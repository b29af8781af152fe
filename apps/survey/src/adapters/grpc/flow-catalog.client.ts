import { AppError } from '@feedback/kit-core';
import type { GrpcClient } from '@feedback/kit-grpc';
import type { FlowServiceClient } from '@feedback/proto/feedback/flow/v1/flow';
import type { Flow } from '../../domain/flow.js';
import type { FlowCatalog } from '../../domain/ports.js';

/** Flows from the flow service; its not-found (unknown or another account's flow) is null. */
export class GrpcFlowCatalog implements FlowCatalog {
  constructor(private readonly client: GrpcClient<FlowServiceClient>) {}

  async get(accountId: string, flowId: string): Promise<Flow | null> {
    try {
      const { flow } = await this.client.getFlow({ accountId, flowId });
      return flow ?? null;
    } catch (err) {
      if (err instanceof AppError && err.kind === 'not_found') return null;
      throw err;
    }
  }
}
