import type { Logger } from '@feedback/kit-core';
import { createGrpcClient } from '@feedback/kit-grpc';
import { FlowServiceClient } from '@feedback/proto/feedback/flow/v1/flow';
import { ShortenerServiceClient } from '@feedback/proto/feedback/shortener/v1/shortener';
import { HealthCheckResponse_ServingStatus, HealthClient } from '@feedback/proto/grpc/health/v1/health';
import { connectFileService } from './file-service.client.js';

/** gRPC clients of the services the gateway calls, and their readiness checks. */
export function connectPeers(cfg: {
  flowAddr: string;
  fileAddr: string;
  shortenerAddr: string;
  deadlineMs: number;
  streamDeadlineMs: number;
  logger: Logger;
}) {
  const opts = { deadlineMs: cfg.deadlineMs, logger: cfg.logger };
  const flows = createGrpcClient(FlowServiceClient, cfg.flowAddr, opts);
  const shortener = createGrpcClient(ShortenerServiceClient, cfg.shortenerAddr, opts);
  const files = connectFileService(cfg.fileAddr, { ...opts, streamDeadlineMs: cfg.streamDeadlineMs });
  const peers = { flow: cfg.flowAddr, file: cfg.fileAddr, shortener: cfg.shortenerAddr };
  const health = Object.entries(peers).map(([name, addr]) => ({
    name,
    client: createGrpcClient(HealthClient, addr, { ...opts, deadlineMs: 1000 }),
  }));

  const readiness = health.map(({ name, client }) => ({
    name,
    check: async () => {
      const res = await client.check({ service: '' });
      if (res.status !== HealthCheckResponse_ServingStatus.SERVING) throw new Error(`${name} not serving`);
    },
  }));

  return {
    flows,
    files: files.port,
    shortener,
    readiness,
    close() {
      flows.close();
      files.close();
      shortener.close();
      health.forEach((h) => h.client.close());
    },
  };
}
