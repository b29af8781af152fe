import type { Logger } from '@feedback/kit-core';
import { createGrpcClient } from '@feedback/kit-grpc';
import { FlowServiceClient } from '@feedback/proto/feedback/flow/v1/flow';
import { HealthCheckResponse_ServingStatus, HealthClient } from '@feedback/proto/grpc/health/v1/health';

/** gRPC clients of the services the gateway calls, and their readiness checks. */
export function connectPeers(cfg: { flowAddr: string; deadlineMs: number; logger: Logger }) {
  const opts = { deadlineMs: cfg.deadlineMs, logger: cfg.logger };
  const flows = createGrpcClient(FlowServiceClient, cfg.flowAddr, opts);
  const health = [{ name: 'flow', client: createGrpcClient(HealthClient, cfg.flowAddr, { ...opts, deadlineMs: 1000 }) }];

  const readiness = health.map(({ name, client }) => ({
    name,
    check: async () => {
      const res = await client.check({ service: '' });
      if (res.status !== HealthCheckResponse_ServingStatus.SERVING) throw new Error(`${name} not serving`);
    },
  }));

  return {
    flows,
    readiness,
    close() {
      flows.close();
      health.forEach((h) => h.client.close());
    },
  };
}
